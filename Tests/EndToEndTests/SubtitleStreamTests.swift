import Foundation
import Testing

/// Subtitle streams on edges against ffmpeg 5.1: `filesrc` offers a file's text subtitle tracks
/// as ports, the `matroska` sink copies them as `ffmpeg -map 0 -c copy` does (ffprobe reads the
/// same streams and packets, mkvinfo the same track entries, block groups and cue points), and
/// `subtitlefile` writes the .srt/.vtt bytes `ffmpeg -map 0:s:N out.srt` writes.
@Suite struct SubtitleStreamTests {
    static let srt = """
    1
    00:00:00,200 --> 00:00:00,900
    Hello <i>world</i> & more

    2
    00:00:01,000 --> 00:00:01,600
    {\\an8}Top line
    second line

    3
    00:00:01,700 --> 00:00:02,400
    Last <b>bold</b> cue

    """

    static let ass = """
    [Script Info]
    ScriptType: v4.00+
    PlayResX: 384
    PlayResY: 288

    [V4+ Styles]
    Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
    Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0

    [Events]
    Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
    Dialogue: 0,0:00:00.30,0:00:01.10,Default,,0,0,0,,{\\b1}Bold{\\b0} text, with a comma
    Dialogue: 0,0:00:01.20,0:00:01.80,Default,,0,0,0,,Second\\Nline {\\i1}slanted{\\i0}
    Dialogue: 0,0:00:02.00,0:00:02.50,Default,,0,0,0,,{\\an8}Sign

    """

    static let vtt = """
    WEBVTT

    intro
    00:00:00.200 --> 00:00:00.900 align:start line:0
    Hello <i>world</i>

    00:00:01.000 --> 00:00:01.600
    Second

    """

    static func ffmpeg(_ args: [String]) throws {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-y"] + args)
        try #require(r.status == 0, "ffmpeg \(args): \(r.stderr)")
    }

