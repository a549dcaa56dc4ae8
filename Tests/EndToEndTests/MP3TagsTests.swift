import Foundation
import Testing

/// The ID3v2 tag of `mp3sink` against ffmpeg 5.1's mp3 muxer: byte for byte (-fflags +bitexact,
/// which leaves out its TSSE encoder frame) for the graph's `metadata` and for a file's own tags
/// and chapters copied (CTOC/CHAP), changed by `metadata` as ffmpeg's -metadata changes them;
/// ffprobe reads every tag and chapter back; the file decodes without a message.
@Suite struct MP3TagsTests {
    /// The ID3v2 tag at the start of a file (header and the syncsafe size it states), empty when
    /// there is none.
    static func id3(_ path: String) -> [UInt8] {
        let d = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        guard d.count >= 10, d[0..<3].elementsEqual("ID3".utf8) else { return [] }
        let size = Int(d[6]) << 21 | Int(d[7]) << 14 | Int(d[8]) << 7 | Int(d[9])
        return Array(d[0..<min(d.count, 10 + size)])
    }

    @Test func graphTagsAreFFmpegsID3ByteForByte() throws {
        let dir = CLI.tempDir()
        let tags = MovieTagsMedia.tags
        try MovieTagsMedia.run("""
        { "nodes": { "s": { "type": "sine", "params": { "seconds": 0.3 } }, "enc": { "type": "mp3" },
                     "mux": { "type": "mp3sink", "params": { "path": "ours.mp3", "metadata": { \(MovieTagsMedia.metadataJSON(tags)) } } } },
          "chains": [["s", "enc", "mux"]] }
        """, in: dir)
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=0.3", "-c:a", "libmp3lame", "-fflags", "+bitexact"]
                            + MovieTagsMedia.metadataArgs(tags) + [dir + "/ffmpeg.mp3"])
        try #require(r.status == 0, "\(r.stderr)")
        let ours = Self.id3(dir + "/ours.mp3"), theirs = Self.id3(dir + "/ffmpeg.mp3")
        #expect(ours.count > 200 && ours == theirs, "ID3v2: ours \(ours.count) bytes, ffmpeg's \(theirs.count)")
        let read = try MP4TagsTests.formatTags(dir + "/ours.mp3")
        for t in tags { #expect(read[t.key] == t.value, "\(t.key): ffprobe reads \(read)") }
        #expect(try MovieTagsMedia.decodesSilently(dir + "/ours.mp3"))
        // the Info frame after the tag is still found: ffmpeg cuts the priming and the padding by
        // it, so the file decodes to the sine's 0.3 s at 48 kHz exactly
        let decoded = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/ours.mp3", "-ac", "1", "-f", "s16le", "-"])
        #expect(decoded.stdout.count == 14_400 * 2, "\(decoded.stdout.count / 2) samples")
    }

    /// An .mp3's or .mp4's own tags and chapters copied into the ID3v2 tag as ffmpeg's
    /// `-c copy out.mp3` writes them, also through a decoder and our mp3 encoder, and changed by
    /// `metadata` as by its -metadata.
    @Test(arguments: ["mp3", "mp4"])
    func aFilesTagsAndChaptersAreCopied(_ inputExt: String) throws {
        let dir = CLI.tempDir()
        let input = try MovieTagsMedia.tagged("tagged.\(inputExt)", in: dir, input: ["-f", "lavfi", "-i", "sine=duration=0.4"],
                                              codec: ["-c:a", "libmp3lame"])
        func ffmpeg(_ args: [String], _ out: String) throws {
            let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-c", "copy", "-fflags", "+bitexact"] + args + [dir + "/" + out])
            try #require(r.status == 0, "\(r.stderr)")
        }
        try ffmpeg([], "ffmpeg-copy.mp3")
        try ffmpeg(["-metadata", "comment=new", "-metadata", "artist=", "-metadata", "mood=calm"], "ffmpeg-changed.mp3")
        for (output, metadata, encoder) in [("copy.mp3", "", false), ("changed.mp3", #""comment": "new", "artist": "", "mood": "calm""#, false),
                                            ("transcoded.mp3", "", true)] {
            try MovieTagsMedia.run("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } }, \(encoder ? #""enc": { "type": "mp3" },"# : "")
                         "mux": { "type": "mp3sink", "params": { "path": "\(output)", "metadata": { \(metadata) } } } },
              "chains": [["in.audio", \(encoder ? #""enc", "# : "")"mux"]] }
            """, in: dir, name: output + ".json")
        }
        let copied = Self.id3(dir + "/copy.mp3")
        #expect(copied.count > 200 && copied == Self.id3(dir + "/ffmpeg-copy.mp3"), "copy: ours \(copied.count) bytes")
        #expect(Self.id3(dir + "/changed.mp3") == Self.id3(dir + "/ffmpeg-changed.mp3"))
        #expect(Self.id3(dir + "/transcoded.mp3") == Self.id3(dir + "/ffmpeg-copy.mp3"))
        // on the copy's time line, as ffmpeg's: an .mp3's start time (its priming, 25 ms) moves them
        let theirs = try MovieTagsMedia.probedChapters(dir + "/ffmpeg-copy.mp3"), ours = try MovieTagsMedia.probedChapters(dir + "/copy.mp3")
        #expect(theirs.count == 2 && ours == theirs, "\(ours) \(theirs)")
        let changed = try MP4TagsTests.formatTags(dir + "/changed.mp3")
        #expect(changed["comment"] == "new" && changed["artist"] == nil && changed["mood"] == "calm", "\(changed)")
        for file in ["copy.mp3", "changed.mp3", "transcoded.mp3"] { #expect(try MovieTagsMedia.decodesSilently(dir + "/" + file), "\(file)") }
    }

    @Test(arguments: [(#"{ "encoder": "x" }"#, "param 'metadata': tag 'encoder' is not written to the ID3v2 tag"),
                      (#"{ "id3v2_priv.x": "y" }"#, "param 'metadata': tag 'id3v2_priv.x': PRIV frames are not written"),
                      (#"{ "track": 3 }"#, nil)])
    func tagNamesAreChecked(_ metadata: String, _ message: String?) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "s": { "type": "sine", "params": { "seconds": 0.1 } }, "enc": { "type": "mp3" },
                     "mux": { "type": "mp3sink", "params": { "path": "o.mp3", "metadata": \(metadata) } } },
          "chains": [["s", "enc", "mux"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        if let message {
            #expect(r.status == 2 && r.stderr.contains("'mux'") && r.stderr.contains(message), "\(r.status) \(r.stderr)")
        } else {
            #expect(r.status == 0, "\(r.stderr)")
        }
    }
}
