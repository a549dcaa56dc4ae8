import Foundation
import Testing

/// Chapters in the `mp4` sink: a file's chapters copied into the Nero `chpl` box of moov/udta as
/// ffmpeg 5.1's `-c copy out.mp4` writes it (its udta, tags and chpl, byte for byte), read back
/// by ffprobe as the source's chapters, from MP4 and Matroska inputs, copied and re-encoded, and
/// in a fragmented MP4's moov as ffmpeg's fragmented muxer writes it; and the QuickTime chapter
/// track (a text track, `tref/chap` from every other track) as ffmpeg writes it beside chpl.
@Suite struct MP4ChaptersTests {
    /// A stream copy of video and sound with chapters: the chapter track (the last trak), each
    /// media track's tref, udta and mvhd are ffmpeg's `-c copy` byte for byte (movie timescale
    /// 1000, as ffmpeg's); ffprobe reads the source's chapters back; Chromium still plays it.
    @Test func chapterTrackIsFFmpegsByteForByte() throws {
        let dir = CLI.tempDir()
        let input = try MovieTagsMedia.taggedWithSound("tagged.mp4", in: dir)
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-c", "copy", "-fflags", "+bitexact", dir + "/ffmpeg.mp4"])
        try #require(r.status == 0, "\(r.stderr)")
        try MovieTagsMedia.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "mux": { "type": "mp4", "params": { "path": "copy.mp4", "faststart": false, "timescale": 1000 } } },
          "chains": [["in.video", "mux.video"], ["in.audio", "mux.audio"]] }
        """, in: dir)
        let ours = dir + "/copy.mp4", theirs = dir + "/ffmpeg.mp4"
        let traks = MovieBoxes.boxes(ours, ["moov", "trak"]), theirTraks = MovieBoxes.boxes(theirs, ["moov", "trak"])
        #expect(traks.count == 3 && traks.last == theirTraks.last, "chapter trak: ours \(traks.last?.count ?? 0) bytes, ffmpeg's \(theirTraks.last?.count ?? 0)")
        let trefs = MovieBoxes.boxes(ours, ["moov", "trak", "tref"])
        #expect(trefs.count == 2 && trefs == MovieBoxes.boxes(theirs, ["moov", "trak", "tref"]), "\(trefs)")
        #expect(MovieBoxes.boxes(ours, ["moov", "mvhd"]) == MovieBoxes.boxes(theirs, ["moov", "mvhd"]))
        #expect(MP4TagsTests.udta(ours) == MP4TagsTests.udta(theirs))
        let source = try MovieTagsMedia.probedChapters(input)
        let read = try MovieTagsMedia.probedChapters(ours)
        #expect(source.count == 2 && read == source, "\(read) \(source)")
        #expect(try MovieTagsMedia.decodesSilently(ours))
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [ours, "--min-frames", "10"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
    }

    /// Sound alone into an .m4a (ffmpeg's ipod muxer): the chapter track has no btrt there, and
    /// it, the sound's tref, mvhd and udta are ffmpeg's `-c copy` byte for byte.
    @Test func chapterTrackInM4AIsFFmpegs() throws {
        let dir = CLI.tempDir()
        let input = try MovieTagsMedia.taggedWithSound("tagged.mp4", in: dir)
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-map", "0:a", "-c", "copy", "-fflags", "+bitexact", dir + "/ffmpeg.m4a"])
        try #require(r.status == 0, "\(r.stderr)")
        try MovieTagsMedia.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "mux": { "type": "mp4", "params": { "path": "copy.m4a", "faststart": false, "timescale": 1000 } } },
          "chains": [["in.audio", "mux.audio"]] }
        """, in: dir)
        let ours = dir + "/copy.m4a", theirs = dir + "/ffmpeg.m4a"
        let traks = MovieBoxes.boxes(ours, ["moov", "trak"]), theirTraks = MovieBoxes.boxes(theirs, ["moov", "trak"])
        #expect(traks.count == 2 && traks.last == theirTraks.last, "chapter trak: ours \(traks.last?.count ?? 0) bytes, ffmpeg's \(theirTraks.last?.count ?? 0)")
        #expect(MovieBoxes.boxes(ours, ["moov", "trak", "tref"]) == MovieBoxes.boxes(theirs, ["moov", "trak", "tref"]))
        for box in ["mvhd", "udta"] { #expect(MovieBoxes.boxes(ours, ["moov", box]) == MovieBoxes.boxes(theirs, ["moov", box]), "\(box)") }
        let read = try MovieTagsMedia.probedChapters(ours)
        let theirRead = try MovieTagsMedia.probedChapters(theirs)
        #expect(read.count == 2 && read == theirRead, "\(read)")
    }

    /// A file whose chapters are only in its chapter track (ffmpeg's `-movflags +disable_chpl`):
    /// filesrc reads them (libavformat reads the track), and the copy has them.
    @Test func chaptersOnlyInTheChapterTrackAreRead() throws {
        let dir = CLI.tempDir()
        let input = try MovieTagsMedia.taggedWithSound("nochpl.mp4", in: dir, movflags: "+disable_chpl")
        #expect(!String(decoding: MP4TagsTests.udta(input), as: UTF8.self).contains("chpl"))
        try MovieTagsMedia.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "mux": { "type": "mp4", "params": { "path": "copy.mov" } } },
          "chains": [["in.video", "mux.video"], ["in.audio", "mux.audio"]] }
        """, in: dir)
        let source = try MovieTagsMedia.probedChapters(input)
        let read = try MovieTagsMedia.probedChapters(dir + "/copy.mov")
        #expect(source.count == 2 && read == source, "\(read) \(source)")
    }

    @Test(arguments: ["mp4", "mkv"])
    func chaptersAreFFmpegsChplByteForByte(_ inputExt: String) throws {
        let dir = CLI.tempDir()
        let input = try MovieTagsMedia.tagged("tagged.\(inputExt)", in: dir)
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-c", "copy", "-fflags", "+bitexact", dir + "/ffmpeg-copy.mp4"])
        try #require(r.status == 0, "\(r.stderr)")
        let filters = #""inv": { "type": "invert" }, "enc": { "type": "h264" },"#
        for (output, nodes, chain) in [("copy.mp4", "", #""in.video", "mux.video""#),
                                       ("transcoded.mp4", filters, #""in.video", "inv", "enc", "mux.video""#)] {
            try MovieTagsMedia.run("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } }, \(nodes)
                         "mux": { "type": "mp4", "params": { "path": "\(output)" } } },
              "chains": [[\(chain)]] }
            """, in: dir, name: output + ".json")
        }
        let ours = MP4TagsTests.udta(dir + "/copy.mp4"), theirs = MP4TagsTests.udta(dir + "/ffmpeg-copy.mp4")
        #expect(ours.count > 300 && ours == theirs && String(decoding: ours, as: UTF8.self).contains("chpl"),
                "udta: ours \(ours.count) bytes, ffmpeg's \(theirs.count)")
        let source = try MovieTagsMedia.probedChapters(input)
        #expect(source.count == 2)
        for file in ["copy.mp4", "transcoded.mp4"] {
            let read = try MovieTagsMedia.probedChapters(dir + "/" + file)
            #expect(read == source, "\(file): \(read) \(source)")
            #expect(try MovieTagsMedia.decodesSilently(dir + "/" + file), "\(file)")
        }
        #expect(MP4TagsTests.udta(dir + "/transcoded.mp4") == ours)
    }

    /// A fragmented MP4: ffmpeg's chpl and chapter track in the moov, the chapter samples in a
    /// traf of the first fragment; ffprobe reads the chapters back.
    @Test func fragmentedMP4sMoovHasFFmpegsChplAndChapterTrack() throws {
        let dir = CLI.tempDir()
        let input = try MovieTagsMedia.tagged("tagged.mp4", in: dir)
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-c", "copy", "-fflags", "+bitexact",
                                       "-movflags", "+frag_keyframe+empty_moov+default_base_moof", dir + "/ffmpeg-frag.mp4"])
        try #require(r.status == 0, "\(r.stderr)")
        try MovieTagsMedia.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "mux": { "type": "mp4", "params": { "path": "frag.mp4", "fragmented": true } } },
          "chains": [["in.video", "mux.video"]] }
        """, in: dir)
        let ours = MP4TagsTests.udta(dir + "/frag.mp4")
        #expect(ours.count > 200 && ours == MP4TagsTests.udta(dir + "/ffmpeg-frag.mp4"))
        // the chapter track in the moov (its samples in the first fragment), and the video's tref
        let traks = MovieBoxes.boxes(dir + "/frag.mp4", ["moov", "trak"]), theirTraks = MovieBoxes.boxes(dir + "/ffmpeg-frag.mp4", ["moov", "trak"])
        #expect(traks.count == 2 && traks.last == theirTraks.last, "chapter trak: ours \(traks.last?.count ?? 0) bytes, ffmpeg's \(theirTraks.last?.count ?? 0)")
        let trefs = MovieBoxes.boxes(dir + "/frag.mp4", ["moov", "trak", "tref"])
        #expect(trefs.count == 1 && trefs == MovieBoxes.boxes(dir + "/ffmpeg-frag.mp4", ["moov", "trak", "tref"]))
        #expect(MovieBoxes.boxes(dir + "/frag.mp4", ["moof", "traf"]).count == 2)
        // mfra indexes the chapter track too, as ffmpeg's does
        let tfra = MovieBoxes.boxes(dir + "/frag.mp4", ["mfra", "tfra"])
        #expect(tfra.count == 2 && tfra.count == MovieBoxes.boxes(dir + "/ffmpeg-frag.mp4", ["mfra", "tfra"]).count)
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/frag.mp4", "--min-frames", "10"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
        let read = try MovieTagsMedia.probedChapters(dir + "/frag.mp4"), source = try MovieTagsMedia.probedChapters(input)
        #expect(source.count == 2 && read == source, "\(read) \(source)")
        #expect(try MovieTagsMedia.decodesSilently(dir + "/frag.mp4"))
    }
}
