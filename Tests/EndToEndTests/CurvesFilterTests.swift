import Foundation
import Testing

/// `curves` against ffmpeg's `curves` filter on the same odd-sized rgba frames: the same spline
/// through the same points, rounded as ffmpeg rounds, so the same bytes (alpha kept).
@Suite struct CurvesFilterTests {
    /// Our params (JSON members) and ffmpeg's options for the same curves.
    static let cases: [(ours: String, ffmpeg: String)] = [
        "color_negative", "cross_process", "darker", "increase_contrast", "lighter", "linear_contrast",
        "medium_contrast", "negative", "strong_contrast", "vintage",
    ].map { (#""preset": "\#($0)""#, "preset=\($0)") } + [
        (#""red": "0/0.1 0.3/0.5 0.7/0.6 1/0.9", "master": "0/0 0.25/0.4 1/1""#, "r='0/0.1 0.3/0.5 0.7/0.6 1/0.9':m='0/0 0.25/0.4 1/1'"),
        (#""all": "0.1/0 0.9/1", "green": "0/1 0.5/0 1/1""#, "all='0.1/0 0.9/1':g='0/1 0.5/0 1/1'"),
        (#""preset": "vintage", "blue": "0/0 1/0.5", "master": "0.2/0.3""#, "preset=vintage:b='0/0 1/0.5':m='0.2/0.3'"),
    ]

    static func input() throws -> String {
        let dir = CLI.tempDir()
        // testsrc2 rounds odd sizes down; the scale filter makes the odd size
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=386x290:rate=25", "-frames:v", "2",
                               "-vf", "scale=385:289", "-pix_fmt", "rgba", "-f", "rawvideo", dir + "/in.rgba"])
        return dir
    }

    @Test(arguments: cases)
    func matchesFFmpegCurves(_ c: (ours: String, ffmpeg: String)) throws {
        let dir = try Self.input()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "385x289", "-i", dir + "/in.rgba",
                               "-vf", "curves=" + c.ffmpeg, "-pix_fmt", "rgba", "-f", "rawvideo", dir + "/ffmpeg.rgba"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.rgba", "width": 385, "height": 289, "format": "rgba" } },
                     "c": { "type": "curves", "params": { \(c.ours) } },
                     "out": { "type": "rawsink", "params": { "path": "ours.rgba" } } },
          "chains": [["src", "c", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = [UInt8](FileManager.default.contents(atPath: dir + "/ours.rgba") ?? Data())
        let theirs = [UInt8](FileManager.default.contents(atPath: dir + "/ffmpeg.rgba") ?? Data())
        let original = [UInt8](FileManager.default.contents(atPath: dir + "/in.rgba") ?? Data())
        #expect(ours.count == 2 * 385 * 289 * 4 && ours.count == theirs.count)
        var firstBad: Int?, changed = 0
        for i in 0..<min(ours.count, theirs.count) where firstBad == nil {
            if ours[i] != theirs[i] || (i % 4 == 3 && ours[i] != original[i]) { firstBad = i }
            if ours[i] != original[i] { changed += 1 }
        }
        #expect(firstBad == nil, "\(c.ours): byte \(firstBad ?? 0): ours \(firstBad.map { ours[$0] } ?? 0), ffmpeg \(firstBad.map { theirs[$0] } ?? 0)")
        #expect(changed > ours.count / 20, "\(c.ours): the curves changed only \(changed) bytes")
    }

    @Test(arguments: [
        (#""red": "0/0 0.5""#, "param 'red': point 2 '0.5': expected x/y, two numbers joined by '/'"),
        (#""all": "0/0 1.5/1""#, "param 'all': point 2 (1.5/1.0): x and y must be in 0…1"),
        (#""master": "0/0 0.5/0.5 0.501/0.6 1/1""#, "param 'master': point 2 (0.5/0.5) and point 3 (0.501/0.6) must be in increasing x, at least 1/255 apart"),
        (#""green": "0.6/0 0.2/1""#, "param 'green': point 1 (0.6/0.0) and point 2 (0.2/1.0) must be in increasing x"),
        (#""preset": "sepia""#, "preset"),
    ])
    func badPointsNameTheParamAndPoint(_ c: (params: String, message: String)) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 1, "format": "rgba" } },
                     "c": { "type": "curves", "params": { \(c.params) } }, "out": { "type": "nullsink" } },
          "chains": [["src", "c", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains("'c'") && r.stderr.contains(c.message), "\(r.stderr)")
    }

    /// A Photoshop curves file: (input, output) points per curve, written as the format stores
    /// them (big-endian 16-bit count, then output and input per point).
    static func acv(_ curves: [[(Int, Int)]]) -> Data {
        var bytes: [UInt8] = [0, 1, 0, UInt8(curves.count)]
        for c in curves {
            bytes += [UInt8(c.count >> 8), UInt8(c.count & 255)]
            for (x, y) in c { bytes += [UInt8(y >> 8), UInt8(y & 255), UInt8(x >> 8), UInt8(x & 255)] }
        }
        return Data(bytes)
    }

    /// `psfile` against ffmpeg's: the composite curve as master, then red, green (no points:
    /// unset), blue; a fifth curve ignored; green's own points replace the file's.
    @Test func photoshopCurvesFileMatchesFFmpeg() throws {
        let dir = try Self.input()
        let file = Self.acv([[(0, 0), (64, 80), (255, 255)], [(0, 20), (128, 140), (255, 230)], [],
                             [(0, 0), (255, 200)], [(0, 255), (255, 0)]])
        #expect(FileManager.default.createFile(atPath: dir + "/look.acv", contents: file))
        try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "385x289", "-i", dir + "/in.rgba",
                               "-vf", "curves=psfile=" + dir + "/look.acv:g='0/0 0.5/0.6 1/1'", "-pix_fmt", "rgba", "-f", "rawvideo", dir + "/ffmpeg.rgba"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.rgba", "width": 385, "height": 289, "format": "rgba" } },
                     "c": { "type": "curves", "params": { "psfile": "look.acv", "green": "0/0 0.5/0.6 1/1" } },
                     "out": { "type": "rawsink", "params": { "path": "ours.rgba" } } },
          "chains": [["src", "c", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = FileManager.default.contents(atPath: dir + "/ours.rgba"), theirs = FileManager.default.contents(atPath: dir + "/ffmpeg.rgba")
        let same = ours != nil && ours == theirs
        #expect(same, "psfile: the bytes differ from ffmpeg's curves")
    }

    @Test(arguments: [
        ([UInt8]([0, 1, 0, 4, 0, 2, 0, 0]), "look.acv: byte 8: the file ends where curve 1's point 1 input should be (2 bytes, 0 left)"),
        ([0, 1, 0, 1, 0, 2, 0, 0, 1, 44, 0, 255, 0, 255], "look.acv: byte 6: curve 1 (master), point 1: input 300, output 0; both must be 0…255"),
        ([0, 1, 0, 2, 0, 0, 0, 2, 0, 0, 0, 200, 0, 255, 0, 100], "look.acv: byte 16: curve 2 (red): point 1 (0.784314/0.0) and point 2 (0.392157/1.0) must be in increasing x"),
        ([0, 1], "look.acv: byte 2: the file ends where the number of curves should be"),
    ])
    func badPhotoshopFilesNameTheByte(_ c: (bytes: [UInt8], message: String)) throws {
        let dir = CLI.tempDir()
        #expect(FileManager.default.createFile(atPath: dir + "/look.acv", contents: Data(c.bytes)))
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 1, "format": "rgba" } },
                     "c": { "type": "curves", "params": { "psfile": "look.acv" } }, "out": { "type": "nullsink" } },
          "chains": [["src", "c", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains("param 'psfile'") && r.stderr.contains(c.message), "\(r.stderr)")
    }

    @Test func missingPhotoshopFileNamesThePath() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 1, "format": "rgba" } },
                     "c": { "type": "curves", "params": { "psfile": "missing.acv" } }, "out": { "type": "nullsink" } },
          "chains": [["src", "c", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains("node 'c' (curves): param 'psfile': ") && r.stderr.contains("missing.acv: cannot read the file: No such file or directory"),
                "\(r.stderr)")
    }

    /// Curves fuse with the other per-channel stages into one table per channel: the same bytes
    /// as the stages one after another.
    @Test func fusesWithGammaIntoOneTable() throws {
        let dir = try Self.input()
        func graph(_ fuse: Bool) -> String {
            CLI.writeGraph("""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.rgba", "width": 385, "height": 289, "format": "rgba" } },
                         "a": { "type": "curves", "params": { "preset": "vintage" } }, "g": { "type": "gamma", "params": { "gamma": 1.3 } },
                         "b": { "type": "curves", "params": { "master": "0/0.05 0.5/0.6 1/0.95" } },
                         "out": { "type": "rawsink", "params": { "path": "\(fuse ? "fused" : "staged").rgba" } } },
              "chains": [["src", "a", "g", "b", "out"]], "fuse": \(fuse) }
            """, in: dir, name: fuse ? "fused.json" : "staged.json")
        }
        let fused = graph(true), staged = graph(false)
        let v = try CLI.mediagraph("validate", fused)
        #expect(v.status == 0 && (v.out + v.stderr).contains("fused 'a', 'g', 'b' (curves+gamma+curves) into one pass"), "\(v.out)\(v.stderr)")
        #expect(try CLI.mediagraph("run", "--quiet", fused).status == 0)
        #expect(try CLI.mediagraph("run", "--quiet", staged).status == 0)
        let a = FileManager.default.contents(atPath: dir + "/fused.rgba"), b = FileManager.default.contents(atPath: dir + "/staged.rgba")
        let same = a != nil && a == b
        #expect(same)
    }
}
