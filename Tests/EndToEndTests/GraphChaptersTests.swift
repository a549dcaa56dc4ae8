import Foundation
import Testing

/// The `chapters` param of `matroska`, `mp4` and `mp3sink`: chapters given in the graph are
/// written as ffmpeg writes the same chapters from a metadata file (`-map_chapters`), byte for
/// byte, and read back by ffprobe; a bad list stops validation naming node, param and problem.
@Suite struct GraphChaptersTests {
    /// MovieTagsMedia.chapters as the param spells them (the second chapter's start as a clock).
    static let param = #"[{"start": 0, "title": "Intro \"quoted\""}, {"start": "0:00.2", "end": 0.4, "title": "Zwei wörter \#u{1F30D}"}]"#

    @Test(arguments: ["mkv", "mp4", "mp3"])
    func chaptersParamIsWrittenAsFFmpegWritesThem(_ ext: String) throws {
        let dir = CLI.tempDir()
        let (nodes, chain, input, codec): (String, String, [String], [String]) = ext == "mp3"
            ? (#""s": { "type": "sine", "params": { "seconds": 0.4 } }, "enc": { "type": "mp3" }, "mux": { "type": "mp3sink", "#,
               #""s", "enc", "mux""#, ["-f", "lavfi", "-i", "sine=duration=0.4"], ["-c:a", "libmp3lame"])
            : (#""s": { "type": "testsrc", "params": { "width": 64, "height": 48, "rate": "30/1", "frames": 12 } }, "enc": { "type": "h264" }, "mux": { "type": "\#(ext == "mkv" ? "matroska" : "mp4")", "#,
               #""s", "enc", "mux.video""#, ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=30:d=0.4"], ["-c:v", "libx264"])
        try MovieTagsMedia.run("""
        { "nodes": { \(nodes) "params": { "path": "ours.\(ext)", "chapters": \(Self.param) } } },
          "chains": [[\(chain)]] }
        """, in: dir)
        let r = try CLI.run("ffmpeg", ["-v", "error"] + input + ["-i", MovieTagsMedia.chaptersFile(in: dir), "-map", "0", "-map_chapters", "1"]
                            + codec + ["-fflags", "+bitexact", dir + "/ffmpeg.\(ext)"])
        try #require(r.status == 0, "\(r.stderr)")
        let ours = dir + "/ours.\(ext)", theirs = dir + "/ffmpeg.\(ext)"
        switch ext {
        case "mkv": #expect(MovieTagsMedia.edition(ours).count > 80 && MovieTagsMedia.edition(ours) == MovieTagsMedia.edition(theirs))
        case "mp4": #expect(MP4TagsTests.udta(ours).count > 60 && MP4TagsTests.udta(ours) == MP4TagsTests.udta(theirs))
        default: #expect(MP3TagsTests.id3(ours).count > 60 && MP3TagsTests.id3(ours) == MP3TagsTests.id3(theirs))
        }
        let read = try MovieTagsMedia.probedChapters(ours), expected = try MovieTagsMedia.probedChapters(theirs)
        #expect(read.count == 2 && read == expected, "\(read) \(expected)")
        #expect(try MovieTagsMedia.decodesSilently(ours))
    }

    @Test(arguments: [(#"[{"title": "x"}]"#, "param 'chapters': chapter 1: expected a start"),
                      (#"[{"start": 0}]"#, "param 'chapters': chapter 1: expected an end for the last chapter"),
                      (#"[{"start": 2, "end": 3}, {"start": 1, "end": 3}]"#, "param 'chapters': chapter 2 starts at 1.0 s, before chapter 1 (2.0 s)"),
                      (#"[{"start": 0, "end": 3, "name": "x"}]"#, "param 'chapters': chapter 1: unknown key 'name'; expected start, end, title"),
                      (#"[{"start": "frame:3", "end": 3}]"#, "param 'chapters': chapter 1 start: expected seconds or \"hh:mm:ss.ms\""),
                      (#"{"start": 0}"#, "param 'chapters': expected an array of chapters")])
    func badChaptersAreValidationErrors(_ chapters: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 2 } }, "enc": { "type": "h264" },
                     "mux": { "type": "matroska", "params": { "path": "o.mkv", "chapters": \(chapters) } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains("'mux'") && r.stderr.contains(message), "\(r.status) \(r.stderr)")
    }
}
