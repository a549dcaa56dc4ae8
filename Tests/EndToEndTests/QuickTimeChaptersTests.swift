import Foundation
import Testing

/// Chapters and tags in QuickTime movies from the `mp4` sink (a .mov name), against ffmpeg 5.1's
/// mov muxer: the chapter track, each track's `tref/chap`, the user data atoms (`©nam`, …) and
/// chpl byte for byte, and the whole file where the existing QuickTime tests manage it.
@Suite struct QuickTimeChaptersTests {
    /// H.264 and AAC with chapters and every tag copied from an MP4 into a .mov: ffmpeg's
    /// `-c copy out.mov`, byte for byte but for the compressor name (see
    /// QuickTimeMovieTests.h264AndAACCopiedIntoMovAreFFmpegsCopy); ffprobe reads back the
    /// source's chapters and the tags a .mov holds.
    @Test func chaptersAndTagsCopiedIntoMovAreFFmpegsCopy() throws {
        let dir = CLI.tempDir()
        let input = try MovieTagsMedia.taggedWithSound("tagged.mp4", in: dir)
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-c", "copy", "-fflags", "+bitexact", dir + "/ffmpeg.mov"])
        try #require(r.status == 0, "\(r.stderr)")
        let graph = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "mux": { "type": "mp4", "params": { "path": "copy.mov", "faststart": false } } },
          "chains": [["in.video", "mux.video"], ["in.audio", "mux.audio"]] }
        """, in: dir)
        let run = try CLI.mediagraph("run", graph)
        try #require(run.status == 0, "\(run.stderr)")
        // the tags a .mov cannot hold are named in the run's notes
        #expect(run.out.contains("tags album_artist, composer") || run.stderr.contains("tags album_artist, composer"), "\(run.out) \(run.stderr)")
        let ours = dir + "/copy.mov", theirs = dir + "/ffmpeg.mov"
        #expect(MovieBoxes.boxes(ours, ["moov", "trak"]).count == 3)
        #expect(MovieBoxes.boxes(ours, ["moov", "trak", "tref"]).count == 2)
        let oursBytes = MovieBoxes.blankingCompressorNames(ours), theirBytes = MovieBoxes.blankingCompressorNames(theirs)
        #expect(oursBytes.count > 5000 && oursBytes == theirBytes, "ours \(oursBytes.count) bytes, ffmpeg's \(theirBytes.count)")
        let source = try MovieTagsMedia.probedChapters(input)
        let read = try MovieTagsMedia.probedChapters(ours)
        #expect(source.count == 2 && read == source, "\(read) \(source)")
        let tags = try MP4TagsTests.formatTags(ours)
        let theirTags = try MP4TagsTests.formatTags(theirs)
        #expect(tags == theirTags && tags["title"] == "Hello wörld \u{1F30D}" && tags["comment"] == "a \"quoted\" comment", "\(tags)")
        #expect(try MovieTagsMedia.decodesSilently(ours))
    }

    /// ProRes and PCM with chapters and tags given in the graph: the chapter track, trefs, udta and
    /// mvhd equal ffmpeg's encode with the same `-map_chapters` and `-metadata`, for chapters
    /// that start late and one without a title (no sample: the one before lasts until the next);
    /// and a movie with chapters and tags is the file ffmpeg's `-c copy` remux of it writes.
    @Test func givenChaptersAndTagsAreFFmpegs() throws {
        let dir = CLI.tempDir()
        let src = try QuickTimeMovieTests.source(dir, pixelFormat: "yuv422p10le")
        let chapters: [(start: Int, end: Int, title: String?)] = [(100, 200, "Intro \"quoted\""), (200, 300, nil), (300, 400, "Zwei wörter \u{1F30D}")]
        let tags: [(key: String, value: String)] = [("title", "Hello wörld \u{1F30D}"), ("artist", "Me"), ("album", "Album"), ("date", "2026"),
                                                    ("comment", "a \"quoted\" comment"), ("genre", "Rock"), ("copyright", "(c) us")]
        let chaptersJSON = chapters.map { c in
            "{ \"start\": \(Double(c.start) / 1000), \"end\": \(Double(c.end) / 1000)" + (c.title.map { ", \"title\": \"\($0.replacingOccurrences(of: "\"", with: "\\\""))\"" } ?? "") + " }"
        }.joined(separator: ", ")
        let plainChapters = MovieTagsMedia.chapters.map { "{ \"start\": \(Double($0.start) / 1000), \"end\": \(Double($0.end) / 1000), \"title\": \"\($0.title.replacingOccurrences(of: "\"", with: "\\\""))\" }" }.joined(separator: ", ")
        let metadata = MovieTagsMedia.metadataJSON(tags)
        try MovieTagsMedia.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(src)" } },
                     "enc": { "type": "prores", "params": { "profile": "lt" } }, "pcm": { "type": "pcm", "params": { "codec": "pcm_s16le" } },
                     "mux": { "type": "mp4", "params": { "path": "ours.mov", "faststart": false, "chapters": [\(chaptersJSON)], "metadata": { \(metadata) } } },
                     "mux2": { "type": "mp4", "params": { "path": "plain.mov", "faststart": false, "chapters": [\(plainChapters)], "metadata": { \(metadata) } } } },
          "chains": [["in.video", "enc", "mux.video"], ["in.audio", "pcm", "mux.audio"], ["enc", "mux2.video"], ["pcm", "mux2.audio"]] }
        """, in: dir)
        var text = ";FFMETADATA1\n"
        for c in chapters { text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(c.start)\nEND=\(c.end)\n" + (c.title.map { "title=\($0)\n" } ?? "") }
        FileManager.default.createFile(atPath: dir + "/chapters.txt", contents: Data(text.utf8))
        let ours = dir + "/ours.mov", theirs = dir + "/theirs.mov"
        var r = try CLI.run("ffmpeg", ["-v", "error", "-i", src, "-i", dir + "/chapters.txt", "-map", "0", "-map_chapters", "1",
                                       "-c:v", "prores_ks", "-profile:v", "1", "-c:a", "pcm_s16le", "-fflags", "+bitexact"]
                            + MovieTagsMedia.metadataArgs(tags) + [theirs])
        try #require(r.status == 0, "\(r.stderr)")
        let traks = MovieBoxes.boxes(ours, ["moov", "trak"]), theirTraks = MovieBoxes.boxes(theirs, ["moov", "trak"])
        #expect(traks.count == 3 && traks.last == theirTraks.last, "chapter trak: ours \(traks.last?.count ?? 0) bytes, ffmpeg's \(theirTraks.last?.count ?? 0)")
        #expect(MovieBoxes.boxes(ours, ["moov", "trak", "tref"]) == MovieBoxes.boxes(theirs, ["moov", "trak", "tref"]))
        #expect(MovieBoxes.boxes(ours, ["moov", "mvhd"]) == MovieBoxes.boxes(theirs, ["moov", "mvhd"]))
        let udta = MovieBoxes.boxes(ours, ["moov", "udta"])
        #expect(udta.count == 1 && udta == MovieBoxes.boxes(theirs, ["moov", "udta"]), "udta: ours \(udta.first?.count ?? 0) bytes")
        #expect(try MovieTagsMedia.probedChapters(ours) == MovieTagsMedia.probedChapters(theirs))
        #expect(try MP4TagsTests.formatTags(ours) == MP4TagsTests.formatTags(theirs))

        // the whole file, chapters and tags included, is what ffmpeg's mov muxer writes for it
        let plain = dir + "/plain.mov", remux = dir + "/remux.mov"
        r = try CLI.run("ffmpeg", ["-v", "error", "-i", plain, "-c", "copy", "-f", "mov", "-fflags", "+bitexact", remux])
        try #require(r.status == 0, "\(r.stderr)")
        let plainBytes = FileManager.default.contents(atPath: plain) ?? Data()
        #expect(plainBytes.count > 10_000 && plainBytes == FileManager.default.contents(atPath: remux),
                "ours \(plainBytes.count) bytes, ffmpeg's remux \(FileManager.default.contents(atPath: remux)?.count ?? 0)")
        #expect(try MovieTagsMedia.probedChapters(plain).count == 2)
    }

    /// A tag a .mov does not hold is refused when the graph is checked, naming those it holds.
    @Test func tagsAMovCannotHoldAreRefused() throws {
        let dir = CLI.tempDir()
        let graph = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 2 } }, "enc": { "type": "h264" },
                     "mux": { "type": "mp4", "params": { "path": "out.mov", "metadata": { "composer": "Co" } } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", graph)
        #expect(r.status != 0 && r.stderr.contains("tag 'composer' is not written into a .mov") && r.stderr.contains("artist, title, album"), "\(r.stderr)")
    }
}