    /// in.mkv: 2.6 s of H.264 with a SubRip track (eng, default) and an ASS track (fre, titled).
    static func media(in dir: String) throws -> String {
        try Self.srt.write(toFile: dir + "/a.srt", atomically: true, encoding: .utf8)
        try Self.ass.write(toFile: dir + "/a.ass", atomically: true, encoding: .utf8)
        try Self.vtt.write(toFile: dir + "/a.vtt", atomically: true, encoding: .utf8)
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:d=2.6", "-i", dir + "/a.srt", "-i", dir + "/a.ass",
                    "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-c:s", "copy",
                    "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre", "-metadata:s:s:1", "title=Signs",
                    "-disposition:s:1", "forced", dir + "/in.mkv"])
        return dir + "/in.mkv"
    }

    static func run(_ json: String, in dir: String, name: String = "g.json") throws -> CLI.Result {
        try CLI.mediagraph("run", "--quiet", CLI.writeGraph(json, in: dir, name: name))
    }

    /// ffprobe's view of the subtitle streams and their packets (pts, duration, bytes, side data).
    static func subtitles(_ file: String) throws -> String {
        let r = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "s", "-show_data", "-show_entries",
                                        "stream=codec_name,codec_type,time_base,extradata_size:stream_disposition=default,forced:stream_tags=language,title:packet=pts,duration,size,flags:packet_side_data",
                                        "-show_data_hash", "md5", "-of", "compact", file])
        #expect(r.status == 0, "\(r.stderr)")
        return r.out
    }

    /// mkvinfo's lines for subtitle track entries, block groups and cue points (UIDs and positions
    /// left out: ffmpeg's UIDs are random, and its SeekHead void differs in size).
    static func subtitleLayout(_ file: String) throws -> [String] {
        let r = try CLI.run("mkvinfo", ["-a", "-v", file])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.out.split(separator: "\n").map(String.init)
        var out: [String] = []
        var entry: [String]?
        for line in lines {
            if line.hasSuffix("+ Track") || line.hasPrefix("|+ ") {
                if let e = entry, e.contains(where: { $0.contains("Track type: subtitles") }) { out += e }
                entry = line.hasSuffix("+ Track") ? [] : nil
            } else if entry != nil, !line.contains("UID") {
                entry?.append(line)
            }
        }
        // blocks of the subtitle tracks (video is SimpleBlocks), their durations, and the cue points
        let kept = ["Block: track number", "Block duration", "Cue time", "Cue track:", "Cue duration"]
        out += lines.filter { line in kept.contains { line.contains($0) } }
        return out
    }

    @Test func filesrcOffersTextSubtitlePortsAndProbeShowsThem() throws {
        let dir = CLI.tempDir()
        let input = try Self.media(in: dir)
        let probe = try CLI.mediagraph("probe", input)
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.out.contains("subtitle") && probe.out.contains("subtitle1") && probe.out.contains("subrip") && probe.out.contains("ass"), "\(probe.out)")
        // a graph that leaves both subtitle ports unconnected runs
        let r = try Self.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mkv" } }, "out": { "type": "matroska", "params": { "path": "v.mkv" } } },
          "chains": [["in.video", "out.video"]] }
        """, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // subtitle_fre names the ASS track; a typo lists what there is
        let bad = try CLI.mediagraph("validate", CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mkv" } }, "out": { "type": "subtitlefile", "params": { "path": "x.srt" } } },
          "chains": [["in.subtitle_ger", "out"]] }
        """, in: dir, name: "bad.json"))
        #expect(bad.status != 0 && bad.stderr.contains("no subtitle stream in language 'ger'") && bad.stderr.contains("subtitle1 (stream 2: subtitle ass, fre)"), "\(bad.stderr)")
    }

    /// `ffmpeg -i in.mkv -map 0 -c copy out.mkv` against filesrc → matroska: the same subtitle
    /// streams (codec, ASS header, language, title, default and forced flags) and packets (times,
    /// durations, bytes), the same track entries, block groups and cue points.
    @Test func matroskaCopiesSubRipAndASSTracksAsFFmpeg() throws {
        let dir = CLI.tempDir()
        let input = try Self.media(in: dir)
        try Self.ffmpeg(["-i", input, "-map", "0", "-c", "copy", "-fflags", "+bitexact", dir + "/ffmpeg.mkv"])
        let r = try Self.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mkv" } }, "out": { "type": "matroska", "params": { "path": "ours.mkv" } } },
          "chains": [["in.video", "out.video"], ["in.subtitle", "out.subtitle"], ["in.subtitle_fre", "out.subtitle1"]] }
        """, in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let ours = try Self.subtitles(dir + "/ours.mkv"), theirs = try Self.subtitles(dir + "/ffmpeg.mkv")
        #expect(ours.split(separator: "\n").count == 8 && ours == theirs, "ours:\n\(ours)\nffmpeg's:\n\(theirs)")
        let layout = try Self.subtitleLayout(dir + "/ours.mkv"), expected = try Self.subtitleLayout(dir + "/ffmpeg.mkv")
        #expect(layout.count > 20 && layout == expected, "ours:\n\(layout.joined(separator: "\n"))\nffmpeg's:\n\(expected.joined(separator: "\n"))")
        // mkvmerge reads both tracks too
        let m = try CLI.run("mkvmerge", ["-i", dir + "/ours.mkv"])
        #expect(m.out.contains("subtitles (SubRip/SRT)") && m.out.contains("subtitles (SubStationAlpha)"), "\(m.out)")
    }

    /// A trimmed copy keeps the cues read after the seek, also those that start before the start
    /// (the file then moved to start at zero, as ffmpeg's avoid_negative_ts moves it), and leaves
    /// out those from the end on, as ffmpeg's input -ss/-t with -c copy does.
    @Test func trimmedCopyKeepsFFmpegsCues() throws {
        let dir = CLI.tempDir()
        let input = try Self.media(in: dir)
        try Self.ffmpeg(["-ss", "0.5", "-t", "1.5", "-i", input, "-map", "0:s", "-c", "copy", dir + "/ffmpeg.mkv"])
        let r = try Self.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mkv", "start": 0.5, "duration": 1.5 } },
                     "out": { "type": "matroska", "params": { "path": "ours.mkv" } } },
          "chains": [["in.subtitle", "out.subtitle"], ["in.subtitle1", "out.subtitle1"]] }
        """, in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let ours = try Self.subtitles(dir + "/ours.mkv"), theirs = try Self.subtitles(dir + "/ffmpeg.mkv")
        #expect(ours.split(separator: "\n").count == 7 && ours == theirs, "ours:\n\(ours)\nffmpeg's:\n\(theirs)")
    }

    /// WebVTT cues (identifier and settings kept) into WebM, as ffmpeg writes them; SubRip into
    /// WebM is refused at validation by name.
    @Test func webVTTGoesIntoWebMAsFFmpegWritesIt() throws {
        let dir = CLI.tempDir()
        _ = try Self.media(in: dir)
        try Self.ffmpeg(["-i", dir + "/a.vtt", "-c", "copy", dir + "/ffmpeg.webm"])
        let r = try Self.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "a.vtt" } }, "out": { "type": "matroska", "params": { "path": "ours.webm" } } },
          "chains": [["in.subtitle", "out.subtitle"]] }
        """, in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let ours = try Self.subtitles(dir + "/ours.webm"), theirs = try Self.subtitles(dir + "/ffmpeg.webm")
        #expect(ours.contains("align:start") && ours.contains("intro") && ours == theirs, "ours:\n\(ours)\nffmpeg's:\n\(theirs)")
        #expect(try Self.subtitleLayout(dir + "/ours.webm") == Self.subtitleLayout(dir + "/ffmpeg.webm"))
        let bad = try CLI.mediagraph("validate", CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mkv" } }, "out": { "type": "matroska", "params": { "path": "x.webm" } } },
          "chains": [["in.subtitle", "out.subtitle"]] }
        """, in: dir, name: "bad.json"))
        #expect(bad.status != 0 && bad.stderr.contains("subrip cannot go into WebM") && bad.stderr.contains("whose only subtitles are WebVTT"), "\(bad.stderr)")
    }

    /// filesrc → subtitlefile writes the bytes ffmpeg writes for .srt and .vtt, from each track of
    /// a Matroska file (ASS styling converted or stripped by libavcodec's encoders), from an MP4's
    /// mov_text track, from bare .srt/.ass/.vtt files, and from a trimmed source.
    @Test(arguments: ["srt", "vtt"])
    func subtitleFileIsFFmpegsByteForByte(_ ext: String) throws {
        let dir = CLI.tempDir()
        _ = try Self.media(in: dir)
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:d=2.6", "-i", dir + "/a.srt", "-map", "0", "-map", "1",
                         "-c:v", "libx264", "-c:s", "mov_text", dir + "/in.mp4"])
        let sources: [(input: String, port: String, map: [String], trim: [String], params: String)] = [
            ("in.mp4", "subtitle", ["-map", "0:s:0"], [], ""),
            ("in.mkv", "subtitle", ["-map", "0:s:0"], [], ""), ("in.mkv", "subtitle1", ["-map", "0:s:1"], [], ""),
            ("a.srt", "subtitle", [], [], ""), ("a.ass", "subtitle", [], [], ""), ("a.vtt", "subtitle", [], [], ""),
            ("in.mkv", "subtitle", ["-map", "0:s:0"], ["-ss", "0.5", "-t", "1.5"], #", "start": 0.5, "duration": 1.5"#),
        ]
        for (k, s) in sources.enumerated() {
            try Self.ffmpeg(s.trim + ["-i", dir + "/" + s.input] + s.map + [dir + "/ffmpeg\(k).\(ext)"])
            let r = try Self.run("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(s.input)"\(s.params) } }, "out": { "type": "subtitlefile", "params": { "path": "ours\(k).\(ext)" } } },
              "chains": [["in.\(s.port)", "out"]] }
            """, in: dir, name: "g\(k).json")
            try #require(r.status == 0, "\(r.stderr)")
            let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/ours\(k).\(ext)"))
            let theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/ffmpeg\(k).\(ext)"))
            #expect(ours.count > 40 && ours == theirs, "\(s.input) \(s.port):\nours:\n\(String(decoding: ours, as: UTF8.self))\nffmpeg's:\n\(String(decoding: theirs, as: UTF8.self))")
        }
    }

    /// `subtitles` fed from a file's embedded SubRip track draws the same frames as from the same
    /// cues in the .srt (which SubtitlesTests checks against ffmpeg's drawtext), and they are not
    /// the unsubtitled frames; `path` and the `subtitle` input are alternatives.
    @Test func burningTheEmbeddedTrackEqualsBurningTheFile() throws {
        let dir = CLI.tempDir()
        _ = try Self.media(in: dir)
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=320x240:d=2.6", "-i", dir + "/a.srt", "-map", "0", "-map", "1",
                         "-c:v", "libx264", "-c:s", "copy", dir + "/burn.mkv"])
        func run(_ subs: String, _ extra: String, _ out: String) throws -> CLI.Result {
            try Self.run("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "burn.mkv" } }, "subs": { "type": "subtitles"\(subs) },
                         "out": { "type": "y4msink", "params": { "path": "\(out)" } } },
              "chains": [["in.video", "subs", "out"]\(extra)] }
            """, in: dir, name: out + ".json")
        }
        for (subs, extra, out) in [(#", "params": { "path": "a.srt" }"#, "", "path.y4m"), ("", #", ["in.subtitle", "subs.subtitle"]"#, "edge.y4m")] {
            let r = try run(subs, extra, out)
            try #require(r.status == 0, "\(out): \(r.stderr)")
        }
        let plain = try Self.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "burn.mkv" } }, "out": { "type": "y4msink", "params": { "path": "plain.y4m" } } },
          "chains": [["in.video", "out"]] }
        """, in: dir, name: "plain.json")
        try #require(plain.status == 0, "\(plain.stderr)")
        let path = try Data(contentsOf: URL(fileURLWithPath: dir + "/path.y4m")), edge = try Data(contentsOf: URL(fileURLWithPath: dir + "/edge.y4m"))
        let unburnt = try Data(contentsOf: URL(fileURLWithPath: dir + "/plain.y4m"))
        // compared outside #expect, which would diff megabytes element by element on a failure
        let burnt = path.count > 1_000_000 && path.count == unburnt.count && path != unburnt, same = edge == path
        #expect(burnt, "burning the .srt changed no frame")
        #expect(same, "the frames burnt from the edge differ from those burnt from the file")
        let both = try run(#", "params": { "path": "a.srt" }"#, #", ["in.subtitle", "subs.subtitle"]"#, "both.y4m")
        #expect(both.status != 0 && both.stderr.contains("param 'path' and input 'subtitle' are alternatives"), "\(both.stderr)")
        let neither = try run("", "", "neither.y4m")
        #expect(neither.status != 0 && neither.stderr.contains("no cues: give param 'path'"), "\(neither.stderr)")
    }

    /// A path that is neither .srt nor .vtt is refused at validation; a run that fails leaves no file.
    @Test func subtitleFileRefusesOtherExtensions() throws {
        let dir = CLI.tempDir()
        _ = try Self.media(in: dir)
        let r = try CLI.mediagraph("validate", CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "a.srt" } }, "out": { "type": "subtitlefile", "params": { "path": "x.ass" } } },
          "chains": [["in.subtitle", "out"]] }
        """, in: dir))
        #expect(r.status != 0 && r.stderr.contains("x.ass' names neither a SubRip (.srt) nor a WebVTT (.vtt) file"), "\(r.stderr)")
    }
}
