import Foundation
import Testing

/// `subtitles` against ffmpeg 5.1's drawtext drawing the same lines where the node puts them
/// (each line centred, x=(w-text_w)/2; the last line `margin` above the bottom; cues on at once
/// stacked, the earliest at the bottom): the same bytes, on yuv420p and rgba, with the defaults
/// and with every param given; SubRip (CRLF, tags, entities, {\an8} at the top) and WebVTT
/// (header, NOTE, ids, settings, line:0 at the top, hours left out); malformed files named by line.
@Suite struct SubtitlesTests {
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Two cues overlapping from 0.4 to 0.6 s; every line has a 'g' (and no deeper letter) and an 'l', so each line's
    /// text_h is the same, the line pitch the node uses.
    static let srt = "1\r\n00:00:00,200 --> 00:00:00,600\r\n<i>Hello</i> wörld &amp; gAl\r\n\r\n"
        + "2\r\n00:00:00,400 --> 00:00:01,000\r\n{\\an2}Last cue gAl\r\nsecond <font color=\"red\">gAline</font>\r\n\r\n"
        + "3\r\n00:00:00,600 --> 00:00:00,900\r\n{\\an8}Sign gAl\r\n"
    static let vtt = "WEBVTT - a header\n\nNOTE not a cue\nstill the note\n\nfirst\n00:00.200 --> 00:00.600 line:90% align:center\n"
        + "<v Ann>Hello</v> wörld &amp; gAl\n\n00:00:00.400 --> 00:00:01.000\n<c.loud>Last cue gAl</c>\nsecond gAline\n"
        + "\n00:00.600 --> 00:00.900 line:0\nSign gAl\n"

    struct Case: CustomTestStringConvertible, Sendable {
        let format: String, file: String, ours: String
        /// drawtext's fontsize, colours, border and the margin the node uses.
        let size: Int, color: String, border: Int, margin: Int
        var testDescription: String { "\(format) \(file) \(ours.isEmpty ? "defaults" : ours)" }
    }

    static let cases = [
        // 240 rows: size 240·16/288 = 13.3 → 13, border 13/16 → 1, margin 240·10/288 = 8.3 → 8
        Case(format: "yuv420p", file: "s.srt", ours: "", size: 13, color: "white", border: 1, margin: 8),
        Case(format: "rgba", file: "s.vtt", ours: #", "size": 22, "color": "yellow", "border": 3, "border-color": "blue", "margin": 15"#,
             size: 22, color: "yellow", border: 3, margin: 15),
    ]

