/// The Xing/Info frame ffmpeg's mp3 muxer puts before the audio (libavformat/mp3enc.c): a silent
/// Layer III frame whose payload holds the frame and byte counts, a 100-entry seek table and the
/// LAME tag (encoder delay and padding, music length and CRCs), so players show the exact
/// duration and gapless decoders trim the priming and the last frame's padding.
struct XingInfoFrame {
    /// Everything the tag says, known only when the last frame is written.
    struct Counts {
        /// Audio frames (the Info frame not counted).
        var frames: Int
        /// Bytes of the Info frame and the audio frames.
        var bytes: Int64
        /// Seek table: byte position at each percent, as 256ths of `bytes`.
        var toc: [UInt8]
        /// Samples the decoder drops at the start, beyond its own 529 (LAME's delay).
        var delay: Int
        /// Samples the decoder drops at the end, 529 of its own delay included (LAME's padding).
        var padding: Int
        /// CRC-16 of the audio frames.
        var musicCRC: UInt16
        /// "Xing" (bitrate varies) rather than "Info" (constant).
        var variableBitrate: Bool
    }

    /// The frame's header: the first audio frame's version, rate and channels, at the bitrate
    /// nearest the stream's whose frame holds the tag (as mp3enc.c picks it).
    let header: MP3FrameHeader
    /// Where "Xing"/"Info" starts: after the header and the (zero) side information.
    var tagOffset: Int { 4 + header.sideInfoSize }
    /// Bytes up to the end of the LAME tag.
    var bytesNeeded: Int { tagOffset + 156 }

    /// nil if no bitrate of this version holds the tag (it always fits at 64 kbit/s and above).
    /// - Parameter nominalBitrate: the stream's bitrate in bit/s (0 for VBR: the smallest that fits).
    init?(firstFrame: MP3FrameHeader, nominalBitrate: Int) {
        var h = firstFrame
        h.padding = false
        h.channelMode = firstFrame.channelMode == 3 ? 3 : 0
        // mp3enc.c's choice: the bitrate nearest the stream's (the lower of two as near), then up
        h.bitrateIndex = (1...14).min { i, j in
            h.bitrateIndex = i; let a = abs(h.bitrate - nominalBitrate)
            h.bitrateIndex = j; let b = abs(h.bitrate - nominalBitrate)
            return (a, i) < (b, j)
        }!
        while h.frameSize < 4 + h.sideInfoSize + 156 {
            guard h.bitrateIndex < 14 else { return nil }
            h.bitrateIndex += 1
        }
        header = h
    }

    /// The frame's bytes (zeros where the counts go when `counts` is nil: the placeholder).
    func bytes(_ counts: Counts?) -> [UInt8] {
        var f = [UInt8](repeating: 0, count: header.frameSize)
        f.replaceSubrange(0..<4, with: header.bytes)
        let t = tagOffset
        put(&f, t, Array((counts?.variableBitrate ?? false ? "Xing" : "Info").utf8))
        put(&f, t + 4, be(0x0F, 4))   // frames, bytes, TOC and quality present
        guard let counts else { return f }
        put(&f, t + 8, be(UInt64(counts.frames), 4))
        put(&f, t + 12, be(UInt64(counts.bytes), 4))
        put(&f, t + 16, counts.toc)
        // t + 116: quality 0, as mp3enc.c writes it
        put(&f, t + 120, Array("Lavf".utf8))   // the LAME tag's "encoder": readers take delay/padding from LAME, Lavf, Lavc
        // t + 129…140: revision, lowpass, replay gain, flags, ABR rate: all unknown (0)
        put(&f, t + 141, be(UInt64(min(counts.delay, 4095) << 12 | min(counts.padding, 4095)), 3))
        // t + 144…147: misc, MP3 gain, preset: 0
        put(&f, t + 148, be(UInt64(counts.bytes), 4))
        put(&f, t + 152, be(UInt64(counts.musicCRC), 2))
        put(&f, t + 154, be(UInt64(CRC16.update(0, f[0..<(t + 154)])), 2))
        return f
    }

    private func put(_ f: inout [UInt8], _ at: Int, _ v: [UInt8]) { f.replaceSubrange(at..<(at + v.count), with: v) }
    private func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64(n - 1 - $0))) } }
}

/// CRC-16/ARC (polynomial 0x8005 reflected, initial 0): the LAME tag's music and tag CRCs.
enum CRC16 {
    static let table: [UInt16] = (0..<256).map { i in
        var c = UInt16(i)
        for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xA001 : c >> 1 }
        return c
    }

    static func update(_ crc: UInt16, _ bytes: some Sequence<UInt8>) -> UInt16 {
        var c = crc
        for b in bytes { c = (c >> 8) ^ table[Int((c ^ UInt16(b)) & 0xFF)] }
        return c
    }
}
