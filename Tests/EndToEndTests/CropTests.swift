import Foundation
import Testing

/// `crop` against ffmpeg 5.1's `crop=w:h:x:y`: the whole frame by default, centered rectangles,
/// both corners and odd sizes and offsets (which both round down to the chroma grid on 4:2:0 and
/// 4:2:2), on testsrc2 in every pixel format at an even and an odd size, byte-identical; on clips
/// with a display rotation or a mirroring matrix the rectangle is one of the picture as shown, as
/// ffmpeg crops after its autorotate. Sizes and places may be ffmpeg's expressions (iw/2, (iw-ow)/4),
/// and places may move with the frame's n and t (moved back inside the frame as ffmpeg does).
/// Rectangles outside the frame are refused at validation with
/// a message naming the param, the limit and the value.
@Suite struct CropTests {
    /// Our params and ffmpeg's crop argument for a `width`x`height` input.
    static func rectangles(_ width: Int, _ height: Int) -> [(name: String, params: String, ffmpeg: String)] {
        [("whole", "{}", "crop"),
         ("centered", #"{ "width": 40, "height": 20 }"#, "crop=40:20"),
         // centered as ffmpeg's: lrint((in - out) / 2) of the size as given, 15.5, 8.5 → 16, 8 on
         // 66x38; on 65x37 4:2:0, 34x20 at 14, 8 ((65 - 35) / 2 rounded down to the grid), not 16
         ("centered-odd", #"{ "width": 35, "height": 21 }"#, "crop=35:21"),
         ("top-left", #"{ "width": 24, "height": 16, "x": 0, "y": 0 }"#, "crop=24:16:0:0"),
         ("bottom-right", #"{ "width": 24, "height": 16, "x": \#(width - 24), "y": \#(height - 16) }"#, "crop=24:16:\(width - 24):\(height - 16)"),
         ("odd", #"{ "width": 33, "height": 19, "x": 5, "y": 3 }"#, "crop=33:19:5:3"),
         // ffmpeg's expressions: width, height, width again, then x, y, x; lrint to pixels
         ("expressions", #"{ "width": "iw/2", "height": "ow/2", "x": "(iw-ow)/4", "y": "oh/2" }"#, "crop=iw/2:ow/2:(iw-ow)/4:oh/2"),
         ("expressions-2", #"{ "width": "in_w-33", "height": "in_h*2/3", "x": 7 }"#, "crop=in_w-33:in_h*2/3:7"),
         // moving: x and y per frame from n and t (3 frames at 25/s), lrint, down to the grid
         ("moving", #"{ "width": 24, "height": 16, "x": "n*7+3", "y": "t*125" }"#, "crop=24:16:n*7+3:t*125"),
         // moved back inside as ffmpeg moves it; a NaN keeps the last frame's place
         ("moving-clamped", #"{ "width": 40, "height": 30, "x": "if(eq(n,1),0/0,n*30-5)", "y": "-n" }"#,
          "crop=40:30:if(eq(n\\,1)\\,0/0\\,n*30-5):-n")]
    }

    @Test(arguments: ["yuv420p", "yuv422p", "yuv444p", "gray", "rgba", "bgra", "yuv420p10le"])
    func rectanglesAreFfmpegs(format: String) throws {
        for (width, height) in [(66, 38), (65, 37)] {
            let dir = CLI.tempDir()
            var nodes = [try FlipTests.rawClip(format: format, width: width, height: height, in: dir)]
            var chains: [String] = []
            for c in Self.rectangles(width, height) {
                nodes.append(#""c-\#(c.name)": { "type": "crop", "params": \#(c.params) }, "o-\#(c.name)": { "type": "rawsink", "params": { "path": "\#(c.name).raw" } }"#)
                chains.append(#"["src", "c-\#(c.name)", "o-\#(c.name)"]"#)
            }
            let g = CLI.writeGraph(#"{ "nodes": { \#(nodes.joined(separator: ", ")) }, "chains": [\#(chains.joined(separator: ", "))] }"#, in: dir)
            let r = try CLI.mediagraph("run", "-q", g)
            #expect(r.status == 0, "\(r.stderr)")
            for c in Self.rectangles(width, height) {
                try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", format, "-s", "\(width)x\(height)", "-i", dir + "/in.raw",
                                       "-vf", c.ffmpeg, "-f", "rawvideo", dir + "/\(c.name)-theirs.raw"])
                let problem = FlipTests.difference(dir + "/\(c.name).raw", dir + "/\(c.name)-theirs.raw")
                #expect(problem == nil, "\(format) \(width)x\(height) \(c.name): \(problem ?? "") against ffmpeg's \(c.ffmpeg)")
            }
        }
    }

    @Test func theRectangleIsOneOfThePictureAsShown() throws {
        let dir = CLI.tempDir()
        // 96x64 stored; 64x96 shown with a quarter-turn rotation: rectangles that fit both
        let rectangles = [("a", #"{ "width": 40, "height": 30, "x": 6, "y": 20 }"#, "crop=40:30:6:20"),
                          ("b", #"{ "width": 33, "height": 19, "x": 5, "y": 3 }"#, "crop=33:19:5:3"),
                          ("c", #"{ "width": 40, "height": 30, "x": "n*9", "y": "t*100" }"#, "crop=40:30:n*9:t*100")]
        for source in try FlipTests.rotatedSources(in: dir) {
            for (k, params, filter) in rectangles {
                let name = "\(source)-\(k)"
                let g = CLI.writeGraph("""
                { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(source).mp4" } }, "c": { "type": "crop", "params": \(params) },
                             "out": { "type": "y4msink", "params": { "path": "\(name).y4m" } } },
                  "chains": [["in.video", "c", "out"]] }
                """, in: dir, name: name + ".json")
                let r = try CLI.mediagraph("run", "-q", g)
                #expect(r.status == 0, "\(r.stderr)")
                try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/\(name).y4m", "-f", "rawvideo", "-pix_fmt", "yuv420p", dir + "/\(name).raw"])
                try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/\(source).mp4", "-vf", filter, "-f", "rawvideo", "-pix_fmt", "yuv420p",
                                       dir + "/\(name)-theirs.raw"])
                let problem = FlipTests.difference(dir + "/\(name).raw", dir + "/\(name)-theirs.raw")
                #expect(problem == nil, "\(name): \(problem ?? "") against ffmpeg's autorotate + \(filter)")
            }
        }
    }

    @Test func aRectangleOutsideTheFrameIsRefused() throws {
        let dir = CLI.tempDir()
        let sources = try FlipTests.rotatedSources(in: dir)
        #expect(sources.contains("r90"))
        // (source, crop params, what the message must say)
        let cases: [(String, String, [String])] = [
            ("plain", #"{ "width": 100 }"#, ["param 'width'", "at most the input's width, 96", "found 100"]),
            ("plain", #"{ "height": 66, "width": 10 }"#, ["param 'height'", "at most the input's height, 64", "found 66"]),
            ("plain", #"{ "width": 40, "x": 60 }"#, ["params 'x' and 'width'", "past the input's width 96", "expected x at most 56", "found 60"]),
            ("plain", #"{ "height": 40, "y": 26 }"#, ["params 'y' and 'height'", "expected y at most 24", "found 26"]),
            ("plain", #"{ "width": 1 }"#, ["param 'width'", "yuv420p needs at least 2", "found 1"]),
            ("r90", #"{ "width": 96 }"#, ["param 'width'", "at most the input's width, 64 (as shown: its display rotation is 90°)", "found 96"]),
        ]
        for (source, params, expected) in cases {
            let g = CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(source).mp4" } }, "c": { "type": "crop", "params": \(params) },
                         "out": { "type": "nullsink" } },
              "chains": [["in.video", "c", "out"]] }
            """, in: dir)
            let r = try CLI.mediagraph("validate", g)
            #expect(r.status != 0, "\(params) was accepted")
            for e in expected { #expect(r.stderr.contains(e), "\(params): \(r.stderr)") }
        }
    }
}
