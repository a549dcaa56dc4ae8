import Foundation
import Testing

/// Filters inside graphs: byte-identical to ffmpeg where ffmpeg has the same filter, in place on
/// linear chains, and isolated branches under fan-out.
@Suite struct FilterGraphTests {
    @Test(arguments: ["yuv420p", "yuv422p", "yuv444p", "gray"])
    func invertMatchesFFmpegNegate(_ pixfmt: String) throws {
        let dir = CLI.tempDir()
        // testsrc2 rounds odd sizes down; the scale filter makes the odd size
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=386x290:rate=25", "-frames:v", "6",
                               "-vf", "scale=385:289", "-pix_fmt", pixfmt, "-f", "rawvideo", dir + "/in.raw"])
        try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", pixfmt, "-s", "385x289", "-i", dir + "/in.raw",
                               "-vf", "negate", "-f", "rawvideo", dir + "/ffmpeg.raw"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 385, "height": 289, "format": "\(pixfmt)" } },
                     "inv": { "type": "invert" },
                     "out": { "type": "rawsink", "params": { "path": "ours.raw" } } },
          "chains": [["src", "inv", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = FileManager.default.contents(atPath: dir + "/ours.raw"), theirs = FileManager.default.contents(atPath: dir + "/ffmpeg.raw")
        #expect(ours != nil && ours == theirs, "invert on \(pixfmt) differs from ffmpeg's negate")
    }

    @Test func linearChainCopiesNoFrame() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 40, "format": "rgba" } },
                     "inv": { "type": "invert" }, "sep": { "type": "sepia" }, "con": { "type": "contrast", "params": { "amount": 1.5 } },
                     "out": { "type": "nullsink" } },
          "chains": [["src", "inv", "sep", "con", "out"]], "fuse": false }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", "--stats", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(", 0 frames copied, 120 written in place"), "\(r.stderr)")
    }

    @Test func fanOutBranchesSeeTheirOwnResults() throws {
        let dir = CLI.tempDir()
        let source = #""src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 20, "format": "rgba" } }"#
        let plain = CLI.writeGraph("{ \"nodes\": { \(source), \"h\": { \"type\": \"framehash\", \"params\": { \"path\": \"plain.txt\" } } }, \"chains\": [[\"src\", \"h\"]] }", in: dir, name: "plain.json")
        let inverted = CLI.writeGraph("{ \"nodes\": { \(source), \"i\": { \"type\": \"invert\" }, \"h\": { \"type\": \"framehash\", \"params\": { \"path\": \"inverted.txt\" } } }, \"chains\": [[\"src\", \"i\", \"h\"]] }", in: dir, name: "inv.json")
        let fan = CLI.writeGraph("""
        { "nodes": { \(source), "i": { "type": "invert" }, "g": { "type": "grayscale" },
                     "hi": { "type": "framehash", "params": { "path": "fan-inv.txt" } },
                     "hg": { "type": "framehash", "params": { "path": "fan-gray.txt" } },
                     "hp": { "type": "framehash", "params": { "path": "fan-plain.txt" } } },
          "chains": [["src", "i", "hi"], ["src", "g", "hg"], ["src", "hp"]] }
        """, in: dir, name: "fan.json")
        for g in [plain, inverted, fan] {
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 0, "\(r.stderr)")
        }
        func read(_ n: String) -> String { (try? String(contentsOfFile: dir + "/" + n, encoding: .utf8)) ?? "missing" }
        #expect(read("fan-plain.txt") == read("plain.txt"), "the shared input was modified by a branch")
        #expect(read("fan-inv.txt") == read("inverted.txt"))
        #expect(read("fan-gray.txt") != read("plain.txt"))
    }

    @Test func convertersAreInsertedAndShown() throws {
        let r = try CLI.mediagraph("validate", "Graphs/testsrc-curves-y4m.json")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.contains("note: inserted 'auto_convert_curves_in' (convert): yuv420p → rgba before 'curves.in'"), "\(r.out)")
        #expect(r.out.contains("note: inserted 'auto_convert_out_in' (convert): rgba → yuv420p before 'out.in'"), "\(r.out)")
        let dot = try CLI.mediagraph("dot", "Graphs/testsrc-curves-y4m.json")
        #expect(dot.out.contains("\"auto_convert_curves_in\" [label=\"auto_convert_curves_in\\n(convert)\", style=dashed"), "\(dot.out)")
    }

    @Test(arguments: [
        ("{ \"type\": \"contrast\", \"params\": { \"amount\": 9 } }", "node 'f' param 'amount': expected number 0…4, found 9"),
        ("{ \"type\": \"colormatrix\" }", "node 'f' (colormatrix): param 'matrix': expected 16 numbers or a 'preset', found neither"),
        ("{ \"type\": \"colormatrix\", \"params\": { \"matrix\": [1, 2] } }", "node 'f' param 'matrix': expected array of 16 numbers, found an array of 2 numbers"),
        ("{ \"type\": \"scale\", \"params\": { \"width\": \"iw*100\", \"height\": -1 } }", "node 'f' (scale): params 'width'/'height': for this input (320x240) they give 32000x24000; each side must be 1…16384"),
        ("{ \"type\": \"scale\", \"params\": { \"width\": \"(iw\" } }", "node 'f' (scale): param 'width': expected ')' at offset 3 of '(iw'"),
        ("{ \"type\": \"lut3d\", \"params\": { \"file\": \"missing.cube\" } }", "node 'f' (lut3d): param 'file': "),
    ])
    func badFilterParamsFailValidation(_ node: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 2 } }, "f": \(node),
                     "out": { "type": "nullsink" } },
          "chains": [["src", "f", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "expected «\(message)» in «\(r.stderr)»")
    }
}
