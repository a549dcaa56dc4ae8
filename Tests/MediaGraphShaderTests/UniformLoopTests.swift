import Testing
import MediaGraphShader

/// Loops bounded by uniforms (GPUImage's Kuwahara: `for (j = -radius; j <= 0; ++j)` with
/// `uniform int radius`): unrolled when the values are bound, under the iteration cap.
struct UniformLoopTests {
    /// A Kuwahara filter written for these tests the way GPUImage writes its own: four quadrants
    /// of (radius + 1)^2 texels, the mean of the one with the least variance.
    static let kuwahara = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    uniform int radius;
    uniform highp float texelWidth;
    uniform highp float texelHeight;
    vec3 mean[4];
    vec3 square[4];
    void main() {
        vec2 step = vec2(texelWidth, texelHeight);
        float n = float((radius + 1) * (radius + 1));
        int i; int j;
        for (int q = 0; q < 4; q++) { mean[q] = vec3(0.0); square[q] = vec3(0.0); }
        for (j = -radius; j <= 0; ++j) {
            for (i = -radius; i <= 0; ++i) {
                vec3 c = texture2D(inputImageTexture, textureCoordinate + vec2(i, j) * step).rgb;
                mean[0] += c; square[0] += c * c;
            }
        }
        for (j = -radius; j <= 0; ++j) {
            for (i = 0; i <= radius; ++i) {
                vec3 c = texture2D(inputImageTexture, textureCoordinate + vec2(i, j) * step).rgb;
                mean[1] += c; square[1] += c * c;
            }
        }
        for (j = 0; j <= radius; ++j) {
            for (i = 0; i <= radius; ++i) {
                vec3 c = texture2D(inputImageTexture, textureCoordinate + vec2(i, j) * step).rgb;
                mean[2] += c; square[2] += c * c;
            }
        }
        for (j = 0; j <= radius; ++j) {
            for (i = -radius; i <= 0; ++i) {
                vec3 c = texture2D(inputImageTexture, textureCoordinate + vec2(i, j) * step).rgb;
                mean[3] += c; square[3] += c * c;
            }
        }
        float best = 1e2;
        for (int q = 0; q < 4; q++) {
            vec3 m = mean[q] / n;
            vec3 s = abs(square[q] / n - m * m);
            float sigma = s.r + s.g + s.b;
            if (sigma < best) { best = sigma; gl_FragColor = vec4(m, 1.0); }
        }
    }
    """

    /// A horizontal box mean over 2 * radius + 1 texels.
    static let box = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    uniform float radius;
    uniform highp float texelWidth;
    void main() {
        vec4 sum = vec4(0.0);
        for (float i = -radius; i <= radius; i += 1.0) {
            sum += texture2D(inputImageTexture, textureCoordinate + vec2(i * texelWidth, 0.0));
        }
        gl_FragColor = sum / (2.0 * radius + 1.0);
    }
    """

    /// A step edge: black left of `edge`, a colour right of it (and a horizontal one lower down).
    static func stepEdge(width: Int, height: Int) -> TestImage {
        let image = TestImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let p = image.data + y * image.stride + x * 4
                let bright = x >= width / 2 || y >= height * 3 / 4
                p[0] = bright ? 200 : 10; p[1] = bright ? 150 : 20; p[2] = bright ? 90 : 30; p[3] = 255
            }
        }
        return image
    }

    @Test(arguments: [0, 1, 3])
    func kuwaharaKeepsAStepEdge(radius: Int) throws {
        // On a noise-free step edge some quadrant of every pixel lies on its own side (variance
        // 0), so the filter gives back the input exactly: the formula needs no reference code.
        let input = UniformLoopTests.stepEdge(width: 70, height: 33)
        let output = try runShader(UniformLoopTests.kuwahara, on: input, uniforms: ["radius": .number(Double(radius))])
        let worst = maxDifference(output) { x, y in
            SIMD4(input.unit(x, y, 0), input.unit(x, y, 1), input.unit(x, y, 2), 1)
        }
        #expect(worst.diff == 0, "radius \(radius): \(worst)")
    }

    @Test func boxMeanOverAUniformRadius() throws {
        let input = TestImage.pattern(width: 67, height: 9)
        for radius in [1, 4] {
            let output = try runShader(UniformLoopTests.box, on: input, uniforms: ["radius": .number(Double(radius))])
            let worst = maxDifference(output) { x, y in
                var sum = SIMD4<Double>.zero
                for i in -radius...radius {
                    let sx = min(max(x + i, 0), input.width - 1)  // clamp to edge
                    sum += SIMD4(input.unit(sx, y, 0), input.unit(sx, y, 1), input.unit(sx, y, 2), input.unit(sx, y, 3))
                }
                return sum / Double(2 * radius + 1)
            }
            #expect(worst.diff <= 1, "radius \(radius): \(worst)")
        }
    }

    @Test func theCapNamesTheLoop() throws {
        let program = try ShaderProgram(source: UniformLoopTests.box, fileName: "k.glsl")
        #expect(throws: (any Error).self) { _ = try program.bind(uniforms: ["radius": .number(2000)]) }
        do {
            _ = try program.bind(uniforms: ["radius": .number(2000)])
        } catch {
            let first = "\(error)".split(separator: "\n").first.map(String.init) ?? ""
            #expect(first == "k.glsl:7:5: error: loop bounded by a uniform runs more than \(ShaderLimits.loopIterations) iterations with the uniform values given")
        }
        // The same program binds again with a reasonable value.
        _ = try program.bind(uniforms: ["radius": .number(2)])
    }

    @Test func aBoundFromThePixelIsStillAnError() {
        let source = """
        varying highp vec2 textureCoordinate;
        uniform sampler2D inputImageTexture;
        void main() {
            float s = 0.0;
            for (int i = 0; float(i) < texture2D(inputImageTexture, textureCoordinate).r * 9.0; i++) { s += 0.1; }
            gl_FragColor = vec4(s);
        }
        """
        #expect(throws: ShaderCompileError.self) { _ = try ShaderProgram(source: source) }
    }
}
