import Foundation
import Testing

/// Movie tags and chapters in the `matroska` sink, against ffmpeg 5.1's matroskaenc: the global
/// Tag and the EditionEntry byte for byte (-fflags +bitexact; CRC-32 elements are compared
/// around, ffmpeg's per-track ENCODER/DURATION tags are not written), ffprobe reading every tag
/// and chapter back, tags and chapters copied from an input file as ffmpeg copies them.
@Suite struct MatroskaTagsTests {
    /// Tags from the graph's `metadata` on freshly encoded video, in .mkv (H.264) and .webm (VP9).
    @Test(arguments: [("mkv", "h264", ["-c:v", "libx264"]), ("webm", "vp9", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"])])
    func graphTagsAreFFmpegsTagByteForByte(_ ext: String, _ encoder: String, _ codec: [String]) throws {
        let dir = CLI.tempDir()
        let tags = MovieTagsMedia.tags
        try MovieTagsMedia.run("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 5 } }, "enc": { "type": "\(encoder)" },
                     "mux": { "type": "matroska", "params": { "path": "ours.\(ext)", "metadata": { \(MovieTagsMedia.metadataJSON(tags)) } } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:d=0.2"] + codec
                            + ["-fflags", "+bitexact"] + MovieTagsMedia.metadataArgs(tags) + [dir + "/ffmpeg.\(ext)"])
        try #require(r.status == 0, "\(r.stderr)")
        let ours = MovieTagsMedia.movieTag(dir + "/ours.\(ext)"), theirs = MovieTagsMedia.movieTag(dir + "/ffmpeg.\(ext)")
        #expect(ours.count > 200 && ours == theirs, "Tag: ours \(ours.count) bytes, ffmpeg's \(theirs.count)")
        let read = try MP4TagsTests.formatTags(dir + "/ours.\(ext)")
        for t in tags {
            // Matroska tag names read back in upper case; title (Info/Title) and track (PART_NUMBER) as ffmpeg names them
            #expect((read[t.key] ?? read[t.key.uppercased()]) == t.value, "\(t.key): ffprobe reads \(read)")
        }
        #expect(try MovieTagsMedia.decodesSilently(dir + "/ours.\(ext)"))
    }

    /// A file's tags and chapters go through as ffmpeg's `-c copy` takes them: the same Tag and
    /// EditionEntry bytes from an MP4 and from a Matroska input; `metadata` replaces and removes
    /// tags as ffmpeg's -metadata does; through a decoder, a filter and an encoder they still
    /// arrive; a trimmed source moves the chapters as ffmpeg's input -ss/-t does.
    @Test(arguments: ["mp4", "mkv"])
    func aFilesTagsAndChaptersAreCopied(_ inputExt: String) throws {
        let dir = CLI.tempDir()
        let input = try MovieTagsMedia.tagged("tagged.\(inputExt)", in: dir)
        func ffmpeg(_ args: [String], _ out: String) throws {
            let r = try CLI.run("ffmpeg", ["-v", "error"] + args + ["-fflags", "+bitexact", dir + "/" + out])
            try #require(r.status == 0, "\(r.stderr)")
        }
        try ffmpeg(["-i", input, "-c", "copy"], "ffmpeg-copy.mkv")
        try ffmpeg(["-i", input, "-c", "copy", "-metadata", "comment=new", "-metadata", "artist=", "-metadata", "mood=calm"], "ffmpeg-changed.mkv")
        try ffmpeg(["-ss", "0.1", "-t", "0.2", "-i", input, "-c", "copy"], "ffmpeg-trimmed.mkv")
        func graph(_ output: String, filesrc: String = "", metadata: String = "", transcode: Bool = false) throws {
            let chain = transcode ? #""in.video", "inv", "enc", "mux.video""# : #""in.video", "mux.video""#
            let filters = transcode ? #""inv": { "type": "invert" }, "enc": { "type": "h264" },"# : ""
            try MovieTagsMedia.run("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)"\(filesrc) } }, \(filters)
                         "mux": { "type": "matroska", "params": { "path": "\(output)", "metadata": { \(metadata) } } } },
              "chains": [[\(chain)]] }
            """, in: dir, name: output + ".json")
        }
        try graph("copy.mkv")
        try graph("changed.mkv", metadata: #""comment": "new", "artist": "", "mood": "calm""#)
        try graph("transcoded.mkv", transcode: true)
        try graph("trimmed.mkv", filesrc: #", "start": 0.1, "duration": 0.2"#)
        let copied = MovieTagsMedia.movieTag(dir + "/copy.mkv"), edition = MovieTagsMedia.edition(dir + "/copy.mkv")
        #expect(copied.count > 200 && copied == MovieTagsMedia.movieTag(dir + "/ffmpeg-copy.mkv"))
        #expect(edition.count > 80 && edition == MovieTagsMedia.edition(dir + "/ffmpeg-copy.mkv"))
        #expect(MovieTagsMedia.movieTag(dir + "/changed.mkv") == MovieTagsMedia.movieTag(dir + "/ffmpeg-changed.mkv"))
        #expect(MovieTagsMedia.movieTag(dir + "/transcoded.mkv") == copied && MovieTagsMedia.edition(dir + "/transcoded.mkv") == edition)
        #expect(MovieTagsMedia.edition(dir + "/trimmed.mkv") == MovieTagsMedia.edition(dir + "/ffmpeg-trimmed.mkv"))
        let source = try MovieTagsMedia.probedChapters(input), ours = try MovieTagsMedia.probedChapters(dir + "/copy.mkv")
        #expect(source.count == 2 && ours == source, "\(ours) \(source)")
        let trimmed = try MovieTagsMedia.probedChapters(dir + "/trimmed.mkv")
        let theirsTrimmed = try MovieTagsMedia.probedChapters(dir + "/ffmpeg-trimmed.mkv")
        #expect(trimmed.count == 2 && trimmed == theirsTrimmed, "\(trimmed) \(theirsTrimmed)")
        let changed = try MP4TagsTests.formatTags(dir + "/changed.mkv")
        #expect(changed["COMMENT"] == "new" && changed["ARTIST"] == nil && changed["MOOD"] == "calm" && changed["title"] == MovieTagsMedia.tags[0].value, "\(changed)")
        for file in ["copy.mkv", "changed.mkv", "transcoded.mkv", "trimmed.mkv"] {
            #expect(try MovieTagsMedia.decodesSilently(dir + "/" + file), "\(file)")
        }
    }

    /// WebM copies chapters without EditionFlagDefault, as ffmpeg's webm muxer, and still plays
    /// in Chromium.
    @Test func webmChaptersAreFFmpegsAndPlay() throws {
        let dir = CLI.tempDir()
        let input = try MovieTagsMedia.tagged("tagged.webm", in: dir, input: ["-f", "lavfi", "-i", "testsrc=size=64x48:d=0.4"],
                                              codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"])
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-c", "copy", "-fflags", "+bitexact", dir + "/ffmpeg-copy.webm"])
        try #require(r.status == 0, "\(r.stderr)")
        try MovieTagsMedia.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } }, "mux": { "type": "matroska", "params": { "path": "copy.webm" } } },
          "chains": [["in.video", "mux.video"]] }
        """, in: dir)
        let edition = MovieTagsMedia.edition(dir + "/copy.webm")
        #expect(edition.count > 80 && edition == MovieTagsMedia.edition(dir + "/ffmpeg-copy.webm"))
        #expect(MovieTagsMedia.movieTag(dir + "/copy.webm") == MovieTagsMedia.movieTag(dir + "/ffmpeg-copy.webm"))
        let ours = try MovieTagsMedia.probedChapters(dir + "/copy.webm"), source = try MovieTagsMedia.probedChapters(input)
        #expect(source.count == 2 && ours == source, "\(ours) \(source)")
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/copy.webm", "--min-frames", "10"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
    }

    /// Names ffmpeg would leave out of Matroska tags, and values that are not text, stop
    /// validation naming the node, the param, what it takes and what it found.
    @Test(arguments: [(#"{ "encoder": "x" }"#, "param 'metadata': tag 'encoder' is not written to Matroska"),
                      (#"{ "artist-eng": "x" }"#, "param 'metadata': tag 'artist-eng': a name with '-' is not written"),
                      (#"{ "title": [1] }"#, "param 'metadata': tag 'title': expected a string, found array"),
                      (#""title=x""#, "param 'metadata': expected an object of tags")])
    func badTagsAreValidationErrors(_ metadata: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 2 } }, "enc": { "type": "h264" },
                     "mux": { "type": "matroska", "params": { "path": "o.mkv", "metadata": \(metadata) } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains("'mux'") && r.stderr.contains(message), "\(r.status) \(r.stderr)")
    }
}
