import MediaGraphCore

/// What the muxers (`mp4`, `matroska`, `mp3sink`) share about a movie's tags and chapters: the
/// `metadata` param (ffmpeg's `-metadata key=value`; "" removes a tag), and what they copy by
/// default from their first input's file (its tags, as ffmpeg keeps input 0's, and its chapters,
/// as ffmpeg's default -map_chapters), merged the way ffmpeg merges them.
enum MovieMetadata {
    /// The `metadata` param; `keys` says which names the container takes.
    static func param(keys: String) -> Param<JSONValue?> {
        Param<JSONValue?>(spec: .json("metadata", default: .object([], nil),
                                      doc: "movie tags, as ffmpeg's -metadata: {\"title\": \"…\", \"artist\": \"…\"}; \"\" removes a tag copied from the input; keys: " + keys)) { $0[$1] }
    }

    /// The param's tags in the order given (numbers taken as written; "" for a tag to remove),
    /// each name passed through `check` (nil: fine; else why not).
    static func given(_ value: JSONValue?, check: (String) -> String?) throws -> [(name: String, value: String)] {
        guard let value else { return [] }
        guard let members = value.objectMembers else {
            throw NodeFailure("param 'metadata': expected an object of tags such as {\"title\": \"…\"}, found \(value.typeName)")
        }
        return try members.map { m -> (name: String, value: String) in
            if let why = check(m.key) { throw NodeFailure("param 'metadata': \(why)") }
            if let s = m.value.stringValue { return (m.key, s) }
            if let n = m.value.numberValue, n == n.rounded(), abs(n) < 1e9 { return (m.key, String(Int(n))) }
            throw NodeFailure("param 'metadata': tag '\(m.key)': expected a string, found \(m.value.typeName)")
        }
    }

    /// The tags of the first input that brings any from its file.
    static func copiedTags(_ formats: [MediaFormat]) -> TagList {
        formats.lazy.map { $0.tags.movie }.first { !$0.isEmpty } ?? [:]
    }

    /// The chapters of the first input that brings any (ffmpeg takes the first input file with
    /// chapters).
    static func copiedChapters(_ formats: [MediaFormat]) -> [Chapter] {
        formats.lazy.map { $0.tags.chapters }.first { !$0.isEmpty } ?? []
    }

    /// ffmpeg's output tags: the copied ones, each given tag set in turn (av_dict_set: "" removes
    /// it, another value moves it to the end), then its muxer's own `encoder` taken out (as
    /// libavformat does with -fflags +bitexact; without, it writes its version there).
    static func merged(copied: TagList, given: [(name: String, value: String)]) -> TagList {
        var tags = copied
        for g in given { tags.set(g.name, g.value.isEmpty ? nil : g.value) }
        tags.set("encoder", nil)
        for e in tags.entries where e.key.lowercased().hasPrefix("encoder-") { tags.set(e.key, nil) }
        return tags
    }
}
