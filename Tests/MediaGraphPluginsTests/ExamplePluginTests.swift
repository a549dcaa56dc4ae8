import Foundation
import Testing

/// The example plugin (Plugins/ExampleFilters, written with MediaGraphPluginKit), as SwiftPM
/// builds it: `swift build` puts it at .build/<config>/libExampleFilters.so.
@Suite struct ExamplePluginTests {
    func plugin() throws -> String {
        try #require(Tool.examplePlugin, "libExampleFilters.so not built: run `swift build` (or `swift build -c release`) before the tests")
    }

    @Test func posterizeMatchesFormula() throws {
        let so = try plugin()
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h) = (200, 120)
        let input = try Tool.testFrames(dir, width: w, height: h, format: "rgba", frames: 3)
        Tool.write(Tool.chainGraph(input: input, width: w, height: h, format: "rgba",
                                   filters: [("example.posterize", #"{"levels": 5}"#)], output: dir + "/out.rgba"), to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", "--plugin", so, dir + "/g.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let src = Tool.read(input), out = Tool.read(dir + "/out.rgba")
        var expected = src
        for i in 0..<src.count where i % 4 != 3 {
            let q = Int(src[i]) * 5 / 256
            expected[i] = UInt8((q * 255 + 2) / 4)
        }
        let same = out == expected
        #expect(same, "posterize differs from the formula at byte \(zip(out, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
    }

    /// example.invert runs the built-in invert's kernel behind the C interface: ffmpeg's negate
    /// is the independent reference (255 - x on every plane of yuv420p).
    @Test func invertMatchesFFmpegNegate() throws {
        let so = try plugin()
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h) = (176, 144)
        let input = try Tool.testFrames(dir, width: w, height: h, format: "yuv420p", frames: 3)
        // the plugin comes from the graph's own "plugins" list (absolute here), and is named
        // again with --plugin: it is loaded once, not reported as a duplicate of itself
        Tool.write(Tool.chainGraph(input: input, width: w, height: h, format: "yuv420p",
                                   filters: [("example.invert", "{}")], output: dir + "/out.yuv", plugins: [so]), to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", "--plugin", so, dir + "/g.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let f = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(w)x\(h)", "-i", input,
                                        "-vf", "negate", "-f", "rawvideo", dir + "/ref.yuv"])
        #expect(f.status == 0, "\(f.stderr)")
        let same = Tool.read(dir + "/out.yuv") == Tool.read(dir + "/ref.yuv")
        #expect(same)
    }

    @Test func nodesShowThePluginAsOrigin() throws {
        let so = try plugin()
        let r = try Tool.mediagraph(["nodes", "--plugin", so])
        #expect(r.out.contains("example.posterize"), "\(r.out)")
        #expect(r.out.contains("[\(so)]"), "\(r.out)")
        let d = try Tool.mediagraph(["nodes", "example.posterize", "--plugin", so])
        #expect(d.out.contains("example.posterize (filter, \(so))"), "\(d.out)")
        #expect(d.out.contains("levels: integer 2…256, default 4"), "\(d.out)")
        let p = try Tool.mediagraph(["plugins", "--plugin", so])
        #expect(p.out.contains("\(so): example-filters 1.0: example.posterize, example.invert"), "\(p.out)")
        // out-of-range params are refused by validation, before the plugin sees them
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        Tool.write(#"{"nodes": {"s": {"type": "testsrc", "params": {"format": "rgba", "frames": 1}}, "p": {"type": "example.posterize", "params": {"levels": 1}}, "o": {"type": "nullsink"}}, "chains": [["s", "p", "o"]]}"#, to: dir + "/g.json")
        let v = try Tool.mediagraph(["validate", "--plugin", so, dir + "/g.json"])
        #expect(v.status == 2)
        #expect(v.stderr.contains("levels"), "\(v.stderr)")
    }

    /// example.average, a two-input node written with PluginMixer (interface version 2), equals
    /// ffmpeg's blend=all_mode=average ((a + b) / 2 rounded down) on two yuv420p inputs; with
    /// an input of another size, validate shows the inserted scale (the type declares
    /// sameInputSize).
    @Test func averageMatchesFFmpegBlendAverage() throws {
        let so = try plugin()
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h) = (96, 64)
        let a = try Tool.testFrames(dir, width: w, height: h, format: "yuv420p", frames: 3)
        let b = dir + "/b.yuv"
        let g = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "smptebars=s=\(w)x\(h):r=25", "-frames:v", "3",
                                        "-pix_fmt", "yuv420p", "-f", "rawvideo", b])
        #expect(g.status == 0, "\(g.stderr)")
        func src(_ id: String, _ path: String) -> String {
            "\"\(id)\": {\"type\": \"rawsrc\", \"params\": {\"path\": \"\(path)\", \"width\": \(w), \"height\": \(h), \"format\": \"yuv420p\"}}"
        }
        Tool.write("{\"nodes\": {\(src("a", a)), \(src("b", b)), \"m\": {\"type\": \"example.average\"}, \"o\": {\"type\": \"rawsink\", \"params\": {\"path\": \"\(dir)/out.yuv\"}}}, \"chains\": [[\"a\", \"m.in\"], [\"b\", \"m.in1\"], [\"m\", \"o\"]]}", to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", "--plugin", so, dir + "/g.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let f = try Tool.run("ffmpeg", ["-v", "error", "-y",
                                        "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(w)x\(h)", "-r", "25", "-i", a,
                                        "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(w)x\(h)", "-r", "25", "-i", b,
                                        "-filter_complex", "[0][1]blend=all_mode=average", "-f", "rawvideo", dir + "/ref.yuv"])
        #expect(f.status == 0, "\(f.stderr)")
        let out = Tool.read(dir + "/out.yuv"), ref = Tool.read(dir + "/ref.yuv")
        #expect(out.count == w * h * 3 / 2 * 3)
        #expect(out == ref, "example.average differs from ffmpeg's blend average at byte \(Frei0rMixerTests.firstDifference(out, ref))")
        // sameInputSize: an input of another size gets a visible scale
        Tool.write(#"{"nodes": {"a": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 1}}, "b": {"type": "testsrc", "params": {"width": 32, "height": 24, "frames": 1}}, "m": {"type": "example.average"}, "o": {"type": "nullsink"}}, "chains": [["a", "m.in"], ["b", "m.in1"], ["m", "o"]]}"#, to: dir + "/s.json")
        let v = try Tool.mediagraph(["validate", "--plugin", so, dir + "/s.json"])
        #expect(v.status == 0, "\(v.stderr)")
        #expect(v.out.contains("inserted 'auto_scale_m_in1' (scale): yuv420p 32x24 → yuv420p 64x48 before 'm.in1'"), "\(v.out)")
    }
}
