import MediaGraphCore

/// `wavsrc`: reads a WAV file (or stdin): PCM 8/16/24/32-bit and 32/64-bit float, 1 to 8
/// channels, converted to float planar buffers.
public final class WAVSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "wavsrc", doc: "Reads WAV audio (PCM 8/16/24/32-bit or float, mono to 8 channels) from a file or standard input.",
        category: .source,
        outputs: [PortSpec("out", .audio([.f32planar]), doc: "raw audio, float planar")],
        params: [.path("path", role: .input, required: true, doc: "input file, or \"-\" for standard input"),
                 .int("chunk", 1...65536, default: 1024, doc: "samples per buffer")])

    let file: InputFile?
    let format: AudioFormat
    let bitsPerSample: Int
    let isFloat: Bool
    let chunk: Int
    /// Bytes of sample data left (nil: until end of file, as streamed WAV headers say).
    var remaining: Int64?
    var position: Int64 = 0
    var raw: [UInt8] = []

    public init(setup: NodeSetup) throws {
        let path = setup.params.path("path")!
        chunk = setup.params.int("chunk", default: 1024)
        if path == "-" && setup.dryRun {
            file = nil
            format = AudioFormat(sampleFormat: .f32planar, sampleRate: 48000, channels: 2)
            bitsPerSample = 16
            isFloat = false
            return
        }
        let f = try InputFile(path: path)
        f.stop = setup.stop
        file = f
        func read(_ n: Int, _ what: String) throws -> [UInt8] {
            var b = [UInt8](repeating: 0, count: n)
            let got = try b.withUnsafeMutableBufferPointer { try f.read(into: $0.baseAddress!, count: n) }
            if got < n { throw NodeFailure("\(f.displayName): truncated WAV header: \(what) at byte \(f.offset - Int64(got))") }
            return b
        }
        func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24 }
        func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        let riff = try read(12, "RIFF header")
        guard riff[0..<4].elementsEqual("RIFF".utf8), riff[8..<12].elementsEqual("WAVE".utf8) else {
            throw NodeFailure("\(f.displayName) is not a WAV file: expected \"RIFF\" … \"WAVE\" at byte 0")
        }
        var fmt: [UInt8]?
        while true {
            let at = f.offset
            let header = try read(8, "chunk header")
            let id = String(decoding: header[0..<4], as: UTF8.self)
            let size = u32(header, 4)
            if id == "fmt " {
                guard size >= 16 && size < 1024 else { throw NodeFailure("\(f.displayName): bad fmt chunk size \(size) at byte \(at)") }
                fmt = try read(Int(size), "fmt chunk")
                if size % 2 == 1 { _ = try read(1, "padding") }
            } else if id == "data" {
                remaining = (size == 0xFFFF_FFFF || size == 0) ? nil : Int64(size)
                break
            } else {
                guard size < 1 << 30 else { throw NodeFailure("\(f.displayName): chunk '\(id)' at byte \(at) is too large (\(size) bytes)") }
                _ = try read(Int(size) + Int(size % 2), "chunk '\(id)'")
            }
        }
        guard let fmt else { throw NodeFailure("\(f.displayName): no fmt chunk before the data chunk") }
        var tag = u16(fmt, 0)
        let channels = u16(fmt, 2)
        let rate = Int(u32(fmt, 4))
        let bits = u16(fmt, 14)
        if tag == 0xFFFE && fmt.count >= 26 { tag = u16(fmt, 24) }   // WAVE_FORMAT_EXTENSIBLE: sub-format GUID
        guard tag == 1 || tag == 3 else { throw NodeFailure("\(f.displayName): WAV format tag \(tag) is not supported; expected PCM (1) or IEEE float (3)") }
        guard (1...8).contains(channels) else { throw NodeFailure("\(f.displayName): \(channels) channels; expected 1 to 8") }
        guard rate > 0 && rate <= 768_000 else { throw NodeFailure("\(f.displayName): bad sample rate \(rate)") }
        let valid = tag == 3 ? [32, 64] : [8, 16, 24, 32]
        guard valid.contains(bits) else { throw NodeFailure("\(f.displayName): \(bits)-bit \(tag == 3 ? "float" : "PCM") is not supported; expected \(valid.map(String.init).joined(separator: ", "))") }
        isFloat = tag == 3
        bitsPerSample = bits
        format = AudioFormat(sampleFormat: .f32planar, sampleRate: rate, channels: channels)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.audio(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        guard let file else { return false }
        let frameBytes = format.channels * bitsPerSample / 8
        var want = chunk * frameBytes
        if let r = remaining { want = Int(min(Int64(want), r)) }
        if want == 0 { return false }
        if raw.count < want { raw = [UInt8](repeating: 0, count: want) }
        let got = try raw.withUnsafeMutableBufferPointer { try file.read(into: $0.baseAddress!, count: want) }
        let n = got / frameBytes
        if n == 0 { return false }
        if let r = remaining { remaining = r - Int64(got) }
        var bytes = [UInt8](repeating: 0, count: n * format.channels * 4)
        let channels = format.channels, bits = bitsPerSample, float = isFloat
        raw.withUnsafeBytes { src in
            bytes.withUnsafeMutableBytes { dst in
                let out = dst.baseAddress!.assumingMemoryBound(to: Float.self)
                let p = src.baseAddress!
                for i in 0..<n {
                    for c in 0..<channels {
                        let at = (i * channels + c) * bits / 8
                        let v: Float
                        switch (bits, float) {
                        case (8, false): v = (Float(p.load(fromByteOffset: at, as: UInt8.self)) - 128) / 128
                        case (16, false): v = Float(Int16(littleEndian: p.loadUnaligned(fromByteOffset: at, as: Int16.self))) / 32768
                        case (24, false):
                            let b0 = Int32(p.load(fromByteOffset: at, as: UInt8.self)), b1 = Int32(p.load(fromByteOffset: at + 1, as: UInt8.self))
                            let b2 = Int32(Int8(bitPattern: p.load(fromByteOffset: at + 2, as: UInt8.self)))
                            v = Float(b0 | b1 << 8 | b2 << 16) / 8_388_608
                        case (32, false): v = Float(Int32(littleEndian: p.loadUnaligned(fromByteOffset: at, as: Int32.self))) / 2_147_483_648
                        case (32, true): v = p.loadUnaligned(fromByteOffset: at, as: Float.self)
                        default: v = Float(p.loadUnaligned(fromByteOffset: at, as: Double.self))
                        }
                        out[c * n + i] = v
                    }
                }
            }
        }
        let b = SampleBuffer(bytes: bytes, format: .audio(format), pts: position, duration: Int64(n),
                             timeBase: Rational(1, Int64(format.sampleRate)), flags: .keyFrame, sampleCount: n)
        position += Int64(n)
        try output.send(consume b)
        if got % frameBytes != 0 {
            throw NodeFailure("\(file.displayName): truncated sample frame at byte \(file.offset) (\(got % frameBytes) of \(frameBytes) bytes)")
        }
        return true
    }
}
