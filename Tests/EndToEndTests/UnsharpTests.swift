import Foundation
import Testing

/// `unsharp` against ffmpeg 5.1's unsharp on the same raw frames: the same bytes for sharpening
/// and blurring, luma and chroma sizes and amounts of their own, even and odd frame sizes, on the
/// AVX2 loops (blurs up to 5x5) and without them (`MEDIAGRAPH_NO_AVX2=1`: the portable loops).
@Suite struct UnsharpTests {
    struct Case: CustomStringConvertible, Sendable {
        var format: String
        var size: (w: Int, h: Int)
        var ours: String
        var theirs: String
        var description: String { "\(format) \(size.w)x\(size.h) unsharp=\(theirs)" }
    }

    // ffmpeg 5.1 writes black frames for masks wider than about a third of a small frame
    // (13x13 on 41x23), so the large masks run on frames of 65 pixels and more.
    static let cases: [Case] = [
        Case(format: "yuv420p", size: (160, 90), ours: #""luma-amount": 1"#, theirs: "5:5:1"),
        Case(format: "yuv420p", size: (161, 91), ours: #""luma-amount": 1.5, "chroma-amount": -0.6"#, theirs: "5:5:1.5:5:5:-0.6"),
        Case(format: "yuv422p", size: (161, 91), ours: #""luma-x": 3, "luma-y": 3, "luma-amount": 4.99, "chroma-x": 3, "chroma-y": 5, "chroma-amount": -1.3"#,
             theirs: "3:3:4.99:3:5:-1.3"),
        Case(format: "yuv444p", size: (97, 55), ours: #""luma-x": 5, "luma-y": 3, "luma-amount": 5, "chroma-x": 3, "chroma-y": 3, "chroma-amount": -2"#,
             theirs: "5:3:5:3:3:-2"),
        Case(format: "yuv420p", size: (65, 37), ours: #""luma-x": 13, "luma-y": 11, "luma-amount": -2, "chroma-x": 9, "chroma-y": 7, "chroma-amount": 1.7"#,
             theirs: "13:11:-2:9:7:1.7"),
        Case(format: "yuv444p", size: (160, 90), ours: #""luma-x": 23, "luma-y": 3, "luma-amount": 0.35"#, theirs: "23:3:0.35"),
    ]

    @Test(arguments: cases, [false, true])
    func framesAreFFmpegs(_ c: Case, portable: Bool) throws {
        let dir = CLI.tempDir()
        let size = "\(c.size.w)x\(c.size.h)"
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=0.2,scale=\(c.size.w):\(c.size.h)",
                                        "-pix_fmt", c.format, "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": \#(c.size.w), "height": \#(c.size.h), "format": "\#(c.format)", "rate": 25 } },
                         "u": { "type": "unsharp", "params": { \#(c.ours) } },
                         "o": { "type": "rawsink", "params": { "path": "ours.raw" } } },
              "chains": [["src", "u", "o"]] }
            """#, in: dir)
        let r = try CLI.run(CLI.binary, ["run", "--quiet", g], cwd: CLI.root, environment: portable ? ["MEDIAGRAPH_NO_AVX2": "1"] : [:])
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", c.format, "-s", size, "-r", "25", "-i", dir + "/in.raw",
                                       "-vf", "unsharp=" + c.theirs, "-f", "rawvideo", dir + "/theirs.raw"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/ours.raw")), theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/theirs.raw"))
        let input = try Data(contentsOf: URL(fileURLWithPath: dir + "/in.raw"))
        #expect(ours.count == theirs.count && ours != input)
        let differing = zip(ours, theirs).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(ours.count) bytes differ from ffmpeg's")
    }

    @Test(arguments: [
        (#""luma-x": 4"#, "param 'luma-x': the size must be odd (3, 5, …, 23), found 4"),
        (#""chroma-x": 13, "chroma-y": 15"#, "13x15 is too large a blur"),
        (#""luma-amount": 6"#, "luma-amount"),
    ])
    func mistakesAreNamed(_ params: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(#"""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 32, "frames": 2, "format": "yuv420p" } },
                         "u": { "type": "unsharp", "params": { \#(params) } }, "o": { "type": "nullsink" } },
              "chains": [["src", "u", "o"]] }
            """#, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains(message), "\(r.stderr)")
    }
}
