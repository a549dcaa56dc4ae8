import MediaGraphCore

/// An ID3v2.4 tag as ffmpeg 5.1's mp3 muxer writes it in front of the Info frame, byte for byte:
/// the tags renamed to frames as libavformat renames them (title → TIT2, artist → TPE1, album →
/// TALB, track → TRCK, date → TDRC, …), each a text frame of its ID3v2 name, any other name a
/// TXXX frame (description = the name), all text UTF-8 (encoding 3) with a terminating NUL, in
/// the order the tags are listed; then, for chapters, a CTOC frame listing `ch0`, `ch1`, … and a
/// CHAP frame each (start and end in milliseconds, a TIT2 frame with its title); then 10 bytes of
/// padding.
public struct ID3v2Tag: Sendable {
    /// The whole tag, header included.
    public let bytes: [UInt8]

    /// ff_id3v2_34_metadata_conv then ff_id3v2_4_metadata_conv: libavformat's names to frames.
    static let frameNames: [String: String] = [
        "album": "TALB", "composer": "TCOM", "genre": "TCON", "copyright": "TCOP", "encoded_by": "TENC",
        "title": "TIT2", "language": "TLAN", "artist": "TPE1", "album_artist": "TPE2", "performer": "TPE3",
        "disc": "TPOS", "publisher": "TPUB", "track": "TRCK", "encoder": "TSSE", "lyrics": "USLT",
        "compilation": "TCMP", "date": "TDRC", "creation_time": "TDEN", "album-sort": "TSOA",
        "artist-sort": "TSOP", "title-sort": "TSOT", "grouping": "TIT1",
    ]
    /// Text frames ffmpeg writes under their own names (ff_id3v2_tags, ff_id3v2_4_tags).
    static let textFrames: Set<String> = [
        "TALB", "TBPM", "TCOM", "TCON", "TCOP", "TDLY", "TENC", "TEXT", "TFLT", "TIT1", "TIT2", "TIT3", "TKEY", "TLAN",
        "TLEN", "TMED", "TOAL", "TOFN", "TOLY", "TOPE", "TOWN", "TPE1", "TPE2", "TPE3", "TPE4", "TPOS", "TPUB", "TRCK",
        "TRSN", "TRSO", "TSRC", "TSSE", "TDEN", "TDOR", "TDRC", "TDRL", "TDTG", "TIPL", "TMCL", "TMOO", "TPRO", "TSOA",
        "TSOP", "TSOT", "TSST",
    ]

    /// Why `name` cannot be given as a tag, nil when it can: ffmpeg writes its own encoder
    /// (TSSE), rewrites creation_time, and reads `id3v2_priv.` names as escaped binary PRIV frames.
    public static func check(_ name: String) -> String? {
        let lower = name.lowercased()
        if lower == "encoder" || lower == "creation_time" {
            return "tag '\(name)' is not written to the ID3v2 tag (ffmpeg writes its own); expected another name, such as title, artist, album, date, track, genre"
        }
        if lower.hasPrefix("id3v2_priv.") { return "tag '\(name)': PRIV frames are not written; expected a name without 'id3v2_priv.'" }
        if name.isEmpty { return "a tag needs a name" }
        return nil
    }

    /// The tag for `tags` (those `check` refuses left out) and `chapters`; nil when there is
    /// nothing to write (ffmpeg would write an empty tag: a header and 10 bytes of padding).
    public init?(_ tags: TagList, chapters: [Chapter]) {
        let kept = TagList(tags.entries.filter { Self.check($0.key) == nil }.map { (key: $0.key, value: $0.value) })
        guard !kept.isEmpty || !chapters.isEmpty else { return nil }
        var frames: [UInt8] = []
        Self.appendFrames(kept, to: &frames)
        if !chapters.isEmpty {
            var toc: [UInt8] = Array("toc".utf8) + [0, 0x03, UInt8(truncatingIfNeeded: chapters.count)]
            for i in chapters.indices { toc += Array("ch\(i)".utf8) + [0] }
            Self.appendFrame("CTOC", toc, syncsafe: false, to: &frames)
            for (i, c) in chapters.enumerated() {
                var chap: [UInt8] = Array("ch\(i)".utf8) + [0]
                for v in [c.rescaled(c.start, to: 1000) ?? 0, c.rescaled(c.end, to: 1000) ?? 0] {
                    chap += Self.u32(UInt32(truncatingIfNeeded: v))
                }
                chap += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
                if let title = c.title { Self.appendFrames(["title": title], to: &chap) }
                Self.appendFrame("CHAP", chap, syncsafe: false, to: &frames)
            }
        }
        frames += [UInt8](repeating: 0, count: 10)
        bytes = Array("ID3".utf8) + [4, 0, 0] + Self.syncsafe(frames.count) + frames
    }

    /// Text frames (TXXX for names without a frame of their own), in order.
    static func appendFrames(_ tags: TagList, to out: inout [UInt8]) {
        let renamed = tags.renamed { frameNames[$0.lowercased()] ?? $0 }
        for e in renamed.entries {
            if textFrames.contains(e.key) {
                appendFrame(e.key, [3] + Array(e.value.utf8) + [0], syncsafe: true, to: &out)
            } else {
                appendFrame("TXXX", [3] + Array(e.key.utf8) + [0] + Array(e.value.utf8) + [0], syncsafe: true, to: &out)
            }
        }
    }

    /// A frame header (ID, size, no flags) and its payload. ffmpeg writes the sizes of CTOC and
    /// CHAP frames as plain 32-bit numbers, not syncsafe ones (the same below 128 bytes).
    static func appendFrame(_ id: String, _ payload: [UInt8], syncsafe: Bool, to out: inout [UInt8]) {
        out += Array(id.utf8)
        out += syncsafe ? Self.syncsafe(payload.count) : u32(UInt32(truncatingIfNeeded: payload.count))
        out += [0, 0]
        out += payload
    }

    static func syncsafe(_ n: Int) -> [UInt8] {
        [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)]
    }

    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}
