import MediaGraphCodecs

/// Tiny elementary-stream writers for the tests: Annex B as is, IVF for VP8/VP9, ADTS for AAC.
enum ElementaryStream {
    static func annexB(_ packets: [EncodedPacket]) -> [UInt8] {
        packets.flatMap(\.data)
    }

    /// IVF: 32-byte file header, then a 12-byte header (size, pts) before each frame.
    static func ivf(_ packets: [EncodedPacket], fourcc: String, width: Int, height: Int,
                    timeBaseNum: Int, timeBaseDen: Int) -> [UInt8] {
        var out: [UInt8] = Array("DKIF".utf8)
        out += le16(0) + le16(32) + Array(fourcc.utf8) + le16(width) + le16(height)
        out += le32(timeBaseDen) + le32(timeBaseNum) + le32(packets.count) + le32(0)
        for p in packets {
            out += le32(p.data.count) + le32(Int(truncatingIfNeeded: p.pts)) + le32(Int(truncatingIfNeeded: p.pts >> 32))
            out += p.data
        }
        return out
    }

    /// Frame payloads of an IVF file.
    static func ivfFrames(_ bytes: [UInt8]) -> [[UInt8]] {
        guard bytes.count >= 32 else { return [] }
        let headerSize = Int(bytes[6]) | Int(bytes[7]) << 8
        var i = headerSize
        var frames: [[UInt8]] = []
        while i + 12 <= bytes.count {
            let size = Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
            i += 12
            guard i + size <= bytes.count else { break }
            frames.append(Array(bytes[i..<i + size]))
            i += size
        }
        return frames
    }

    /// ADTS: a 7-byte header (no CRC) before each raw AAC LC frame.
    static func adts(_ packets: [EncodedPacket], sampleRateIndex: Int, channels: Int) -> [UInt8] {
        var out: [UInt8] = []
        for p in packets {
            let length = p.data.count + 7
            out += [0xFF, 0xF1,
                    UInt8((1 << 6) | (sampleRateIndex << 2) | (channels >> 2)),
                    UInt8(((channels & 3) << 6) | (length >> 11)),
                    UInt8((length >> 3) & 0xFF),
                    UInt8(((length & 7) << 5) | 0x1F),
                    0xFC]
            out += p.data
        }
        return out
    }

    private static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)] }
    private static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
}
