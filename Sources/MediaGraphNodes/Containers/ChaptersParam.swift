import MediaGraphCore

/// The `chapters` param the muxers share (mp4, matroska, mp3sink): the movie's chapters given in
/// the graph, which replace those copied from the first input's file (as ffmpeg's -map_chapters
/// with a metadata file replaces them).
enum ChaptersParam {
    static let param = Param<JSONValue?>(spec: .json(
        "chapters",
        doc: "chapters instead of the input file's: [{\"start\": 0, \"title\": \"Intro\"}, {\"start\": \"1:30\", \"end\": \"2:00\", \"title\": \"…\"}]; times in seconds or \"mm:ss.ms\", in order; end: the next chapter's start when left out (required for the last)")) { $0[$1] }

    /// The chapters the param gives (nanosecond time base), nil when it is not set.
    static func chapters(_ value: JSONValue?) throws -> [Chapter]? {
        guard let value else { return nil }
        func fail(_ what: String) -> NodeFailure { NodeFailure("param 'chapters': \(what)") }
        guard let items = value.arrayValue else {
            throw fail("expected an array of chapters such as [{\"start\": 0, \"title\": \"Intro\"}], found \(value.typeName)")
        }
        func nanoseconds(_ v: JSONValue, _ what: String) throws -> Int64 {
            guard case .seconds(let r)? = TimeValue(json: v), let ns = MediaTime.rescale(r.num, timeBase: Rational(1, r.den), to: 1_000_000_000) else {
                throw fail("\(what): expected seconds or \"hh:mm:ss.ms\", found \(v.brief)")
            }
            return ns
        }
        var parsed: [(start: Int64, end: Int64?, title: String?)] = []
        for (i, item) in items.enumerated() {
            let what = "chapter \(i + 1)"
            guard let members = item.objectMembers else { throw fail("\(what): expected an object with start, end, title, found \(item.typeName)") }
            var start: Int64?, end: Int64?, title: String?
            for m in members {
                switch m.key {
                case "start": start = try nanoseconds(m.value, "\(what) start")
                case "end": end = try nanoseconds(m.value, "\(what) end")
                case "title":
                    guard let s = m.value.stringValue else { throw fail("\(what) title: expected a string, found \(m.value.typeName)") }
                    title = s
                default: throw fail("\(what): unknown key '\(m.key)'; expected start, end, title")
                }
            }
            guard let start else { throw fail("\(what): expected a start") }
            if let previous = parsed.last, start < previous.start {
                throw fail("\(what) starts at \(Double(start) / 1e9) s, before chapter \(i) (\(Double(previous.start) / 1e9) s); expected chapters in order")
            }
            parsed.append((start, end, title))
        }
        return try parsed.enumerated().map { i, c in
            guard let end = c.end ?? (i + 1 < parsed.count ? parsed[i + 1].start : nil) else {
                throw fail("chapter \(i + 1): expected an end for the last chapter (the file's end is not known when chapters are written)")
            }
            guard end >= c.start else { throw fail("chapter \(i + 1): end \(Double(end) / 1e9) s is before its start \(Double(c.start) / 1e9) s") }
            return Chapter(start: c.start, end: end, timeBase: Rational(1, 1_000_000_000), title: c.title)
        }
    }
}
