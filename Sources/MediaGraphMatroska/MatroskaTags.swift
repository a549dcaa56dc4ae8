import MediaGraphCore

/// Movie tags as ffmpeg 5.1's matroskaenc writes them: `title` as the Segment's Info/Title, every
/// other tag as a SimpleTag (TagName in upper case, spaces as underscores; TagString) of one Tag
/// whose Targets are empty (the whole segment), in the order the tags are listed, after ffmpeg's
/// renames (`performer` → LEAD_PERFORMER, `track` → PART_NUMBER).
public struct MatroskaTags: Sendable, Equatable {
    /// Info/Title.
    public let title: String?
    /// The SimpleTags: TagName as written, TagString.
    public let simpleTags: [TagList.Entry]

    public enum TagError: Error, CustomStringConvertible, Equatable {
        case notWritten(String)
        case language(String)

        public var description: String {
            switch self {
            case .notWritten(let k):
                return "tag '\(k)' is not written to Matroska (ffmpeg leaves it out or writes its own); expected any other name, such as title, artist, album, date, comment, track"
            case .language(let k):
                return "tag '\(k)': a name with '-' is not written (ffmpeg reads the part after '-' as the tag's language); expected a name without '-'"
            }
        }
    }

    /// Names ffmpeg does not write as tags: written elsewhere (creation_time as DateUTC,
    /// encoding_tool as WritingApp, stereo_mode in the track) or its own (encoder, duration).
    static let notWritten: Set<String> = ["encoder", "creation_time", "encoding_tool", "duration", "stereo_mode"]

    /// Why `name` cannot be given as a tag, nil when it can.
    public static func check(_ name: String) -> TagError? {
        if notWritten.contains(name.lowercased()) { return .notWritten(name) }
        if name.contains("-") { return .language(name) }
        return nil
    }

    /// `tags` in their order; those `check` refuses are left out, as ffmpeg leaves them out of
    /// Tags (a copied file's creation_time, its encoder).
    public init(_ tags: TagList) {
        title = tags["title"]
        let renamed = tags.renamed { key in
            switch key.lowercased() {
            case "performer": return "LEAD_PERFORMER"
            case "track": return "PART_NUMBER"
            default: return key
            }
        }
        simpleTags = renamed.entries.compactMap { e in
            guard e.key.lowercased() != "title", Self.check(e.key) == nil, !e.key.isEmpty else { return nil }
            let name = String(String.UnicodeScalarView(e.key.unicodeScalars.map { c -> Unicode.Scalar in
                if c == " " { return "_" }
                return ("a"..."z").contains(c) ? Unicode.Scalar(c.value - 32)! : c
            }))
            return TagList.Entry(key: name, value: e.value)
        }
    }

    public var isEmpty: Bool { title == nil && simpleTags.isEmpty }

    /// Tags { Tag { Targets {}, SimpleTag { TagName, TagString } … } }, nothing without tags.
    func writeTags(_ w: inout EBMLWriter) {
        guard !simpleTags.isEmpty else { return }
        w.master(MatroskaID.tags) { w in
            w.master(MatroskaID.tag) { w in
                w.master(MatroskaID.targets) { _ in }
                for t in simpleTags {
                    w.master(MatroskaID.simpleTag) { w in
                        w.string(MatroskaID.tagName, t.key)
                        w.string(MatroskaID.tagString, t.value)
                    }
                }
            }
        }
    }
}
