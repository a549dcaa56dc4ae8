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
}
