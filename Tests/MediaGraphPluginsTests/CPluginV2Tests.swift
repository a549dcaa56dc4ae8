import Foundation
import Testing

/// Version 2 of the C plugin interface: the example side-by-side plugin (two inputs, an output of
/// another size) against its layout formula, version-1 plugins built against version 1's header,
/// and hostile version-2 declarations refused with messages naming the plugin file.
@Suite struct CPluginV2Tests {
    static let include = Tool.root + "/Sources/CMediaGraphPlugin/include"

    /// Compiles `source` (C text) into `dir/name` with an include directory and flags.
    static func compile(_ source: String, in dir: String, name: String, include: String = CPluginV2Tests.include, flags: [String] = []) throws -> String {
        let src = dir + "/" + name + ".c"
        Tool.write(source, to: src)
        let out = dir + "/" + name + ".so"
        let r = try Tool.run("cc", ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-I", include] + flags + [src, "-o", out, "-lm"])
        #expect(r.status == 0, "cc: \(r.stderr)")
        return out
    }

    /// rgba frames of one of ffmpeg's test sources.
    static func frames(_ dir: String, _ source: String, width: Int, height: Int, rate: Int, frames: Int) throws -> String {
        try Frei0rMixerTests.frames(dir, source, width: width, height: height, rate: rate, frames: frames)
    }

    /// Examples/SideBySidePlugin: output width = left + gap + right, height the taller; each
    /// input at the top of its column, the rest `background` (alpha 255). The right input runs at
    /// 50 fps: output frame k (25 fps) shows its frame 2k. Checked pixel by pixel.
    @Test func sideBySideExampleMatchesItsLayout() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = try String(contentsOfFile: Tool.root + "/Examples/SideBySidePlugin/side_by_side.c", encoding: .utf8)
        let plugin = try Self.compile(text, in: dir, name: "side_by_side")
        let (lw, lh, rw, rh, gap, bg) = (64, 48, 40, 30, 6, 30)
        let left = try Self.frames(dir, "testsrc2", width: lw, height: lh, rate: 25, frames: 3)
        let right = try Self.frames(dir, "testsrc", width: rw, height: rh, rate: 50, frames: 6)
        Tool.write("""
        {"nodes": {"l": {"type": "rawsrc", "params": {"path": "\(left)", "width": \(lw), "height": \(lh), "format": "rgba", "rate": "25"}},
                   "r": {"type": "rawsrc", "params": {"path": "\(right)", "width": \(rw), "height": \(rh), "format": "rgba", "rate": "50"}},
                   "sbs": {"type": "example.sidebyside", "params": {"gap": \(gap), "background": \(bg)}},
                   "o": {"type": "rawsink", "params": {"path": "\(dir)/out.rgba"}}},
         "chains": [["l", "sbs.left"], ["r", "sbs.right"], ["sbs", "o"]]}
        """, to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", "--plugin", plugin, dir + "/g.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let out = Tool.read(dir + "/out.rgba"), l = Tool.read(left), rt = Tool.read(right)
        let ow = lw + gap + rw, oh = max(lh, rh)
        var expected: [UInt8] = []
        for k in 0..<3 {
            for y in 0..<oh {
                for x in 0..<ow {
                    for c in 0..<4 {
                        if x < lw && y < lh {
                            expected.append(l[((k * lh + y) * lw + x) * 4 + c])
                        } else if x >= lw + gap && y < rh {
                            expected.append(rt[((2 * k * rh + y) * rw + x - lw - gap) * 4 + c])
                        } else {
                            expected.append(c == 3 ? 255 : UInt8(bg))
                        }
                    }
                }
            }
        }
        #expect(out.count == ow * oh * 4 * 3)
        #expect(out == expected, "side by side differs from its layout at byte \(Frei0rMixerTests.firstDifference(out, expected))")
    }

    /// The C test plugin (CPluginSource, unchanged) built against version 1's header: its
    /// descriptor says version 1 and uses version 1's shorter mg_node_desc; it loads and its
    /// output still equals src + amount.
    @Test func versionOnePluginBuiltAgainstTheOldHeaderRuns() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let v1 = dir + "/v1include"
        try FileManager.default.createDirectory(atPath: v1, withIntermediateDirectories: true)
        Tool.write(PluginHeaderV1.text, to: v1 + "/mediagraph_plugin.h")
        #expect(PluginHeaderV1.text.contains("#define MG_PLUGIN_ABI_VERSION 1u"))
        let plugin = try Self.compile(CPluginSource.text, in: dir, name: "ctest_v1", include: v1)
        let (w, h) = (64, 48)
        let input = try Tool.testFrames(dir, width: w, height: h, format: "gray", frames: 2)
        Tool.write(Tool.chainGraph(input: input, width: w, height: h, format: "gray",
                                   filters: [("ctest.offset", #"{"amount": 17}"#), ("ctest.failat", #"{"frame": 100}"#)],
                                   output: dir + "/out.gray"), to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", "--plugin", plugin, dir + "/g.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let src = Tool.read(input), out = Tool.read(dir + "/out.gray")
        #expect(out == src.map { UInt8(min(255, Int($0) + 17)) })
        let list = try Tool.mediagraph(["nodes", "ctest.offset", "--plugin", plugin])
        #expect(list.out.contains("amount: integer -255…255, default 10"), "\(list.out)")
    }

    /// Runs `validate` with the hostile plugin built with `flags` on a graph that uses it with
    /// two 64x48 rgba inputs (or, with `graph: false`, one that does not use it).
    func hostile(_ flags: [String], graph: Bool = true) throws -> (plugin: String, result: Tool.Result) {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plugin = try Self.compile(HostileV2PluginSource.text, in: dir, name: "hostile", flags: flags)
        let use = graph ? #"{"nodes": {"a": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 1}}, "h": {"type": "hostile.node"}, "o": {"type": "nullsink"}}, "chains": [["a", "h.in"], ["a", "h.in1"], ["h", "o"]]}"#
                        : #"{"nodes": {"a": {"type": "testsrc", "params": {"frames": 1}}, "o": {"type": "nullsink"}}, "chains": [["a", "o"]]}"#
        Tool.write(use, to: dir + "/g.json")
        return (plugin, try Tool.mediagraph(["validate", "--plugin", plugin, dir + "/g.json"]))
    }

    @Test func hostileDeclarationsAreRefusedNamingTheFile() throws {
        let cases: [(flags: [String], message: String)] = [
            (["-DINPUTS=0"], "node type 'hostile.node': field 'input_count' is 0; expected 1…16 video inputs"),
            (["-DINPUTS=1000"], "node type 'hostile.node': field 'input_count' is 1000; expected 1…16 video inputs"),
            (["-DNAN_MIN=1"], "node type 'hostile.node': param 'level': field 'min' is nan; expected a finite number within ±1000000000000000"),
            (["-DBAD_INPUT"], "node type 'hostile.node': input #1 needs an identifier name (letters, digits, '_'), found 'second input'"),
        ]
        for c in cases {
            let (plugin, r) = try hostile(c.flags, graph: false)
            #expect(r.status == 2, "\(c.flags)")
            #expect(r.stderr.contains("plugin \(plugin): \(c.message)"), "\(c.flags): \(r.stderr)")
        }
    }

    @Test func hostileOutputSizesAreRefusedNamingTheFile() throws {
        let cases: [(flags: [String], message: String)] = [
            (["-DOUT_W=0"], "output_format set the output size to 0x48: width 0 is not positive"),
            (["-DOUT_W=2147483648u"], "output_format set the output size to -2147483648x48: width -2147483648 is not positive"),
            (["-DOUT_W=2147483647"], "output_format set the output size to 2147483647x48: width 2147483647 is above the limit of 16384"),
            (["-DOUT_F=99"], "output_format set the pixel format to code 99; expected an mg_pixel_format (0…5)"),
            (["-DOUT_W=16384", "-DOUT_H=16384"], "output_format set the output size to 16384x16384: frame size 16384x16384 has 268435456 pixels, above the limit of 67108864 (2^26)"),
        ]
        for c in cases {
            let (plugin, r) = try hostile(c.flags)
            #expect(r.status == 2, "\(c.flags)")
            #expect(r.stderr.contains("plugin \(plugin), node hostile.node 'h': \(c.message)"), "\(c.flags): \(r.stderr)")
        }
        // the same plugin without flags is valid
        let (_, ok) = try hostile([])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    /// With MG_NODE_SAME_INPUT_SIZE the graph inserts a visible scale in front of an input of
    /// another size; without it each input keeps its size.
    @Test func sameInputSizeFlagInsertsAScale() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        Tool.write(#"{"nodes": {"a": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 2, "format": "rgba"}}, "b": {"type": "testsrc", "params": {"width": 80, "height": 40, "frames": 2, "format": "rgba"}}, "h": {"type": "hostile.node"}, "o": {"type": "nullsink"}}, "chains": [["a", "h.in"], ["b", "h.in1"], ["h", "o"]]}"#, to: dir + "/g.json")
        for same in [true, false] {
            let plugin = try Self.compile(HostileV2PluginSource.text, in: dir, name: same ? "same" : "free", flags: same ? ["-DSAME"] : [])
            let r = try Tool.mediagraph(["run", "--plugin", plugin, dir + "/g.json"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("inserted 'auto_scale_h_in1' (scale): rgba 80x40 → rgba 64x48 before 'h.in1'") == same, "same: \(same): \(r.stderr)")
        }
    }

    /// A version-2 node with one input gets frames one by one (no synchroniser) and may still
    /// change the size: the hostile plugin built valid with OUT_H=24 copies the top 24 rows.
    @Test func oneInputNodeWithAnotherOutputSize() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plugin = try Self.compile(HostileV2PluginSource.text, in: dir, name: "top", flags: ["-DINPUTS=1", "-DOUT_H=24"])
        let (w, h) = (64, 48)
        let input = try Tool.testFrames(dir, width: w, height: h, format: "rgba", frames: 3)
        Tool.write(Tool.chainGraph(input: input, width: w, height: h, format: "rgba", filters: [("hostile.node", "{}")],
                                   output: dir + "/out.rgba"), to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", "--plugin", plugin, dir + "/g.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let src = Tool.read(input), out = Tool.read(dir + "/out.rgba")
        var expected: [UInt8] = []
        let frame = w * h * 4, top = w * 24 * 4
        for k in 0..<3 { expected += src[k * frame..<k * frame + top] }
        #expect(out == expected, "differs at byte \(Frei0rMixerTests.firstDifference(out, expected))")
    }
}
