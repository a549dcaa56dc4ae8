import Foundation
import Testing

/// `pad` against ffmpeg 5.1's `pad` on the same raw frames: the same bytes for given and
/// centered places, ffmpeg's expressions (iw+40, oh*16/9), colours, even and odd sizes, every
/// format it takes; and what it refuses.
@Suite struct PadTests {
    /// (node params, ffmpeg's pad) for an input of `w` x `h`.
    static func cases(_ w: Int, _ h: Int) -> [(params: String, ffmpeg: String)] {
        [(#"{ "width": 100, "height": 60, "x": 10, "y": 6 }"#, "pad=100:60:10:6"),
         (#"{ "width": 100, "height": 60, "x": 7, "y": 5 }"#, "pad=100:60:7:5"),
         (#"{ "width": 101, "height": 61 }"#, "pad=101:61:(ow-iw)/2:(oh-ih)/2"),
         (#"{ "width": \#(w + 2), "height": \#(h + 2) }"#, "pad=\(w + 2):\(h + 2):(ow-iw)/2:(oh-ih)/2"),
         // ffmpeg's expressions: width, height, width again, then x, y, x; truncated to pixels
         (#"{ "width": "iw+40", "height": "ih*2", "x": "(ow-iw)/2", "y": "ih/4" }"#, "pad=iw+40:ih*2:(ow-iw)/2:ih/4"),
         (#"{ "width": "oh*16/9", "height": "ih+21", "x": "(ow-iw)/3", "y": 5 }"#, "pad=oh*16/9:ih+21:(ow-iw)/3:5"),
         (#"{ "width": "iw+1", "height": "ih+11", "x": 0, "y": "oh-ih" }"#, "pad=iw+1:ih+11:0:oh-ih"),
         // a colour: its Y'CbCr in the frame's range (BT.601 here, as ffmpeg's), its bytes and alpha in RGB
         (##"{ "width": 100, "height": 60, "x": 10, "y": 6, "color": "#336699" }"##, "pad=100:60:10:6:#336699"),
         // (in full range ffmpeg centres chroma at 127.5 where JPEG's formula has 128: a colour
         // with chroma can differ by one there, white and grays cannot)
         (#"{ "width": "iw+8", "height": "ih+8", "color": "white@0.5" }"#, "pad=iw+8:ih+8:4:4:white@0.5")]
    }

    @Test(arguments: [("yuv420p", "limited"), ("yuv422p", "limited"), ("yuv444p", "limited"), ("gray", ""), ("yuv420p", "full"),
                      ("rgba", ""), ("bgra", "")])
    func framesAreFFmpegs(_ format: String, _ range: String) throws {
        for (width, height) in [(66, 38), (65, 37)] {
            let dir = CLI.tempDir()
            var nodes = [try FlipTests.rawClip(format: format, width: width, height: height, in: dir)]
            if !range.isEmpty { nodes[0] = nodes[0].replacingOccurrences(of: #""format": "\#(format)""#, with: #""format": "\#(format)", "range": "\#(range)""#) }
            var chains: [String] = []
            for (k, c) in Self.cases(width, height).enumerated() {
                nodes.append(#""p\#(k)": { "type": "pad", "params": \#(c.params) }, "o\#(k)": { "type": "rawsink", "params": { "path": "ours\#(k).raw" } }"#)
                chains.append(#"["src", "p\#(k)", "o\#(k)"]"#)
            }
            let g = CLI.writeGraph(#"{ "nodes": { \#(nodes.joined(separator: ", ")) }, "chains": [\#(chains.joined(separator: ", "))] }"#, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 0, "\(r.stderr)")
            // ffmpeg's black is Y' 0 for full-range YUV, which it calls yuvj
            let ffFormat = range == "full" ? format.replacingOccurrences(of: "yuv", with: "yuvj") : format
            for (k, c) in Self.cases(width, height).enumerated() {
                let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", ffFormat, "-s", "\(width)x\(height)", "-i", dir + "/in.raw",
                                               "-vf", c.ffmpeg, "-f", "rawvideo", dir + "/theirs\(k).raw"])
                #expect(f.status == 0, "\(f.stderr)")
                let problem = FlipTests.difference(dir + "/ours\(k).raw", dir + "/theirs\(k).raw")
                #expect(problem == nil, "\(format) \(range) \(width)x\(height) \(c.ffmpeg): \(problem ?? "")")
            }
        }
    }

    @Test func whatDoesNotFitIsRefused() throws {
        let dir = CLI.tempDir()
        for (params, message) in [(#"{ "width": 40 }"#, "node 'p' (pad): param 'width': expected at least the input's width, 64, found 40"),
                                  (#"{ "width": "iw-1" }"#, "node 'p' (pad): param 'width': expected at least the input's width, 64, found 63"),
                                  (#"{ "width": "iw+", "x": 1 }"#, "node 'p' (pad): param 'width': expected a number, a name or '(', found the end at offset 3 of 'iw+'"),
                                  (#"{ "y": "ih-hh" }"#, "node 'p' (pad): param 'y': unknown name 'hh'"),
                                  (#"{ "width": 80, "x": 20 }"#, "node 'p' (pad): params 'x' and 'width': the picture at 20 (64 wide) reaches past the padded width 80; expected x at most 16, found 20")] {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 1 } }, "p": { "type": "pad", "params": \(params) },
                         "out": { "type": "nullsink" } }, "chains": [["src", "p", "out"]] }
            """, in: dir)
            let r = try CLI.mediagraph("validate", g)
            #expect(r.status == 2 && r.stderr.contains(message), "\(r.stderr)")
        }
    }
}
