import Foundation
import MediaGraphCore
import MediaGraphNodes
import Testing

/// A run of point-wise `shader` nodes becomes one program (Docs/shaders.md, "Point-wise shaders
/// and composition"); a neighbour-sampling shader splits the run, and `validate` says why.
@Suite struct ShaderFusionTests {
    static let head = "varying highp vec2 textureCoordinate; uniform sampler2D inputImageTexture; "
    static let curve = head + "uniform float lift; void main() { vec4 c = texture2D(inputImageTexture, textureCoordinate); gl_FragColor = vec4(sqrt(c.rgb) * (1.0 - lift) + lift, c.a); }"
    static let vignette = head + "void main() { vec4 c = texture2D(inputImageTexture, textureCoordinate); float p = smoothstep(0.2, 0.8, distance(textureCoordinate, vec2(0.5))); gl_FragColor = vec4(mix(c.rgb, vec3(0.2, 0.1, 0.0), p), c.a); }"
    static let swap = head + "void main() { vec4 c = texture2D(inputImageTexture, textureCoordinate); gl_FragColor = vec4(1.0 - c.b, min(c.g, 0.6), c.r, c.a); }"
    static let edge = "varying highp vec2 textureCoordinate; varying highp vec2 leftTextureCoordinate; uniform sampler2D inputImageTexture; void main() { gl_FragColor = texture2D(inputImageTexture, textureCoordinate) - texture2D(inputImageTexture, leftTextureCoordinate) + vec4(0.5); }"

    static func shader(_ source: String, _ uniforms: String = "{}") -> String {
        "{ \"type\": \"shader\", \"params\": { \"source\": \"\(source)\", \"uniforms\": \(uniforms) } }"
    }

    @Test func threePointwiseShadersRunAsOneWithin1LSB() throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input("rgba", in: dir)
        let filters = [Self.shader(Self.curve, "{ \"lift\": 0.1 }"), Self.shader(Self.vignette), Self.shader(Self.swap)]
        let fused = try FusionTests.run(FusionTests.graph(filters, input: input, output: dir + "/fused.raw", pixfmt: "rgba"))
        #expect(fused.nodes.map(\.id).contains("f0+f1+f2"), "\(fused.nodes.map(\.id))")
        try FusionTests.run(FusionTests.graph(filters, input: input, output: dir + "/separate.raw", pixfmt: "rgba", top: "\"fuse\": false,"))
        let a = FusionTests.bytes(dir + "/fused.raw"), b = FusionTests.bytes(dir + "/separate.raw")
        #expect(a.count == 385 * 289 * 4 * 2 && a.count == b.count)
        var worst = 0
        for i in 0..<min(a.count, b.count) { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
        #expect(worst <= 1, "fused and separate differ by \(worst) LSB")
    }

    @Test func aNeighbourSamplingShaderSplitsTheRun() throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input("rgba", in: dir)
        let filters = [Self.shader(Self.curve, "{ \"lift\": 0.1 }"), Self.shader(Self.edge), Self.shader(Self.vignette), Self.shader(Self.swap)]
        let g = CLI.writeGraph(FusionTests.graph(filters, input: input, output: dir + "/out.raw", pixfmt: "rgba"), in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.contains("  f2+f3 (fused: shader+shader) — "), "\(r.out)")
        #expect(r.out.contains("note: fused 'f2', 'f3' (shader: f2.source+f3.source) into one pass 'f2+f3': one shader program; 8-bit roundings between the stages skipped\n"), "\(r.out)")
        #expect(r.out.contains("note: 'f1' not fused with 'f0': f1.source reads a neighbouring pixel (-1, 0), so it is not point-wise\n"), "\(r.out)")
        #expect(!r.out.contains("f0+f1"), "\(r.out)")
    }
}
