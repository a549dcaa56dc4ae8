import Foundation
import Testing

/// `colorkey` and `colorhold` against ffmpeg 5.1's filters of the same names on the same rgba and
/// bgra frames: every byte equal, with a blend and without (all or nothing), for key colours
/// inside and outside the picture's; the keyed alpha laid over another picture by `overlay`
/// shows it through where the key colour was.
@Suite struct ColorKeyTests {
    static let cases: [(node: String, params: String, filter: String)] = [
        ("colorkey", #""color": "0x00FF00", "similarity": 0.3, "blend": 0.1"#, "colorkey=0x00FF00:0.3:0.1"),
        ("colorkey", ##""color": "#3BBD1E", "similarity": 0.25"##, "colorkey=0x3BBD1E:0.25"),
        ("colorkey", #""color": "white", "similarity": 0.2, "blend": 0.5"#, "colorkey=white:0.2:0.5"),
        ("colorkey", "", "colorkey"),
        ("colorhold", #""color": "red", "similarity": 0.4, "blend": 0.2"#, "colorhold=red:0.4:0.2"),
        ("colorhold", ##""color": "#2080F0", "similarity": 0.1"##, "colorhold=0x2080F0:0.1"),
    ]

    @Test(arguments: ["rgba", "bgra"])
    func bytesAreFFmpegs(_ format: String) throws {
        let dir = CLI.tempDir()
        let make = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-frames:v", "4",
                                          "-vf", "scale=157:91", "-pix_fmt", format, "-f", "rawvideo", dir + "/in.raw"])
        #expect(make.status == 0, "\(make.stderr)")
        for (node, params, filter) in Self.cases {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 157, "height": 91, "format": "\(format)" } },
                         "k": { "type": "\(node)", "params": { \(params) } }, "out": { "type": "rawsink", "params": { "path": "ours.raw" } } },
              "chains": [["src", "k", "out"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 0, "\(filter): \(r.stderr)")
            let f = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", format, "-s", "157x91", "-i", dir + "/in.raw",
                                           "-vf", filter, "-f", "rawvideo", dir + "/ffmpeg.raw"])
            #expect(f.status == 0, "\(f.stderr)")
            let problem = FlipTests.difference(dir + "/ours.raw", dir + "/ffmpeg.raw")
            #expect(problem == nil && FileManager.default.contents(atPath: dir + "/ours.raw")?.count == 4 * 157 * 91 * 4,
                    "\(format) \(filter): \(problem ?? "")")
        }
    }

    /// A pure-green square keyed out over a red picture: red shows through the square (and any
    /// pixel as near green), the pattern elsewhere stays as it was.
    @Test func keyedPixelsShowThePictureBelow() throws {
        let dir = CLI.tempDir()
        for (args, file) in [(["-f", "lavfi", "-i", "color=red:size=64x64,format=rgba", "-frames:v", "1"], "red.raw"),
                             (["-f", "lavfi", "-i", "testsrc2=size=64x64,format=rgba,drawbox=16:16:32:32:0x00FF00:t=fill", "-frames:v", "1"], "fg.raw")] {
            let m = try CLI.run("ffmpeg", ["-v", "error"] + args + ["-pix_fmt", "rgba", "-f", "rawvideo", dir + "/" + file])
            #expect(m.status == 0, "\(m.stderr)")
        }
        let g = CLI.writeGraph("""
        { "nodes": { "bg": { "type": "rawsrc", "params": { "path": "red.raw", "width": 64, "height": 64, "format": "rgba" } },
                     "fg": { "type": "rawsrc", "params": { "path": "fg.raw", "width": 64, "height": 64, "format": "rgba" } },
                     "key": { "type": "colorkey", "params": { "color": "#00FF00", "similarity": 0.05 } },
                     "comp": { "type": "overlay" }, "out": { "type": "rawsink", "params": { "path": "out.raw" } } },
          "chains": [["bg", "comp.main"], ["fg", "key", "comp.overlay"], ["comp", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let out = [UInt8](FileManager.default.contents(atPath: dir + "/out.raw") ?? Data())
        let fg = [UInt8](FileManager.default.contents(atPath: dir + "/fg.raw") ?? Data())
        try #require(out.count == 64 * 64 * 4 && fg.count == out.count, "\(out.count) bytes")
        for y in 0..<64 {
            for x in 0..<64 {
                let i = (y * 64 + x) * 4
                // all or nothing: within the similarity (0.05 of the largest distance) the red
                // shows, beyond it the pattern; the square is within
                let d = [0, 255, 0].enumerated().map { Double(Int(fg[i + $0.offset]) - $0.element) }
                let near = ((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / (3 * 255 * 255)).squareRoot() <= 0.05
                let inside = (16..<48).contains(x) && (16..<48).contains(y)
                #expect(!inside || near)
                let expected: [UInt8] = near ? [255, 0, 0] : Array(fg[i..<i + 3])
                #expect(Array(out[i..<i + 3]) == expected, "pixel \(x),\(y): \(Array(out[i..<i + 3])), expected \(expected)")
                if Array(out[i..<i + 3]) != expected { return }
            }
        }
    }
}
