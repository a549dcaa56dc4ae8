import MediaGraphCore

/// Chapters as the Nero `chpl` box in moov/udta, after the tags, as ffmpeg 5.1's mp4 muxer
/// writes it: version 1, four zero bytes, a one-byte count (at most 255 chapters), then per
/// chapter its start in 100 ns units and its title as a length byte and at most 255 bytes of
/// UTF-8 (cut there, as ffmpeg cuts it). Ends are not stored: a reader ends each chapter where
/// the next starts, the last at the movie's end.
enum NeroChapters {
    static func write(_ chapters: [Chapter], _ w: inout ByteWriter) {
        guard !chapters.isEmpty else { return }
        let kept = chapters.prefix(255)
        w.box("chpl") { w in
            w.u32(0x0100_0000) // version 1, flags 0
            w.u32(0)
            w.u8(UInt8(kept.count))
            for c in kept {
                w.i64(c.rescaled(c.start, to: 10_000_000) ?? 0)
                let title = Array((c.title ?? "").utf8.prefix(255))
                w.u8(UInt8(title.count))
                w.append(title)
            }
        }
    }
}
