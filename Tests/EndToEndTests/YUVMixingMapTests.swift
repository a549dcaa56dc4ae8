import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphNodes
import Testing

/// Colour maps that mix Y' with Cb and Cr (sepia, rgb, colormatrix) on YUV frames: one pass in
/// the frame's layout, no converter, against ffmpeg's route through RGB (Docs/filters.md, "On
/// YUV frames").
@Suite struct YUVMixingMapTests {
    /// Each filter as our node and as ffmpeg's colorchannelmixer with the same rows.
    static let cases: [(node: String, ffmpeg: String)] = [
        ("{ \"type\": \"sepia\" }", "rr=0.3588:rg=0.7044:rb=0.1368:gr=0.2990:gg=0.5870:gb=0.1140:br=0.2392:bg=0.4696:bb=0.0912"),
        ("{ \"type\": \"rgb\", \"params\": { \"red\": 1.3, \"green\": 0.8, \"blue\": 0.6 } }", "rr=1.3:gg=0.8:bb=0.6"),
        ("{ \"type\": \"colormatrix\", \"params\": { \"matrix\": [0.9, 0.3, -0.2, 0, -0.4, 1.2, 0.1, 0, 0.2, -0.5, 1.1, 0, 0, 0, 0, 1] } }",
         "rr=0.9:rg=0.3:rb=-0.2:gr=-0.4:gg=1.2:gb=0.1:br=0.2:bg=-0.5:bb=1.1"),
    ]

    /// testsrc2 on YUV through each filter: no converter in the graph, and every byte within 2
    /// of ffmpeg taking the same route through RGB — each pixel with its own chroma sample
    /// (neighbor, full_chroma_int), colorchannelmixer on rgb24, chroma the mean of the pixels
    /// (area), accurate rounding. The 2 is ffmpeg's arithmetic: colorchannelmixer's 8-bit path
    /// rounds each term of its sums to an integer, and rgb24 rounds again. (ffmpeg's
    /// default route resamples chroma bicubically both ways: up to 21 apart from ours next to
    /// chroma edges where a clamp acts, measured on testsrc2 at 1080p.)
    @Test(arguments: ["yuv420p", "yuv422p", "yuv444p"])
    func mixingMapsAreOnePassAsFFmpegsRouteThroughRGB(_ pixfmt: String) throws {
        let dir = CLI.tempDir()
        let (w, h) = (640, 360)
        let input = dir + "/in.yuv"
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(w)x\(h):rate=25", "-frames:v", "5",
                               "-pix_fmt", pixfmt, "-f", "rawvideo", input])
        for (k, c) in Self.cases.enumerated() {
            let ours = dir + "/ours-\(k).yuv", theirs = dir + "/ffmpeg-\(k).yuv"
            let json = """
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "\(input)", "width": \(w), "height": \(h), "format": "\(pixfmt)" } },
                         "f": \(c.node), "out": { "type": "rawsink", "params": { "path": "\(ours)" } } },
              "chains": [["src", "f", "out"]] }
            """
            let g = try FusionTests.run(json)
            #expect(g.nodes.map(\.id) == ["src", "f", "out"], "\(c.node): \(g.nodes.map(\.id))")
            try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", pixfmt, "-s", "\(w)x\(h)", "-i", input,
                                   "-vf", "scale=flags=neighbor+accurate_rnd+full_chroma_int,format=rgb24,colorchannelmixer=\(c.ffmpeg),"
                                   + "scale=flags=area+accurate_rnd+full_chroma_inp,format=\(pixfmt)", "-f", "rawvideo", theirs])
            let a = FusionTests.bytes(ours), b = FusionTests.bytes(theirs)
            try #require(!a.isEmpty && a.count == b.count, "\(a.count) bytes against ffmpeg's \(b.count)")
            let source = FusionTests.bytes(input)
            #expect(largestDifference(a, source) > 20, "\(c.node) changed nothing")
            let total = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            #expect(largestDifference(a, b) <= 2, "\(c.node) on \(pixfmt): \(largestDifference(a, b)) from ffmpeg's")
            #expect(Double(total) / Double(a.count) < 0.25, "\(c.node) on \(pixfmt): mean \(Double(total) / Double(a.count)) from ffmpeg's")
        }
    }
}
