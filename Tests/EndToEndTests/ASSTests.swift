import Foundation
import Testing

/// `ass` against ffmpeg 5.1's `-vf ass=…` (the same libass): every frame byte-equal, on odd and
/// HD sizes, yuv420p and rgba (and rgba with alpha=1), for a script with two styles, \pos, \an,
/// colours with alpha, a \fad, italics and bold, borders and shadows, a drawing and overlapping events; a
/// file that is no script, and scripts that would make libass take gigabytes or minutes, refused
/// by name; libass's warnings shown with the node.
@Suite struct ASSTests {
    /// DejaVu Sans comes with fonts-dejavu-core (scripts/setup.sh); fontconfig finds it by name
    /// for both libass users.
    static let script = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 640
        PlayResY: 480
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Main,DejaVu Sans,36,&H00FFFFFF,&H000000FF,&H00101010,&H80000000,0,0,0,0,100,100,0,0,1,2.5,2,2,20,20,24,1
        Style: Sign,DejaVu Sans,28,&H4000D0FF,&H000000FF,&H00800000,&H60202020,-1,-1,0,0,100,100,0,0,1,1.5,3,8,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.10,0:00:00.90,Main,,0,0,0,,Hello {\\i1}wörld{\\i0} and {\\b1}bold{\\b0}
        Dialogue: 0,0:00:00.30,0:00:01.10,Main,,0,0,0,,{\\fad(200,300)}A second line fading\\Nover two rows
        Dialogue: 1,0:00:00.20,0:00:01.00,Sign,,0,0,0,,{\\pos(200,120)\\an7\\c&H3020F0&\\3c&HFFFF00&\\alpha&H30&}Signpost {\\1a&HA0&}see-through
        Dialogue: 0,0:00:00.50,0:00:01.20,Sign,,0,0,0,,{\\an9\\frz15\\bord4\\shad5\\4c&H00FF00&}Top right tilted
        Dialogue: 0,0:00:00.60,0:00:01.10,Sign,,0,0,0,,{\\pos(500,300)\\p1\\bord2\\1c&H20A020&}m 0 0 l 80 0 80 40 0 40{\\p0}
        """

    struct Case: CustomTestStringConvertible, Sendable {
        let format: String, width: Int, height: Int, ours: String, theirs: String
        var testDescription: String { "\(format) \(width)x\(height)\(theirs)" }
    }

    static let cases = [
        Case(format: "yuv420p", width: 385, height: 289, ours: "", theirs: ""),
        Case(format: "rgba", width: 385, height: 289, ours: "", theirs: ""),
        Case(format: "yuv420p", width: 1280, height: 720, ours: "", theirs: ""),
        Case(format: "rgba", width: 1280, height: 720, ours: #", "alpha": true"#, theirs: ":alpha=1"),
    ]

    @Test(arguments: cases)
    func framesAreFFmpegAss(_ c: Case) throws {
        let dir = CLI.tempDir()
        try Self.script.write(toFile: dir + "/s.ass", atomically: true, encoding: .utf8)
        let frames = 32
        // testsrc2 rounds a size down to its chroma grid in yuv420p: drawn in rgba, then converted
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(c.width)x\(c.height):rate=25,format=rgba",
                                        "-frames:v", "\(frames)", "-pix_fmt", c.format, "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": \#(c.width), "height": \#(c.height), "format": "\#(c.format)", "rate": 25 } },
                         "s": { "type": "ass", "params": { "path": "s.ass"\#(c.ours) } },
                         "o": { "type": "rawsink", "params": { "path": "ours.raw" } } },
              "chains": [["src", "s", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", c.format, "-s", "\(c.width)x\(c.height)", "-r", "25",
                                       "-i", dir + "/in.raw", "-vf", "ass=s.ass\(c.theirs)", "-f", "rawvideo", dir + "/theirs.raw"], cwd: dir)
        #expect(f.status == 0, "\(f.stderr)")
        let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/ours.raw")), theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/theirs.raw"))
        let input = try Data(contentsOf: URL(fileURLWithPath: dir + "/in.raw"))
        try #require(ours.count == theirs.count && ours.count == input.count, "sizes \(ours.count) \(theirs.count) \(input.count)")
        let frame = input.count / frames
        func slice(_ d: Data, _ k: Int) -> Data { d[(d.startIndex + k * frame)..<(d.startIndex + (k + 1) * frame)] }
        let differing = (0..<frames).filter { slice(ours, $0) != slice(theirs, $0) }
        #expect(differing.isEmpty, "frames \(differing) differ from ffmpeg's ass filter")
        // nothing before 0.1 s (frames 0–2); something on every frame from 0.12 s to 1.16 s
        #expect((0..<3).allSatisfy { slice(ours, $0) == slice(input, $0) })
        #expect((3..<30).allSatisfy { slice(ours, $0) != slice(input, $0) }, "a frame with events on is unchanged")
    }

    static let header = script.components(separatedBy: "[Events]")[0]
        + "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"

    /// Scripts that make libass (and ffmpeg) take gigabytes or minutes a frame are refused when
    /// the graph is validated, naming the event; a file that is not a script is refused too.
    @Test(arguments: [
        // 110 s and 3.7 GB for one frame in ffmpeg at 640x360
        (header + "Dialogue: 0,0:00:01.00,0:00:02.00,Main,,0,0,0,,{\\fscx100000\\fscy100000\\bord50}Wide\n",
         "the event at 0:00:01.00–0:00:02.00 ('{\\fscx100000\\fscy100000\\bord50}Wide'): its glyphs would be about"),
        // 100 s and 9.4 GB for one frame in ffmpeg at 640x360
        (header + "Dialogue: 0,0:00:01.00,0:00:02.00,Main,,0,0,0,,{\\p1\\bord300}m 0 0 l 30000 0 30000 30000 0 30000{\\p0}\n",
         "its drawing would be about 30600 pixels across"),
        // a relative size grows by 1 + n/10 each time
        (header + "Dialogue: 0,0:00:01.00,0:00:02.00,Sign,,0,0,0,,{\\fs+20\\fs+20\\fs+20\\fs+20\\fs+20}Grow\n", "its glyphs would be about"),
        (header + String(repeating: "Dialogue: 0,0:00:00.00,0:00:03.00,Main,,0,0,0,,line\n", count: 4200),
         "4097 events are on at once from 0:00:00.00"),
        (header + String(repeating: "Dialogue: 0,0:00:00.00,0:00:03.00,Main,,0,0,0,,{\\fs600}" + String(repeating: "W", count: 300) + "\n", count: 10),
         "the events on at 0:00:00.00 would draw about"),
        ("just some text\nwith no sections\n", "libass found no ASS/SSA script in it"),
    ])
    func hostileScriptsAreRefused(_ text: String, _ message: String) throws {
        let dir = CLI.tempDir()
        try text.write(toFile: dir + "/s.ass", atomically: true, encoding: .utf8)
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "testsrc", "params": { "frames": 5, "width": 640, "height": 360 } },
                         "s": { "type": "ass", "params": { "path": "s.ass" } }, "o": { "type": "nullsink" } },
              "chains": [["src", "s", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2)
        #expect(r.stderr.contains("node 's' (ass): param 'path' (\(dir)/s.ass): ") && r.stderr.contains(message), "\(r.stderr)")
    }

    /// libass's own complaints come out as the node's warnings (without its track's address),
    /// those while rendering once each with a count at the end of the run;
    /// a script without events is said to draw nothing; a missing file or fonts directory is an error.
    @Test func libassWarningsAreTheNodes() throws {
        let dir = CLI.tempDir()
        try (Self.header + "Dialogue: 0,0:00:xx.00,0:00:05.00,Main,,0,0,0,,Bad time\nDialogue: 0,0:00:00.00,0:00:05.00,Nostyle,,0,0,0,,x\n")
            .write(toFile: dir + "/s.ass", atomically: true, encoding: .utf8)
        try Self.header.write(toFile: dir + "/empty.ass", atomically: true, encoding: .utf8)
        let graph = #"""
            { "nodes": { "src": { "type": "testsrc", "params": { "frames": 5, "width": 64, "height": 48 } },
                         "s": { "type": "ass", "params": { "path": "PATH" } }, "o": { "type": "nullsink" } },
              "chains": [["src", "s", "o"]] }
            """#
        let r = try CLI.mediagraph("validate", CLI.writeGraph(graph.replacingOccurrences(of: "PATH", with: "s.ass"), in: dir))
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.out + r.stderr
        #expect(said.contains("node 's' (ass): \(dir)/s.ass: libass: Bad timestamp"), "\(said)")
        #expect(said.contains("node 's' (ass): \(dir)/s.ass: libass: Warning: no style named 'Nostyle' found, using 'Default'"), "\(said)")
        let e = try CLI.mediagraph("validate", CLI.writeGraph(graph.replacingOccurrences(of: "PATH", with: "empty.ass"), in: dir))
        #expect((e.out + e.stderr).contains("empty.ass: the script has no Dialogue events; nothing is drawn"), "\(e.out) \(e.stderr)")
        let m = try CLI.mediagraph("validate", CLI.writeGraph(graph.replacingOccurrences(of: "PATH", with: "none.ass"), in: dir))
        #expect(m.status == 2 && m.stderr.contains("param 'path' (\(dir)/none.ass): cannot read the file"), "\(m.stderr)")
        let d = try CLI.mediagraph("validate", CLI.writeGraph(graph.replacingOccurrences(of: #""path": "PATH""#, with: #""path": "s.ass", "fonts-dir": "fonts""#), in: dir))
        #expect(d.status == 2 && d.stderr.contains("param 'fonts-dir' (\(dir)/fonts): expected a directory of font files, found nothing"), "\(d.stderr)")
        // while rendering: a character no installed font has, said once with a count at the end of the run
        try (Self.header + "Dialogue: 0,0:00:00.00,0:00:05.00,Main,,0,0,0,,Private \u{10FFFD} use\n").write(toFile: dir + "/glyph.ass", atomically: true, encoding: .utf8)
        let g = try CLI.mediagraph("run", CLI.writeGraph(graph.replacingOccurrences(of: "PATH", with: "glyph.ass"), in: dir))
        #expect(g.status == 0, "\(g.stderr)")
        #expect(g.stderr.contains("node 's' (ass): \(dir)/glyph.ass: libass: fontselect: failed to find any fallback with glyph 0x10FFFD for font: (DejaVu Sans, 400, 0) (5 times)"), "\(g.stderr)")
    }
}
