import Foundation
import Testing

/// The shipped shaders give the built-in filters' results within 1 LSB, on the same frames.
@Suite struct ShaderGraphTests {
    static let pairs: [(builtin: String, shader: String, uniforms: String)] = [
        ("{ \"type\": \"invert\" }", "invert", "{}"),
        ("{ \"type\": \"grayscale\" }", "grayscale", "{}"),
        ("{ \"type\": \"sepia\", \"params\": { \"intensity\": 0.7 } }", "sepia", "{ \"intensity\": 0.7 }"),
        ("{ \"type\": \"saturation\", \"params\": { \"amount\": 1.5 } }", "saturation", "{ \"saturation\": 1.5 }"),
        ("{ \"type\": \"hue\", \"params\": { \"degrees\": 90 } }", "hue", "{ \"hueAdjust\": 90 }"),
    ]

    @Test(arguments: 0..<pairs.count)
    func shaderMatchesBuiltIn(_ k: Int) throws {
        let (builtin, shader, uniforms) = Self.pairs[k]
        let dir = CLI.tempDir()
        let src = #""src": { "type": "testsrc", "params": { "width": 385, "height": 289, "frames": 4, "format": "rgba" } }"#
        let a = CLI.writeGraph("{ \"nodes\": { \(src), \"f\": \(builtin), \"out\": { \"type\": \"rawsink\", \"params\": { \"path\": \"builtin.raw\" } } }, \"chains\": [[\"src\", \"f\", \"out\"]] }", in: dir, name: "a.json")
        let b = CLI.writeGraph("{ \"nodes\": { \(src), \"f\": { \"type\": \"shader\", \"params\": { \"file\": \"\(CLI.root)/Graphs/shaders/\(shader).glsl\", \"uniforms\": \(uniforms) } }, \"out\": { \"type\": \"rawsink\", \"params\": { \"path\": \"shader.raw\" } } }, \"chains\": [[\"src\", \"f\", \"out\"]] }", in: dir, name: "b.json")
        for g in [a, b] {
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let x = [UInt8](FileManager.default.contents(atPath: dir + "/builtin.raw") ?? Data())
        let y = [UInt8](FileManager.default.contents(atPath: dir + "/shader.raw") ?? Data())
        #expect(x.count == 385 * 289 * 4 * 4 && x.count == y.count)
        var worst = 0
        for i in 0..<min(x.count, y.count) { worst = max(worst, abs(Int(x[i]) - Int(y[i]))) }
        #expect(worst <= 1, "\(shader): shader and built-in differ by up to \(worst) LSB")
    }

    /// Colour-map shaders work in place like the built-in filters; with fan-out the shared input
    /// stays untouched and each branch sees its own result.
    @Test func colourMapShadersRunInPlaceAndRespectFanOut() throws {
        let dir = CLI.tempDir()
        let src = #""src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 20, "format": "rgba" } }"#
        func shader(_ name: String, _ uniforms: String = "{}") -> String {
            "{ \"type\": \"shader\", \"params\": { \"file\": \"\(CLI.root)/Graphs/shaders/\(name).glsl\", \"uniforms\": \(uniforms) } }"
        }
        let chain = CLI.writeGraph("""
        { "nodes": { \(src), "i": \(shader("invert")), "s": \(shader("sepia", "{ \"intensity\": 0.8 }")), "out": { "type": "nullsink" } },
          "chains": [["src", "i", "s", "out"]] }
        """, in: dir, name: "chain.json")
        let r = try CLI.mediagraph("run", "--quiet", "--stats", chain)
        #expect(r.status == 0, "\(r.stderr)")
        // the two point-wise shaders run fused as one pass 'i+s' (ShaderFusion): 20 frames, each once in place
        #expect(r.stderr.contains("i+s") && r.stderr.contains(", 0 frames copied, 20 written in place"), "\(r.stderr)")

        let plain = CLI.writeGraph("{ \"nodes\": { \(src), \"h\": { \"type\": \"framehash\", \"params\": { \"path\": \"plain.txt\" } } }, \"chains\": [[\"src\", \"h\"]] }", in: dir, name: "plain.json")
        let builtin = CLI.writeGraph("{ \"nodes\": { \(src), \"i\": { \"type\": \"invert\" }, \"h\": { \"type\": \"framehash\", \"params\": { \"path\": \"inverted.txt\" } } }, \"chains\": [[\"src\", \"i\", \"h\"]] }", in: dir, name: "builtin.json")
        let fan = CLI.writeGraph("""
        { "nodes": { \(src), "i": \(shader("invert")),
                     "hi": { "type": "framehash", "params": { "path": "fan-inv.txt" } },
                     "hp": { "type": "framehash", "params": { "path": "fan-plain.txt" } } },
          "chains": [["src", "i", "hi"], ["src", "hp"]] }
        """, in: dir, name: "fan.json")
        for g in [plain, builtin, fan] {
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 0, "\(r.stderr)")
        }
        func read(_ n: String) -> String { (try? String(contentsOfFile: dir + "/" + n, encoding: .utf8)) ?? "missing" }
        #expect(read("fan-plain.txt") == read("plain.txt"), "the shared input was modified by the shader branch")
        #expect(read("fan-inv.txt") == read("inverted.txt"), "invert.glsl gives the built-in invert's frames exactly")
    }
}
