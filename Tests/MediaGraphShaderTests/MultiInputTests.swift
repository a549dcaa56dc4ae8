import Testing
import MediaGraphCore
import MediaGraphShader

/// Shaders of two and more input textures (GPUImage's two-input filters, gl-transitions), run on
/// frames of the same or different sizes, against the formulas.
struct MultiInputTests {
    static func constant(width: Int, height: Int, _ rgba: (UInt8, UInt8, UInt8, UInt8)) -> TestImage {
        let image = TestImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let p = image.data + y * image.stride + x * 4
                p[0] = rgba.0; p[1] = rgba.1; p[2] = rgba.2; p[3] = rgba.3
            }
        }
        return image
    }

    func run(_ source: String, _ inputs: [TestImage], uniforms: [String: ShaderUniformValue] = [:]) throws -> TestImage {
        let program = try ShaderProgram(source: source, fileName: "two.glsl")
        let kernel = ShaderKernel(program: try program.bind(uniforms: uniforms))
        let output = TestImage(width: inputs[0].width, height: inputs[0].height)
        try kernel.run(sources: inputs.map(\.planes), destination: output.planes)
        return output
    }

    /// Alpha blending of the second input over the first, written as GPUImage's two-input
    /// filters are (textureCoordinate2, inputImageTexture2).
    static let alphaBlend = """
    varying highp vec2 textureCoordinate;
    varying highp vec2 textureCoordinate2;
    uniform sampler2D inputImageTexture;
    uniform sampler2D inputImageTexture2;
    uniform lowp float mixturePercent;
    void main() {
        lowp vec4 base = texture2D(inputImageTexture, textureCoordinate);
        lowp vec4 over = texture2D(inputImageTexture2, textureCoordinate2);
        gl_FragColor = vec4(mix(base.rgb, over.rgb, over.a * mixturePercent), base.a);
    }
    """

    @Test func alphaBlendOnPatterns() throws {
        let base = TestImage.pattern(width: 77, height: 11, seed: 5)
        let over = TestImage.pattern(width: 77, height: 11, seed: 9)
        let output = try run(MultiInputTests.alphaBlend, [base, over], uniforms: ["mixturePercent": 0.8])
        let worst = maxDifference(output) { x, y in
            let t = over.unit(x, y, 3) * 0.8
            var out = SIMD4<Double>(0, 0, 0, base.unit(x, y, 3))
            for c in 0..<3 { out[c] = base.unit(x, y, c) * (1 - t) + over.unit(x, y, c) * t }
            return out
        }
        #expect(worst.diff <= 1, "\(worst)")
    }

    @Test func multiplyBlendOnConstantFramesOfDifferentSizes() throws {
        let source = """
        varying highp vec2 textureCoordinate;
        uniform sampler2D inputImageTexture;
        uniform sampler2D inputImageTexture2;
        void main() {
            vec4 base = texture2D(inputImageTexture, textureCoordinate);
            vec4 over = texture2D(inputImageTexture2, textureCoordinate);
            gl_FragColor = over * base + over * (1.0 - base.a) + base * (1.0 - over.a);
        }
        """
        let base = MultiInputTests.constant(width: 70, height: 9, (200, 100, 50, 255))
        let over = MultiInputTests.constant(width: 3, height: 2, (128, 255, 0, 128))
        let output = try run(source, [base, over])
        let b = SIMD4<Double>(200, 100, 50, 255) / 255, o = SIMD4<Double>(128, 255, 0, 128) / 255
        let expected = o * b + o * (1 - b[3]) + b * (1 - o[3])
        let worst = maxDifference(output) { _, _ in expected }
        #expect(worst.diff <= 1, "\(worst)")
    }

    @Test func aSmallerSecondInputIsSampledWithItsOwnSize() throws {
        // A 2x1 second input, 0 then 255: sampled bilinearly at u, it is clamp(2u - 0.5, 0, 1).
        let source = """
        varying highp vec2 textureCoordinate;
        varying highp vec2 textureCoordinate2;
        uniform sampler2D inputImageTexture;
        uniform sampler2D inputImageTexture2;
        void main() { gl_FragColor = vec4(texture2D(inputImageTexture2, textureCoordinate2).rgb, 1.0); }
        """
        let base = TestImage.pattern(width: 90, height: 4)
        let ramp = TestImage(width: 2, height: 1)
        for c in 0..<4 { ramp.data[4 + c] = 255 }
        let output = try run(source, [base, ramp])
        let worst = maxDifference(output) { x, _ in
            let u = (Double(x) + 0.5) / 90
            let v = min(max(2 * u - 0.5, 0), 1)
            return SIMD4(v, v, v, 1)
        }
        #expect(worst.diff <= 1, "\(worst)")
    }

    @Test func threeInputsMask() throws {
        // The third input chooses between the first two (a mask), GPUImage's naming throughout.
        let source = """
        varying highp vec2 textureCoordinate;
        uniform sampler2D inputImageTexture;
        uniform sampler2D inputImageTexture2;
        uniform sampler2D inputImageTexture3;
        void main() {
            vec4 m = texture2D(inputImageTexture3, textureCoordinate);
            gl_FragColor = mix(texture2D(inputImageTexture, textureCoordinate), texture2D(inputImageTexture2, textureCoordinate), m.r);
        }
        """
        let a = TestImage.pattern(width: 65, height: 7, seed: 2), b = TestImage.pattern(width: 65, height: 7, seed: 4)
        let mask = TestImage.pattern(width: 65, height: 7, seed: 6)
        let program = try ShaderProgram(source: source)
        #expect(program.textureNames == ["inputImageTexture", "inputImageTexture2", "inputImageTexture3"])
        let output = try run(source, [a, b, mask])
        let worst = maxDifference(output) { x, y in
            let t = mask.unit(x, y, 0)
            return SIMD4((0..<4).map { a.unit(x, y, $0) * (1 - t) + b.unit(x, y, $0) * t })
        }
        #expect(worst.diff <= 1, "\(worst)")
    }

    @Test func wrongNumberOfFramesIsAnError() throws {
        let program = try ShaderProgram(source: MultiInputTests.alphaBlend, fileName: "blend.glsl")
        let kernel = ShaderKernel(program: try program.bind(uniforms: ["mixturePercent": 1]))
        let a = TestImage(width: 8, height: 8), out = TestImage(width: 8, height: 8)
        #expect(throws: ShaderRunError.self) { try kernel.run(source: a.planes, destination: out.planes) }
        do {
            try kernel.run(sources: [a.planes], destination: out.planes)
            Issue.record("ran with one frame")
        } catch {
            #expect("\(error)" == "shader blend.glsl reads 2 input textures ('inputImageTexture', 'inputImageTexture2'), given 1 frames")
        }
    }

    @Test func tooManyInputsIsACompileError() {
        let source = "uniform sampler2D inputImageTexture9;\nvoid main() { gl_FragColor = vec4(1.0); }"
        do {
            _ = try ShaderProgram(source: source, fileName: "nine.glsl")
            Issue.record("compiled")
        } catch {
            #expect("\(error)".hasPrefix("nine.glsl:1:19: error: texture 'inputImageTexture9' would be input 9: a shader reads at most 8 input textures"))
        }
    }

    // MARK: gl-transitions

    /// Runs a transition between two frames at `progress`.
    func transition(_ source: String, from: TestImage, to: TestImage, progress: Double) throws -> TestImage {
        let program = try ShaderProgram(transition: source, fileName: "t.glsl")
        let kernel = ShaderKernel(program: try program.bind(uniforms: ["progress": .number(progress)]))
        let output = TestImage(width: from.width, height: from.height)
        try kernel.run(sources: [from.planes, to.planes], destination: output.planes)
        return output
    }

    @Test(arguments: [0.0, 0.5, 1.0])
    func fadeTransition(progress: Double) throws {
        let source = "vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }"
        let from = TestImage.pattern(width: 64, height: 6, seed: 7), to = TestImage.pattern(width: 64, height: 6, seed: 8)
        let output = try transition(source, from: from, to: to, progress: progress)
        let worst = maxDifference(output) { x, y in
            SIMD4((0..<4).map { from.unit(x, y, $0) * (1 - progress) + to.unit(x, y, $0) * progress })
        }
        #expect(worst.diff <= 1, "\(worst)")
    }

    @Test(arguments: [0.0, 0.5, 1.0])
    func wipeUpTransition(progress: Double) throws {
        // uv as in gl-transitions: (0, 0) is the bottom left, so a wipe up shows the next clip
        // below the line 1 - progress of the way down the frame.
        let source = """
        uniform float smoothness; // = 0.0
        vec4 transition(vec2 uv) {
            return mix(getFromColor(uv), getToColor(uv), step(uv.y, progress));
        }
        """
        let from = MultiInputTests.constant(width: 40, height: 10, (255, 0, 0, 255))
        let to = MultiInputTests.constant(width: 40, height: 10, (0, 0, 255, 255))
        let output = try transition(source, from: from, to: to, progress: progress)
        let worst = maxDifference(output) { _, y in
            let uvY = 1 - (Double(y) + 0.5) / 10
            return uvY <= progress ? SIMD4(0, 0, 1, 1) : SIMD4(1, 0, 0, 1)
        }
        #expect(worst.diff == 0, "\(worst)")
    }

    @Test func transitionRatioIsTheFrameAspect() throws {
        let source = "vec4 transition(vec2 uv) { return vec4(ratio / 4.0, 0.0, 0.0, 1.0); }"
        let a = TestImage(width: 30, height: 10)
        let output = try transition(source, from: a, to: a, progress: 0)
        #expect(output[5, 5, 0] == UInt8(referenceByte(3.0 / 4)))
    }

    @Test func transitionWithALumaMapAndGlobalsOfProgress() throws {
        // The transition's own sampler is input 3; a global may use progress. Black in the map
        // switches first.
        let source = """
        uniform sampler2D luma;
        float edge = progress;
        vec4 transition(vec2 uv) {
            return mix(getFromColor(uv), getToColor(uv), step(texture2D(luma, uv).r, edge));
        }
        """
        let program = try ShaderProgram(transition: source, fileName: "luma.glsl")
        #expect(program.textureNames == ["inputImageTexture", "inputImageTexture2", "luma"])
        let from = MultiInputTests.constant(width: 50, height: 4, (255, 0, 0, 255))
        let to = MultiInputTests.constant(width: 50, height: 4, (0, 255, 0, 255))
        let map = TestImage.pattern(width: 50, height: 4)  // red channel: x * 255 / 49
        let kernel = ShaderKernel(program: try program.bind(uniforms: ["progress": 0.5]))
        let output = TestImage(width: 50, height: 4)
        try kernel.run(sources: [from.planes, to.planes, map.planes], destination: output.planes)
        let worst = maxDifference(output) { x, y in
            // uv.y is flipped for the transition and back for the lookup: the map's own pixel.
            map.unit(x, y, 0) <= 0.5 ? SIMD4(0, 1, 0, 1) : SIMD4(1, 0, 0, 1)
        }
        #expect(worst.diff == 0, "\(worst)")
        // Errors keep the transition's own line numbers.
        do {
            _ = try ShaderProgram(transition: "vec4 transition(vec2 uv) {\n    return getFromColor(uv).rgb;\n}", fileName: "bad.glsl")
            Issue.record("compiled")
        } catch {
            #expect("\(error)".hasPrefix("bad.glsl:2:28: error: function 'transition' returns vec4, but this returns vec3\n    return getFromColor(uv).rgb;"), "\(error)")
        }
    }
}
