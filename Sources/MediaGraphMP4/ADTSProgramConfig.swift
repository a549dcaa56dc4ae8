/// The program config element (PCE) an ADTS stream needs when its AudioSpecificConfig says
/// channel configuration 0: the loudspeakers are then listed in a PCE instead of numbered
/// (hexagonal, quad, 3.1 …). ADTS has no place for the AudioSpecificConfig, so the first frame
/// carries the PCE as an element of its own (ID_PCE, 3 bits) before the frame's data, as
/// ffmpeg's ADTS muxer writes it. The PCE is copied field by field because its byte alignment
/// (before the comment) is counted from the element's new position.
enum ADTSProgramConfig {
    /// The ID_PCE element to put before the first frame's data, from an AudioSpecificConfig of
    /// object type 1…4 and channel configuration 0.
    static func element(fromAudioSpecificConfig asc: [UInt8]) throws -> [UInt8] {
        var r = BitReader(asc)
        _ = try r.read(5)                       // object type (1…4: no escape)
        _ = try r.read(4)                       // sampling frequency index (< 15: no explicit rate)
        _ = try r.read(4)                       // channel configuration: 0
        _ = try r.read(1)                       // frame length flag
        if try r.read(1) == 1 { _ = try r.read(14) }  // core coder delay
        _ = try r.read(1)                       // extension flag
        var w = BitWriter()
        w.write(5, bits: 3)                     // ID_PCE
        func copy(_ n: Int) throws -> Int { let v = try r.read(n); w.write(v, bits: n); return v }
        _ = try copy(4 + 2 + 4)                 // instance tag, object type, frequency index
        let front = try copy(4), side = try copy(4), back = try copy(4), lfe = try copy(2)
        let assoc = try copy(3), cc = try copy(4)
        // mono and stereo mixdown element numbers (4 bits), matrix mixdown index and
        // pseudo-surround (2 + 1), each after its presence bit
        for width in [4, 4, 3] where try copy(1) == 1 { _ = try copy(width) }
        _ = try copy((front + side + back) * 5 + lfe * 4 + assoc * 4 + cc * 5)
        r.align()
        w.align()
        let comment = try copy(8)
        for _ in 0..<comment { _ = try copy(8) }
        return w.bytes
    }

    struct Truncated: Error {}

    struct BitReader {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        mutating func read(_ n: Int) throws -> Int {
            var v = 0
            for _ in 0..<n {
                guard position >> 3 < bytes.count else { throw Truncated() }
                v = v << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return v
        }
        mutating func align() { position = (position + 7) & ~7 }
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        var count = 0
        mutating func write(_ value: Int, bits n: Int) {
            for i in stride(from: n - 1, through: 0, by: -1) {
                if count & 7 == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> i) & 1) << (7 - UInt8(count & 7))
                count += 1
            }
        }
        mutating func align() { count = (count + 7) & ~7 }
    }
}
