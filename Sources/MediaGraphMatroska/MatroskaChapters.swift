import MediaGraphCore

/// Chapters as ffmpeg 5.1's matroskaenc writes them: one EditionEntry (its size field 8 bytes
/// long; EditionFlagDefault 1 except in WebM) holding a ChapterAtom per chapter with its UID,
/// start and end in nanoseconds and, for a titled chapter, a ChapterDisplay with the title and
/// the language `und`. UIDs are the chapters' own ids unless one is 0 or two are equal, then
/// 1, 2, 3, … (what an MP4's chapters get).
enum MatroskaChapters {
    static func write(_ chapters: [Chapter], webm: Bool, _ w: inout EBMLWriter) {
        guard !chapters.isEmpty else { return }
        let ids = chapters.map(\.id)
        let newIDs = ids.contains(0) || Set(ids).count != ids.count
        w.master(MatroskaID.chapters) { w in
            w.master(MatroskaID.editionEntry, sizeLength: 8) { w in
                if !webm { w.uint(MatroskaID.editionFlagDefault, 1) }
                for (i, c) in chapters.enumerated() {
                    w.master(MatroskaID.chapterAtom) { w in
                        w.uint(MatroskaID.chapterUID, newIDs ? UInt64(i + 1) : UInt64(bitPattern: c.id))
                        w.uint(MatroskaID.chapterTimeStart, UInt64(max(0, c.rescaled(c.start, to: 1_000_000_000) ?? 0)))
                        w.uint(MatroskaID.chapterTimeEnd, UInt64(max(0, c.rescaled(c.end, to: 1_000_000_000) ?? 0)))
                        if let title = c.title {
                            w.master(MatroskaID.chapterDisplay) { w in
                                w.string(MatroskaID.chapString, title)
                                w.string(MatroskaID.chapLanguage, "und")
                            }
                        }
                    }
                }
            }
        }
    }

    /// Why the chapters cannot be written (one starts before 0 or ends before it starts, which
    /// ffmpeg refuses too), nil when they can.
    static func problem(_ chapters: [Chapter]) -> String? {
        for (i, c) in chapters.enumerated() {
            guard let s = c.rescaled(c.start, to: 1_000_000_000), let e = c.rescaled(c.end, to: 1_000_000_000), s >= 0, s <= e else {
                return "chapter \(i + 1) ('\(c.title ?? "")'): start \(c.start) and end \(c.end) in time base \(c.timeBase) are not 0 ≤ start ≤ end"
            }
        }
        return nil
    }
}