    @Test(arguments: cases)
    func linesAreDrawtextsCentred(_ c: Case) throws {
        let dir = CLI.tempDir()
        try Self.srt.write(toFile: dir + "/s.srt", atomically: true, encoding: .utf8)
        try Self.vtt.write(toFile: dir + "/s.vtt", atomically: true, encoding: .utf8)
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1.2", "-pix_fmt", c.format,
                                        "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 320, "height": 240, "format": "\#(c.format)", "rate": 25 } },
                         "s": { "type": "subtitles", "params": { "path": "\#(c.file)", "font-file": "\#(Self.font)"\#(c.ours) } },
                         "o": { "type": "rawsink", "params": { "path": "ours.raw" } } },
              "chains": [["src", "s", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        // cue 1 alone at the bottom; cue 2's two lines above it while cue 1 is on, at the bottom after
        let first = "gte(t\\,0.2)*lt(t\\,0.6)", second = "gte(t\\,0.4)*lt(t\\,1.0)"
        let style = "fontfile=\(Self.font):fontsize=\(c.size):fontcolor=\(c.color):borderw=\(c.border):bordercolor=\(c.border == 1 ? "black" : "blue"):x=(w-text_w)/2"
        let lines = [
            ("Hello wörld & gAl", "h-\(c.margin)-th", first),
            ("Last cue gAl", "h-\(c.margin)-th*(2+\(first))", second),
            ("second gAline", "h-\(c.margin)-th*(1+\(first))", second),
            // put at the top by {\an8} / line:0
            ("Sign gAl", "\(c.margin)", "gte(t\\,0.6)*lt(t\\,0.9)"),
        ]
        let filters = lines.map { "drawtext=\(style):text='\($0.0)':y=\($0.1):enable=\($0.2)" }.joined(separator: ",")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", c.format, "-s", "320x240", "-r", "25", "-i", dir + "/in.raw",
                                       "-vf", filters, "-f", "rawvideo", dir + "/theirs.raw"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/ours.raw")), theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/theirs.raw"))
        let input = try Data(contentsOf: URL(fileURLWithPath: dir + "/in.raw"))
        #expect(ours.count == theirs.count && ours.count == input.count)
        #expect(ours != input, "nothing was drawn")
        let frame = input.count / 30
        let differing = (0..<30).filter { k in ours[(k * frame)..<((k + 1) * frame)] != theirs[(k * frame)..<((k + 1) * frame)] }
        #expect(differing.isEmpty, "frames \(differing) differ from ffmpeg's drawtext")
        // no text before 0.2 s and from 1.0 s on
        #expect(ours[0..<(5 * frame)] == input[0..<(5 * frame)] && ours[(25 * frame)...] == input[(25 * frame)...])
    }

    @Test(arguments: [
        ("1\n00:00:01,000 -> 00:00:02,000\nx\n", "s.srt:2: expected a cue's times such as 00:00:01,000 --> 00:00:02,500, found '00:00:01,000 -> 00:00:02,000'"),
        ("WEBVTT\n\n00:00:01.000 --> 00:00:02\nx\n", "s.srt:3: expected a cue's times such as 00:00:01.000 --> 00:00:02.500, found '00:00:01.000 --> 00:00:02'"),
        ("1\n00:00:61,000 --> 00:01:02,000\nx\n", "s.srt:2: expected a cue's times"),
        ("just some text\n", "s.srt:1: expected a cue's times"),
    ])
    func malformedFilesAreNamedByLine(_ text: String, _ message: String) throws {
        let dir = CLI.tempDir()
        try text.write(toFile: dir + "/s.srt", atomically: true, encoding: .utf8)
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "testsrc", "params": { "frames": 5, "width": 64, "height": 48 } },
                         "s": { "type": "subtitles", "params": { "path": "s.srt" } }, "o": { "type": "nullsink" } },
              "chains": [["src", "s", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2)
        #expect(r.stderr.contains("node 's' (subtitles): param 'path': \(dir)/" + message) || r.stderr.contains(message), "\(r.stderr)")
    }

    /// A cue that ends before it starts is left out, said by validate; a missing file is named.
    @Test func backwardsCueIsAWarningAndAMissingFileAnError() throws {
        let dir = CLI.tempDir()
        try "1\n00:00:02,000 --> 00:00:01,000\nx\n\n2\n00:00:03,000 --> 00:00:04,000\ny\n".write(toFile: dir + "/s.srt", atomically: true, encoding: .utf8)
        let graph = #"""
            { "nodes": { "src": { "type": "testsrc", "params": { "frames": 5, "width": 64, "height": 48 } },
                         "s": { "type": "subtitles", "params": { "path": "PATH" } }, "o": { "type": "nullsink" } },
              "chains": [["src", "s", "o"]] }
            """#
        let r = try CLI.mediagraph("validate", CLI.writeGraph(graph.replacingOccurrences(of: "PATH", with: "s.srt"), in: dir))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.contains("s.srt:2: the cue ends (1.0 s) before it starts (2.0 s); not shown") || r.stderr.contains("s.srt:2: the cue ends (1.0 s) before it starts (2.0 s); not shown"), "\(r.out) \(r.stderr)")
        let m = try CLI.mediagraph("validate", CLI.writeGraph(graph.replacingOccurrences(of: "PATH", with: "none.srt"), in: dir))
        #expect(m.status == 2 && m.stderr.contains("param 'path'") && m.stderr.contains("none.srt"), "\(m.stderr)")
    }
}
