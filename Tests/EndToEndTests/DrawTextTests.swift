import Foundation
import Testing

/// `drawtext` against ffmpeg 5.1's drawtext on the same raw frames: the same bytes for the same
/// font, text and options (glyphs, layout, box, outline, shadow, opacity, expansion and
/// expressions over time), on every format it takes, 10-bit YUV included. DejaVu Sans Mono is used where the bytes are
/// compared: it has no kerning table, and ffmpeg 5.1 looks kerning up by character code where
/// FreeType wants glyph indices (Docs/filters.md), so kerned fonts differ from it on purpose.
@Suite struct DrawTextTests {
    static let mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

    struct Case: CustomStringConvertible, Sendable {
        var format: String
        var size: (w: Int, h: Int)
        /// Our params (JSON members) and ffmpeg's drawtext options for the same drawing.
        var ours: String
        var theirs: String
        var description: String { "\(format) \(theirs)" }
    }

    static let cases: [Case] = [
        Case(format: "rgba", size: (160, 90), ours: #""text": "Hello, gjy!", "size": 20, "color": "yellow", "x": 11, "y": 31"#,
             theirs: "text='Hello, gjy!':fontsize=20:fontcolor=yellow:x=11:y=31"),
        Case(format: "yuv420p", size: (161, 91), ours: #""text": "Hello, gjy!", "size": 20, "color": "yellow", "x": 11, "y": 31"#,
             theirs: "text='Hello, gjy!':fontsize=20:fontcolor=yellow:x=11:y=31"),
        Case(format: "yuv422p", size: (160, 90), ours: #""text": "Box it", "size": 18, "color": "red", "x": 7, "y": 9, "box": true, "box-color": "blue@0.5", "box-border": 5"#,
             theirs: "text='Box it':fontsize=18:fontcolor=red:x=7:y=9:box=1:boxcolor=blue@0.5:boxborderw=5"),
        Case(format: "bgra", size: (160, 90), ours: #""text": "Line one\nline 2\tT", "size": 15, "color": "white", "x": "(w-text_w)/2", "y": "h-th-3", "line-spacing": 4"#,
             theirs: "text='Line one\nline 2\tT':fontsize=15:fontcolor=white:x=(w-text_w)/2:y=h-th-3:line_spacing=4"),
        Case(format: "yuv444p", size: (160, 90), ours: #""text": "Border", "size": 22, "color": "yellow", "x": -9, "y": 70, "border": 2, "shadow-x": 3, "shadow-y": 2, "shadow-color": "gray@0.7", "alpha": 0.6"#,
             theirs: "text='Border':fontsize=22:fontcolor=yellow:x=-9:y=70:borderw=2:bordercolor=black:shadowx=3:shadowy=2:shadowcolor=gray@0.7:alpha=0.6"),
        Case(format: "yuv420p10le", size: (161, 91), ours: #""text": "Box 10-bit", "size": 18, "color": "red", "x": 7, "y": 9, "box": true, "box-color": "blue@0.5", "box-border": 5, "border": 1, "shadow-x": 2, "shadow-y": 2"#,
             theirs: "text='Box 10-bit':fontsize=18:fontcolor=red:x=7:y=9:box=1:boxcolor=blue@0.5:boxborderw=5:borderw=1:shadowx=2:shadowy=2"),
        Case(format: "yuv444p10le", size: (160, 90), ours: ##""text": "cyan 0x12", "size": 20, "color": "cyan", "x": 3, "y": 50, "box": true, "box-color": "#123456@0.7""##,
             theirs: "text='cyan 0x12':fontsize=20:fontcolor=cyan:x=3:y=50:box=1:boxcolor=#123456@0.7"),
        Case(format: "gray", size: (97, 41), ours: #""text": "gray 0x1F", "size": 13, "color": "white", "x": 80, "y": -4, "box": true, "box-color": "black@0.4""#,
             theirs: "text='gray 0x1F':fontsize=13:fontcolor=white:x=80:y=-4:box=1:boxcolor=black@0.4"),
        Case(format: "yuv420p", size: (240, 60),
             ours: #""text": "%{pts:hms} %{pts} #%{n} %{eif:n*7:x:4} %{e:t*2} %{pts:hms:3.5}", "size": 10, "color": "white", "x": "w-mod(t*200,w+tw)", "y": 3, "alpha": "if(lt(t,0.2),t*5,1)", "enable": "gte(n,3)", "start-number": 5"#,
             theirs: #"text='%{pts\:hms} %{pts} #%{n} %{eif\:n*7\:x\:4} %{e\:t*2} %{pts\:hms\:3.5}':fontsize=10:fontcolor=white:x=w-mod(t*200\,w+tw):y=3:alpha=if(lt(t\,0.2)\,t*5\,1):enable=gte(n\,3):start_number=5"#),
    ]

    @Test(arguments: cases)
    func framesAreFFmpegs(_ c: Case) throws {
        let dir = CLI.tempDir()
        let size = "\(c.size.w)x\(c.size.h)"
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=0.6,scale=\(c.size.w):\(c.size.h)", "-pix_fmt", c.format,
                                        "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": \#(c.size.w), "height": \#(c.size.h), "format": "\#(c.format)", "rate": 25 } },
                         "t": { "type": "drawtext", "params": { "font-file": "\#(Self.mono)", \#(c.ours) } },
                         "o": { "type": "rawsink", "params": { "path": "ours.raw" } } },
              "chains": [["src", "t", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", c.format, "-s", size, "-r", "25", "-i", dir + "/in.raw",
                                       "-vf", "drawtext=fontfile=\(Self.mono):" + c.theirs, "-f", "rawvideo", dir + "/theirs.raw"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/ours.raw")), theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/theirs.raw"))
        let input = try Data(contentsOf: URL(fileURLWithPath: dir + "/in.raw"))
        #expect(ours.count == theirs.count && ours.count == input.count)
        #expect(ours != input, "nothing was drawn")
        let differing = zip(ours, theirs).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(ours.count) bytes differ from ffmpeg's")
    }

    /// Without a font file, fontconfig's match for "Sans" at fontconfig's size (12 pixels), as
    /// ffmpeg's default.
    @Test func defaultFontIsFontconfigsSans() throws {
        let dir = CLI.tempDir()
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=128x48:rate=25:duration=0.12", "-pix_fmt", "yuv420p",
                                        "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 128, "height": 48, "format": "yuv420p", "rate": 25 } },
                         "t": { "type": "drawtext", "params": { "text": "Hello 123", "x": 4, "y": 4 } },
                         "o": { "type": "rawsink", "params": { "path": "ours.raw" } } },
              "chains": [["src", "t", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "128x48", "-r", "25", "-i", dir + "/in.raw",
                                       "-vf", "drawtext=text='Hello 123':x=4:y=4", "-f", "rawvideo", dir + "/theirs.raw"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = FileManager.default.contents(atPath: dir + "/ours.raw"), theirs = FileManager.default.contents(atPath: dir + "/theirs.raw")
        #expect(ours != nil && ours == theirs)
    }

    /// Kerning is FreeType's by glyph index: the pen positions come from FreeType itself through
    /// Python's ctypes (FT_Get_Char_Index, FT_Get_Kerning, the slot's advance), and ffmpeg draws
    /// each character alone at its position, baselines aligned with `y=40-ascent`; our whole text
    /// must give those bytes (ffmpeg 5.1's own kerning looks glyphs up by character code).
    @Test func kerningIsFreeTypesByGlyphIndex() throws {
        let dir = CLI.tempDir()
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", text = "AVWa To", x0 = 7
        let script = """
            import ctypes, sys
            ft = ctypes.CDLL("libfreetype.so.6")
            lib = ctypes.c_void_p(); assert ft.FT_Init_FreeType(ctypes.byref(lib)) == 0
            face = ctypes.c_void_p(); assert ft.FT_New_Face(lib, sys.argv[1].encode(), 0, ctypes.byref(face)) == 0
            assert ft.FT_Set_Pixel_Sizes(face, 0, int(sys.argv[2])) == 0
            class Vec(ctypes.Structure): _fields_ = [("x", ctypes.c_long), ("y", ctypes.c_long)]
            ft.FT_Get_Char_Index.restype = ctypes.c_uint
            pen, prev, out, kerned = 0, None, [], 0
            for ch in sys.argv[3]:
                idx = ft.FT_Get_Char_Index(face, ctypes.c_ulong(ord(ch)))
                if prev is not None:
                    v = Vec(); ft.FT_Get_Kerning(face, prev, idx, 0, ctypes.byref(v)); pen += v.x >> 6; kerned += abs(v.x >> 6)
                out.append(pen)
                assert ft.FT_Load_Char(face, ctypes.c_ulong(ord(ch)), 0) == 0
                slot = ctypes.cast(face, ctypes.POINTER(ctypes.c_void_p))[19]       # FT_FaceRec.glyph
                pen += ctypes.cast(slot, ctypes.POINTER(ctypes.c_long))[16] >> 6   # FT_GlyphSlotRec.advance.x
                prev = idx
            print(" ".join(map(str, out + [kerned])))
            """
        try script.write(toFile: dir + "/kern.py", atomically: true, encoding: .utf8)
        let k = try CLI.run("python3", [dir + "/kern.py", font, "24", text])
        #expect(k.status == 0, "\(k.stderr)")
        var pens = String(decoding: k.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(pens.count == text.count + 1)
        let kerned = pens.removeLast()
        #expect(kerned > 0, "no kerned pair in '\(text)': the test would not test kerning")
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=0.12", "-pix_fmt", "yuv420p",
                                        "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 160, "height": 90, "format": "yuv420p", "rate": 25 } },
                         "t": { "type": "drawtext", "params": { "text": "\#(text)", "font-file": "\#(font)", "size": 24, "color": "white", "x": \#(x0), "y": "40-ascent" } },
                         "o": { "type": "rawsink", "params": { "path": "ours.raw" } } },
              "chains": [["src", "t", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let chain = zip(text, pens).filter { $0.0 != " " }.map {
            "drawtext=fontfile=\(font):fontsize=24:fontcolor=white:text='\($0.0)':x=\(x0 + $0.1):y=40-ascent"
        }.joined(separator: ",")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "160x90", "-r", "25", "-i", dir + "/in.raw",
                                       "-vf", chain, "-f", "rawvideo", dir + "/theirs.raw"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = FileManager.default.contents(atPath: dir + "/ours.raw"), theirs = FileManager.default.contents(atPath: dir + "/theirs.raw")
        #expect(ours != nil && ours == theirs)
    }

    /// On YUV frames the colour is the frame's own: Y'CbCr of the colour by the frame's matrix
    /// and range (the formula written out here), where ffmpeg 5.1 always uses BT.601 limited.
    @Test(arguments: [("bt709", "limited"), ("bt709", "full"), ("bt2020nc", "limited"), ("bt601", "full")])
    func boxColourFollowsTheFramesMatrix(_ matrix: String, _ range: String) throws {
        let dir = CLI.tempDir()
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=black:size=64x32:rate=25:duration=0.04", "-pix_fmt", "yuv444p",
                                        "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 64, "height": 32, "format": "yuv444p", "rate": 25, "range": "\#(range)" } },
                         "p": { "type": "setparams", "params": { "matrix": "\#(matrix)" } },
                         "t": { "type": "drawtext", "params": { "text": "M", "font-file": "\#(Self.mono)", "color": "#FF8C1E", "box": true, "box-color": "#FF8C1E", "box-border": 4, "x": 8, "y": 8 } },
                         "o": { "type": "rawsink", "params": { "path": "ours.raw" } } },
              "chains": [["src", "p", "t", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let out = try #require(FileManager.default.contents(atPath: dir + "/ours.raw"))
        let (kr, kb) = ["bt709": (0.2126, 0.0722), "bt2020nc": (0.2627, 0.0593), "bt601": (0.299, 0.114)][matrix]!
        let (R, G, B) = (255.0, 140.0, 30.0)
        let Y = kr * R + (1 - kr - kb) * G + kb * B
        let full = range == "full"
        let expected = [(full ? 0 : 16) + (full ? 1 : 219.0 / 255) * Y,
                        128 + (full ? 1 : 224.0 / 255) * (B - Y) / (2 * (1 - kb)),
                        128 + (full ? 1 : 224.0 / 255) * (R - Y) / (2 * (1 - kr))].map { Int($0.rounded()) }
        let at = 5 * 64 + 5  // inside the box's border
        let found = (0..<3).map { Int(out[$0 * 64 * 32 + at]) }
        #expect(found == expected, "\(matrix) \(range)")
    }

    /// A frame another branch also reads is copied, not drawn on: the other branch gets the input.
    @Test func sharedFramesAreCopied() throws {
        let dir = CLI.tempDir()
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x32:rate=25:duration=0.2", "-pix_fmt", "rgba",
                                        "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 64, "height": 32, "format": "rgba", "rate": 25 } },
                         "t": { "type": "drawtext", "params": { "text": "XYZ", "font-file": "\#(Self.mono)", "size": 20, "color": "white" } },
                         "o": { "type": "rawsink", "params": { "path": "text.raw" } }, "plain": { "type": "rawsink", "params": { "path": "plain.raw" } } },
              "chains": [["src", "t", "o"], ["src", "plain"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let input = FileManager.default.contents(atPath: dir + "/in.raw"), plain = FileManager.default.contents(atPath: dir + "/plain.raw")
        let text = FileManager.default.contents(atPath: dir + "/text.raw")
        #expect(plain == input)
        #expect(text != nil && text != input && text?.count == input?.count)
    }

    /// Mistakes are validation errors naming the param and what is wrong (exit 2, nothing runs).
    @Test(arguments: [
        (#""text": "a", "font-file": "/nonexistent/font.ttf""#, "param 'font-file': cannot open font '/nonexistent/font.ttf'"),
        (#""text": "a", "x": "(w-tw/2""#, "param 'x': expected ')' at offset 7 of '(w-tw/2'"),
        (#""text": "a", "y": "hh-10""#, "param 'y': unknown name 'hh'"),
        (#""text": "a", "x": "min(w)""#, "min takes 2 arguments, found 1"),
        (#""text": "a", "color": "bleu""#, "param 'color': 'bleu' is not a colour"),
        (##""text": "a", "box-color": "#12345""##, "param 'box-color': '#12345' is not a colour"),
        (#""text": "%{pict_type}""#, "unknown function %{pict_type}"),
        (#""text": "%{pts:abc}""#, "the format must be flt, hms, gmtime or localtime"),
        (#""font": "a""#, "'text' or 'text-file' is required"),
    ])
    func mistakesAreNamed(_ params: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 32, "frames": 2 } },
                         "t": { "type": "drawtext", "params": { \#(params) } }, "o": { "type": "nullsink" } },
              "chains": [["src", "t", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains(message), "\(r.stderr)")
    }
}
