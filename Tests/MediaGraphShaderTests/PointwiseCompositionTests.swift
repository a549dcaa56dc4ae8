import Testing
import MediaGraphShader

/// Point-wise shaders (each output pixel reads only its own input pixel) composed into one
/// program by inlining, against the same shaders run one after the other.
struct PointwiseCompositionTests {
    /// Not a colour map (sqrt), reads the input exactly.
    static let gammaLike = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    uniform float lift;
    void main() {
        vec4 c = texture2D(inputImageTexture, textureCoordinate);
        gl_FragColor = vec4(sqrt(c.rgb) * (1.0 - lift) + lift, c.a);
    }
    """
    /// Depends on the position (a vignette towards a colour): point-wise all the same.
    static let vignette = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    uniform vec3 tint;
    void main() {
        vec4 c = texture2D(inputImageTexture, textureCoordinate);
        float p = smoothstep(0.2, 0.8, distance(textureCoordinate, vec2(0.5)));
        gl_FragColor = vec4(mix(c.rgb, tint, p), c.a);
    }
    """
    /// Swaps and caps channels, with a discard: a discarded pixel keeps this stage's input.
    static let swapCap = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    void main() {
        vec4 c = texture2D(inputImageTexture, textureCoordinate);
        if (c.g > 0.95) discard;
        gl_FragColor = vec4(1.0 - c.b, min(c.g, 0.6), c.r, c.a * 0.5 + 0.25);
    }
    """
    static let neighbour = """
    varying highp vec2 textureCoordinate;
    varying highp vec2 leftTextureCoordinate;
    uniform sampler2D inputImageTexture;
    void main() {
        gl_FragColor = texture2D(inputImageTexture, textureCoordinate) - texture2D(inputImageTexture, leftTextureCoordinate);
    }
    """
    static let swirl = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    void main() {
        highp vec2 c = textureCoordinate - 0.5;
        highp float t = 2.0 * (0.5 - length(c));
        gl_FragColor = texture2D(inputImageTexture, mat2(cos(t), -sin(t), sin(t), cos(t)) * c + 0.5);
    }
    """

    static func bound(_ source: String, _ name: String, _ uniforms: [String: ShaderUniformValue] = [:]) throws -> BoundShaderProgram {
        try ShaderProgram(source: source, fileName: name).bind(uniforms: uniforms)
    }

    /// The stages run one after the other, each writing bytes.
    static func separately(_ stages: [BoundShaderProgram], _ input: TestImage, threads: Int) throws -> TestImage {
        var current = input
        for s in stages {
            let out = TestImage(width: input.width, height: input.height)
            try ShaderKernel(program: s).run(source: current.planes, destination: out.planes, threads: threads)
            current = out
        }
        return current
    }

    static func largestDifference(_ a: TestImage, _ b: TestImage) -> (diff: Int, x: Int, y: Int, c: Int) {
        var worst = (diff: 0, x: 0, y: 0, c: 0)
        for y in 0..<a.height {
            for x in 0..<a.width {
                for c in 0..<4 {
                    let d = abs(Int(a[x, y, c]) - Int(b[x, y, c]))
                    if d > worst.diff { worst = (d, x, y, c) }
                }
            }
        }
        return worst
    }

