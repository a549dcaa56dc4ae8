import MediaGraphCore

/// Reads bits MSB-first from an RBSP (emulation prevention already removed), with the
/// Exp-Golomb codes of H.264/HEVC headers. Reading past the end throws instead of trapping.
struct BitReader {
    struct EndOfData: Error {}

    let bytes: [UInt8]
    private(set) var bitPosition = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var bitsLeft: Int { bytes.count * 8 - bitPosition }

    mutating func bit() throws -> UInt32 {
        guard bitPosition < bytes.count * 8 else { throw EndOfData() }
        let b = (bytes[bitPosition >> 3] >> (7 - UInt8(bitPosition & 7))) & 1
        bitPosition += 1
        return UInt32(b)
    }

    mutating func flag() throws -> Bool { try bit() == 1 }

    mutating func bits(_ n: Int) throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<n { v = (v << 1) | (try bit()) }
        return v
    }

    mutating func skip(_ n: Int) throws {
        guard bitPosition + n <= bytes.count * 8 else { throw EndOfData() }
        bitPosition += n
    }

    /// ue(v), 0…2^32 − 2: a code with more than 31 leading zeros is a syntax error (no field
    /// of H.264/HEVC headers needs one).
    mutating func ue() throws -> UInt32 {
        var zeros = 0
        while try bit() == 0 {
            zeros += 1
            if zeros > 31 { throw H264SyntaxError("Exp-Golomb code with more than 31 leading zero bits") }
        }
        if zeros == 0 { return 0 }
        return UInt32((UInt64(1) << UInt64(zeros)) - 1 + UInt64(try bits(zeros)))
    }

    /// ue(v) for the syntax element `field`, whose values the standard limits to 0…`max`: a
    /// larger value is a syntax error that names the field (so `value + k` cannot overflow).
    mutating func ue(_ field: String, max: UInt32) throws -> UInt32 {
        let v = try ue()
        guard v <= max else { throw H264SyntaxError("\(field) \(v) is out of range 0…\(max)") }
        return v
    }

    /// se(v), −(2^31 − 1)…2^31 − 1.
    mutating func se() throws -> Int32 {
        let k = try ue()
        return k & 1 == 1 ? Int32((k + 1) / 2) : -Int32(k / 2)
    }

    /// se(v) for the syntax element `field`, limited by the standard to `range`.
    mutating func se(_ field: String, _ range: ClosedRange<Int32>) throws -> Int32 {
        let v = try se()
        guard range.contains(v) else {
            throw H264SyntaxError("\(field) \(v) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return v
    }
}
