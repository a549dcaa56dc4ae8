import Foundation
import Testing

/// Movie tags in the mp4 sink (`metadata`): the udta box ffmpeg 5.1 writes for the same
/// `-metadata` (with -fflags +bitexact, which leaves out its own encoder tag), byte for byte, and
/// ffprobe reading every tag back.
@Suite struct MP4TagsTests {
    static let tags: [(key: String, value: String)] = [
        ("title", "Hello wörld \u{1F30D}"), ("artist", "Me"), ("album_artist", "Band"), ("composer", "Co"), ("album", "Album"),
        ("date", "2026"), ("comment", "a \"quoted\" comment"), ("genre", "Rock"), ("copyright", "(c) us"), ("grouping", "G"),
        ("lyrics", "la la"), ("description", "What it is"), ("track", "3/9"), ("disc", "1/2"),
    ]

    /// The moov/udta box of an MP4 file (empty when there is none).
    static func udta(_ path: String) -> [UInt8] {
        let d = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        func u32(_ i: Int) -> Int { Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3]) }
        func find(_ type: String, _ start: Int, _ end: Int) -> Range<Int>? {
            var i = start
            while i + 8 <= end {
                let size = u32(i)
                guard size >= 8, i + size <= end else { return nil }
                if String(decoding: d[(i + 4)..<(i + 8)], as: UTF8.self) == type { return i..<(i + size) }
                i += size
            }
            return nil
        }
        guard let moov = find("moov", 0, d.count), let udta = find("udta", moov.lowerBound + 8, moov.upperBound) else { return [] }
        return Array(d[udta])
    }

    static func formatTags(_ path: String) throws -> [String: String] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=noprint_wrappers=1", path])
        var out: [String: String] = [:]
        for line in r.out.split(separator: "\n") where line.hasPrefix("TAG:") {
            let kv = line.dropFirst(4).split(separator: "=", maxSplits: 1)
            out[String(kv[0])] = kv.count == 2 ? String(kv[1]) : ""
        }
        return out
    }

    @Test(arguments: [("\"faststart\": true", "+faststart"), ("\"faststart\": false", ""),
                      ("\"fragmented\": true", "+frag_keyframe+empty_moov+default_base_moof")])
    func tagsAreFFmpegsUdtaByteForByte(_ layout: String, _ movflags: String) throws {
        let dir = CLI.tempDir()
        let metadata = Self.tags.map { "\"\($0.key)\": \"\($0.value.replacingOccurrences(of: "\"", with: "\\\""))\"" }.joined(separator: ", ")
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 5 } }, "enc": { "type": "h264" },
                     "mux": { "type": "mp4", "params": { "path": "ours.mp4", \(layout), "metadata": { \(metadata) } } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        try #require(r.status == 0, "\(r.stderr)")
        var args = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:d=0.2", "-c:v", "libx264", "-fflags", "+bitexact"]
        if !movflags.isEmpty { args += ["-movflags", movflags] }
        for t in Self.tags { args += ["-metadata", "\(t.key)=\(t.value)"] }
        try CLI.run("ffmpeg", args + [dir + "/ffmpeg.mp4"])
        let ours = Self.udta(dir + "/ours.mp4"), theirs = Self.udta(dir + "/ffmpeg.mp4")
        #expect(ours.count > 300 && ours == theirs, "udta: ours \(ours.count) bytes, ffmpeg's \(theirs.count)")
        let read = try Self.formatTags(dir + "/ours.mp4")
        for t in Self.tags { #expect(read[t.key] == t.value, "\(t.key): ffprobe reads \(read[t.key] ?? "nothing")") }
    }

    /// An unknown key or a value that is not text stops validation with the node, the param and
    /// the keys it takes; ffmpeg would drop the tag without a word.
    @Test(arguments: [("{ \"titel\": \"x\" }", "param 'metadata': unknown tag 'titel'; expected one of title, artist,"),
                      ("{ \"track\": \"three\" }", "tag 'track': expected a number or \"number/total\" (0…65535), found \"three\""),
                      ("{ \"title\": [1] }", "param 'metadata': tag 'title': expected a string, found array"),
                      ("\"title=x\"", "param 'metadata': expected an object of tags")])
    func badTagsAreValidationErrors(_ metadata: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 2 } }, "enc": { "type": "h264" },
                     "mux": { "type": "mp4", "params": { "path": "o.mp4", "metadata": \(metadata) } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status != 0 && r.stderr.contains("'mux'") && r.stderr.contains(message), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.mp4"))
    }

    /// A file's own tags go through to the output, as ffmpeg keeps its first input file's: copied
    /// streams give ffmpeg's `-c copy` udta byte for byte; through a decoder, a filter and an
    /// encoder the tags still arrive, and from Matroska too; the graph's `metadata` replaces a tag
    /// or removes it (""), as ffmpeg's `-metadata comment=new -metadata artist=`.
    @Test func aFilesOwnTagsAreKeptUnderWhatTheGraphSets() throws {
        let dir = CLI.tempDir()
        var args = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:d=0.2", "-c:v", "libx264", "-fflags", "+bitexact"]
        for t in Self.tags { args += ["-metadata", "\(t.key)=\(t.value)"] }
        try CLI.run("ffmpeg", args + [dir + "/tagged.mp4"])
        try CLI.run("ffmpeg", args + [dir + "/tagged.mkv"])
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/tagged.mp4", "-c", "copy", "-fflags", "+bitexact", dir + "/ffmpeg-copy.mp4"])
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/tagged.mp4", "-c", "copy", "-fflags", "+bitexact",
                               "-metadata", "comment=new", "-metadata", "artist=", dir + "/ffmpeg-changed.mp4"])
        func run(_ input: String, _ filter: Bool, _ metadata: String, _ output: String) throws {
            let chain = filter ? "\"in.video\", \"inv\", \"enc\", \"mux.video\"" : "\"in.video\", \"mux.video\""
            let filters = filter ? "\"inv\": { \"type\": \"invert\" }, \"enc\": { \"type\": \"h264\" }," : ""
            let g = CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } }, \(filters)
                         "mux": { "type": "mp4", "params": { "path": "\(output)", "metadata": { \(metadata) } } } },
              "chains": [[\(chain)]] }
            """, in: dir, name: output + ".json")
            let r = try CLI.mediagraph("run", "--quiet", g)
            try #require(r.status == 0, "\(r.stderr)")
        }
        try run("tagged.mp4", false, "", "copy.mp4")
        #expect(Self.udta(dir + "/copy.mp4") == Self.udta(dir + "/ffmpeg-copy.mp4") && Self.udta(dir + "/copy.mp4").count > 300)
        let all = try Self.formatTags(dir + "/tagged.mp4")
        try run("tagged.mp4", true, "", "transcoded.mp4")
        try run("tagged.mkv", true, "", "from-mkv.mp4")
        for file in ["transcoded.mp4", "from-mkv.mp4"] {
            let read = try Self.formatTags(dir + "/" + file)
            for t in Self.tags { #expect(read[t.key] == all[t.key], "\(file) \(t.key): \(read[t.key] ?? "missing")") }
        }
        try run("tagged.mp4", false, "\"comment\": \"new\", \"artist\": \"\"", "changed.mp4")
        #expect(Self.udta(dir + "/changed.mp4") == Self.udta(dir + "/ffmpeg-changed.mp4"))
        let changed = try Self.formatTags(dir + "/changed.mp4")
        #expect(changed["comment"] == "new" && changed["artist"] == nil && changed["title"] == all["title"], "\(changed)")
    }
}