    @Test func threeUserShadersComposedMatchThemRunSeparately() throws {
        let stages = [try Self.bound(Self.gammaLike, "gamma.glsl", ["lift": 0.1]),
                      try Self.bound(Self.vignette, "vignette.glsl", ["tint": [0.2, 0.1, 0.0]]),
                      try Self.bound(Self.swapCap, "swap.glsl")]
        for s in stages { #expect(s.isPointwise, "\(s.name): \(s.pointwiseRefusal ?? "")") }
        let composed = try BoundShaderProgram.composing(stages)
        #expect(composed.name == "gamma.glsl+vignette.glsl+swap.glsl")
        #expect(composed.isPointwise)
        #expect(composed.colorMap == nil)
        // Odd sizes, so tiles end mid-row; both one and two bands.
        for (width, height) in [(385, 289), (64, 3)] {
            let input = TestImage.pattern(width: width, height: height, seed: 7)
            for threads in [1, 2] {
                let expected = try Self.separately(stages, input, threads: threads)
                let output = TestImage(width: width, height: height)
                try ShaderKernel(program: composed).run(source: input.planes, destination: output.planes, threads: threads)
                let worst = Self.largestDifference(output, expected)
                #expect(worst.diff <= 1, "\(width)x\(height), \(threads) threads: \(worst)")
            }
        }
    }

    @Test func composedColourMapsStayAColourMap() throws {
        let invert = "varying highp vec2 textureCoordinate; uniform sampler2D inputImageTexture; void main() { vec4 c = texture2D(inputImageTexture, textureCoordinate); gl_FragColor = vec4(1.0 - c.rgb, c.a); }"
        let gray = "varying highp vec2 textureCoordinate; uniform sampler2D inputImageTexture; void main() { vec4 c = texture2D(inputImageTexture, textureCoordinate); gl_FragColor = vec4(vec3(dot(c.rgb, vec3(0.2125, 0.7154, 0.0721))), c.a); }"
        let stages = [try Self.bound(invert, "invert.glsl"), try Self.bound(gray, "gray.glsl")]
        let composed = try BoundShaderProgram.composing(stages)
        // 1 - rgb, then its luminance: one 4x4 matrix, run by the colour-matrix kernel.
        #expect(composed.colorMap != nil)
        let input = TestImage.pattern(width: 385, height: 289, seed: 3)
        let expected = try Self.separately(stages, input, threads: 2)
        let output = TestImage(width: 385, height: 289)
        try ShaderKernel(program: composed).run(source: input.planes, destination: output.planes, threads: 2)
        let worst = Self.largestDifference(output, expected)
        #expect(worst.diff <= 1, "\(worst)")
    }

    @Test func neighbourAndComputedCoordinateSamplingIsNotPointwise() throws {
        let n = try Self.bound(Self.neighbour, "edge.glsl")
        #expect(!n.isPointwise)
        #expect(n.pointwiseRefusal == "edge.glsl reads a neighbouring pixel (-1, 0)")
        let s = try Self.bound(Self.swirl, "swirl.glsl")
        #expect(s.pointwiseRefusal == "swirl.glsl samples its input at a computed coordinate")
        let v = try Self.bound(Self.vignette, "vignette.glsl", ["tint": [0, 0, 0]])
        #expect(v.isPointwise)
        // A neighbour-sampling shader in the middle: no composition, and the error says which.
        let g = try Self.bound(Self.gammaLike, "gamma.glsl", ["lift": 0])
        #expect(throws: ShaderCompositionError.self) { try BoundShaderProgram.composing([g, n, v]) }
        do {
            _ = try BoundShaderProgram.composing([g, n, v])
        } catch {
            #expect("\(error)" == "cannot compose gamma.glsl + edge.glsl + vignette.glsl: edge.glsl reads a neighbouring pixel (-1, 0), so it is not point-wise")
        }
    }

    @Test func twoInputShaderIsNotPointwise() throws {
        let blend = "varying highp vec2 textureCoordinate; uniform sampler2D inputImageTexture; uniform sampler2D inputImageTexture2; void main() { gl_FragColor = texture2D(inputImageTexture, textureCoordinate) * texture2D(inputImageTexture2, textureCoordinate); }"
        let b = try Self.bound(blend, "blend.glsl")
        #expect(b.pointwiseRefusal == "blend.glsl reads 2 input textures")
    }

    @Test func liveUniformsOfComposedStagesAreRenamedApart() throws {
        let fade = "varying highp vec2 textureCoordinate; uniform sampler2D inputImageTexture; uniform float amount; void main() { vec4 c = texture2D(inputImageTexture, textureCoordinate); gl_FragColor = vec4(c.rgb * amount, c.a); }"
        let a = try ShaderProgram(source: fade, fileName: "a.glsl").bind(uniforms: ["amount": 1], live: ["amount"])
        let b = try ShaderProgram(source: fade, fileName: "b.glsl").bind(uniforms: ["amount": 1], live: ["amount"])
        let composed = try BoundShaderProgram.composing([a, b])
        #expect(Set(composed.liveUniforms.keys) == ["amount", "amount#2"])
        let kernel = ShaderKernel(program: composed)
        try kernel.setUniform("amount", 0.5)
        try kernel.setUniform("amount#2", 0.5)
        let input = TestImage.pattern(width: 65, height: 9)
        let output = TestImage(width: 65, height: 9)
        try kernel.run(source: input.planes, destination: output.planes, threads: 1)
        // c * 0.5 * 0.5, rounded once.
        let worst = maxDifference(output) { x, y in
            SIMD4(input.unit(x, y, 0) * 0.25, input.unit(x, y, 1) * 0.25, input.unit(x, y, 2) * 0.25, input.unit(x, y, 3))
        }
        #expect(worst.diff <= 1, "\(worst)")
    }
}

/// A point-wise shader that is not a colour map runs in place through the general kernel, with
/// the same bytes as into a separate frame.
struct PointwiseInPlaceTests {
    @Test func pointwiseShaderRunsInPlaceWithTheSameBytes() throws {
        let bound = try PointwiseCompositionTests.bound(PointwiseCompositionTests.vignette, "vignette.glsl", ["tint": [0.2, 0.1, 0.0]])
        #expect(bound.colorMap == nil)
        let kernel = ShaderKernel(program: bound)
        #expect(kernel.runsInPlace)
        let input = TestImage.pattern(width: 385, height: 289, seed: 5)
        let separate = TestImage(width: 385, height: 289)
        try kernel.run(source: input.planes, destination: separate.planes, threads: 2)
        try kernel.run(source: input.planes, destination: input.planes, threads: 2)
        #expect(PointwiseCompositionTests.largestDifference(input, separate).diff == 0)
        // A neighbour-sampling shader still refuses one buffer for both.
        let edge = ShaderKernel(program: try PointwiseCompositionTests.bound(PointwiseCompositionTests.neighbour, "edge.glsl"))
        #expect(!edge.runsInPlace)
        #expect(throws: ShaderRunError.self) { try edge.run(source: input.planes, destination: input.planes, threads: 1) }
    }
}
