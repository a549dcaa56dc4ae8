import Foundation
import Testing

/// `drawbox` against ffmpeg 5.1's drawbox on the same raw frames: the same bytes for outlines of
/// several thicknesses, filled boxes, boxes cut by the frame's edges, sizes from expressions and
/// `invert`. Where ffmpeg blends a translucent colour into a 4:2:0 chroma sample once per luma
/// pixel of it that the box covers, ours blends it once: luma is ffmpeg's, chroma the formula.
@Suite struct DrawBoxTests {
    static let cases: [(format: String, w: Int, h: Int, ours: String, theirs: String)] = [
        ("yuv420p", 160, 90, #""x": 10, "y": 20, "width": 50, "height": 30, "color": "red""#, "10:20:50:30:red"),
        ("yuv420p", 161, 91, #""x": 11, "y": 21, "width": 51, "height": 31, "color": "yellow", "thickness": 5"#, "x=11:y=21:w=51:h=31:c=yellow:t=5"),
        ("yuv422p", 160, 90, #""x": -5, "y": 60, "width": 80, "height": 50, "color": "blue", "thickness": "fill""#, "x=-5:y=60:w=80:h=50:c=blue:t=fill"),
        ("yuv444p", 160, 90, #""x": "iw/4", "y": "ih/4", "width": "iw/2", "height": "ih/2", "color": "invert", "thickness": 7"#,
         "x=iw/4:y=ih/4:w=iw/2:h=ih/2:c=invert:t=7"),
        ("yuv444p", 97, 55, #""color": "white@0.5", "thickness": 9"#, "c=white@0.5:t=9"),
        ("yuv420p", 160, 90, #""x": 10, "y": 20, "width": 50, "height": 30, "color": "white@0.5", "thickness": 4"#, "10:20:50:30:white@0.5:t=4"),
    ]

    @Test(arguments: 0..<cases.count)
    func framesAreFFmpegs(_ k: Int) throws {
        let c = Self.cases[k]
        let dir = CLI.tempDir()
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=0.2,scale=\(c.w):\(c.h)",
                                        "-pix_fmt", c.format, "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": \#(c.w), "height": \#(c.h), "format": "\#(c.format)", "rate": 25 } },
                         "b": { "type": "drawbox", "params": { \#(c.ours) } },
                         "o": { "type": "rawsink", "params": { "path": "ours.raw" } } },
              "chains": [["src", "b", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", c.format, "-s", "\(c.w)x\(c.h)", "-r", "25", "-i", dir + "/in.raw",
                                       "-vf", "drawbox=" + c.theirs, "-f", "rawvideo", dir + "/theirs.raw"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/ours.raw")))
        let theirs = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/theirs.raw")))
        let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/in.raw")))
        try #require(ours.count == theirs.count && ours.count == input.count)
        #expect(ours != input, "nothing was drawn")
        let translucent420 = c.format == "yuv420p" && c.ours.contains("@0.5")
        guard translucent420 else {
            let differing = zip(ours, theirs).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) of \(ours.count) bytes differ from ffmpeg's")
            return
        }
        // luma: ffmpeg's bytes; chroma: blended once where ffmpeg touched it, (1 − α)·v + α·128
        // truncated (white's Cb and Cr; "@0.5" is the byte 127, α = 127/255), untouched elsewhere
        let alpha = 127.0 / 255
        let luma = c.w * c.h, chroma = ((c.w + 1) / 2) * ((c.h + 1) / 2), frame = luma + 2 * chroma
        var lumaDiffering = 0, chromaWrong = 0
        for i in 0..<ours.count {
            if i % frame < luma { if ours[i] != theirs[i] { lumaDiffering += 1 }; continue }
            let expected = theirs[i] == input[i] ? input[i] : UInt8((1 - alpha) * Double(input[i]) + alpha * 128)
            if ours[i] != expected { chromaWrong += 1 }
        }
        #expect(lumaDiffering == 0 && chromaWrong == 0, "luma \(lumaDiffering), chroma \(chromaWrong)")
    }

    @Test(arguments: [
        (#""color": "bleu""#, "param 'color': 'bleu' is not a colour"),
        (##""x": "iw/""##, "param 'x': expected a number"),
        (#""thickness": -2"#, "param 'thickness': -2 gives -2, expected 0 or more"),
    ])
    func mistakesAreNamed(_ params: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 32, "frames": 2, "format": "yuv420p" } },
                         "b": { "type": "drawbox", "params": { \#(params) } }, "o": { "type": "nullsink" } },
              "chains": [["src", "b", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains(message), "\(r.stderr)")
    }
}
