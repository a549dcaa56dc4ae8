import Testing
import MediaGraphShader

/// A vertex stage that only computes texture coordinates and factors (as GPUImage's Sharpen and
/// MotionBlur have), evaluated per pixel: its varyings are affine, so exact.
struct VertexStageTests {
    /// A sharpen filter written for these tests in GPUImage's two-stage form.
    static let vertex = """
    attribute vec4 position;
    attribute vec4 inputTextureCoordinate;
    uniform float imageWidthFactor;
    uniform float imageHeightFactor;
    uniform float sharpness;
    varying vec2 textureCoordinate;
    varying vec2 leftCoordinate;
    varying vec2 rightCoordinate;
    varying vec2 aboveCoordinate;
    varying vec2 belowCoordinate;
    varying float centreWeight;
    varying float edgeWeight;
    void main() {
        gl_Position = position;
        vec2 across = vec2(imageWidthFactor, 0.0);
        vec2 down = vec2(0.0, imageHeightFactor);
        textureCoordinate = inputTextureCoordinate.xy;
        leftCoordinate = inputTextureCoordinate.xy - across;
        rightCoordinate = inputTextureCoordinate.xy + across;
        aboveCoordinate = inputTextureCoordinate.xy - down;
        belowCoordinate = inputTextureCoordinate.xy + down;
        centreWeight = 1.0 + 4.0 * sharpness;
        edgeWeight = sharpness;
    }
    """
    static let fragment = """
    precision highp float;
    varying vec2 textureCoordinate;
    varying vec2 leftCoordinate;
    varying vec2 rightCoordinate;
    varying vec2 aboveCoordinate;
    varying vec2 belowCoordinate;
    varying float centreWeight;
    varying float edgeWeight;
    uniform sampler2D inputImageTexture;
    void main() {
        vec4 c = texture2D(inputImageTexture, textureCoordinate);
        vec3 around = texture2D(inputImageTexture, leftCoordinate).rgb + texture2D(inputImageTexture, rightCoordinate).rgb
            + texture2D(inputImageTexture, aboveCoordinate).rgb + texture2D(inputImageTexture, belowCoordinate).rgb;
        gl_FragColor = vec4(c.rgb * centreWeight - around * edgeWeight, c.a);
    }
    """

    func sharpenReference(_ input: TestImage, sharpness s: Double) -> (Int, Int) -> SIMD4<Double> {
        { x, y in
            func at(_ dx: Int, _ dy: Int, _ c: Int) -> Double {
                input.unit(min(max(x + dx, 0), input.width - 1), min(max(y + dy, 0), input.height - 1), c)
            }
            var out = SIMD4<Double>(0, 0, 0, at(0, 0, 3))
            for c in 0..<3 {
                out[c] = at(0, 0, c) * (1 + 4 * s) - (at(-1, 0, c) + at(1, 0, c) + at(0, -1, c) + at(0, 1, c)) * s
            }
            return out
        }
    }

    @Test func sharpenWithASeparateVertexSource() throws {
        let input = TestImage.pattern(width: 71, height: 13)
        let program = try ShaderProgram(source: VertexStageTests.fragment, fileName: "sharpen.fsh",
                                        vertexSource: VertexStageTests.vertex, vertexFileName: "sharpen.vsh")
        #expect(program.uniforms.map(\.name) == ["sharpness"])  // the width factors are provided
        let kernel = ShaderKernel(program: try program.bind(uniforms: ["sharpness": 0.7]))
        let output = TestImage(width: input.width, height: input.height)
        try kernel.run(source: input.planes, destination: output.planes)
        let worst = maxDifference(output, sharpenReference(input, sharpness: 0.7))
        #expect(worst.diff <= 1, "\(worst)")
    }

    @Test func bothStagesInOneFile() throws {
        let input = TestImage.pattern(width: 66, height: 10, seed: 3)
        let source = "#pragma vertex\n" + VertexStageTests.vertex + "\n#pragma fragment\n" + VertexStageTests.fragment
        let output = try runShader(source, on: input, uniforms: ["sharpness": 1.5])
        let worst = maxDifference(output, sharpenReference(input, sharpness: 1.5))
        #expect(worst.diff <= 1, "\(worst)")
    }

    @Test func positionIsClipSpace() throws {
        // position runs -1...1 over the frame, y = -1 at the first row (GPUImage's quad).
        let source = """
        #pragma vertex
        attribute vec4 position;
        varying vec2 place;
        void main() { gl_Position = position; place = position.xy * 0.5 + 0.5; }
        #pragma fragment
        varying highp vec2 place;
        void main() { gl_FragColor = vec4(place, 0.0, 1.0); }
        """
        let input = TestImage(width: 40, height: 6)
        let output = try runShader(source, on: input)
        let worst = maxDifference(output) { x, y in
            SIMD4((Double(x) + 0.5) / 40, (Double(y) + 0.5) / 6, 0, 1)
        }
        #expect(worst.diff <= 1, "\(worst)")
    }

    /// GPUImage's 3x3 sampling vertex stage steps to the upper right with vec2(texelWidth,
    /// -texelHeight): every one of its eight neighbours must be the texel there, read exactly (as
    /// the filter's own neighbour varyings are), not a bilinear sample an ulp off. A Sobel
    /// gradient of a flat image is then exactly zero, as on a GPU; amplified a million times,
    /// any inexact neighbour would show.
    @Test func diagonalNeighboursOfA3x3VertexStageAreExactTexels() throws {
        let vertex = """
        attribute vec4 position;
        attribute vec4 inputTextureCoordinate;
        uniform float texelWidth;
        uniform float texelHeight;
        varying vec2 textureCoordinate;
        varying vec2 topRightTextureCoordinate;
        varying vec2 bottomLeftTextureCoordinate;
        varying vec2 topLeftTextureCoordinate;
        varying vec2 bottomRightTextureCoordinate;
        void main() {
            gl_Position = position;
            vec2 widthHeightStep = vec2(texelWidth, texelHeight);
            vec2 widthNegativeHeightStep = vec2(texelWidth, -texelHeight);
            textureCoordinate = inputTextureCoordinate.xy;
            topRightTextureCoordinate = inputTextureCoordinate.xy + widthNegativeHeightStep;
            bottomLeftTextureCoordinate = inputTextureCoordinate.xy - widthNegativeHeightStep;
            topLeftTextureCoordinate = inputTextureCoordinate.xy - widthHeightStep;
            bottomRightTextureCoordinate = inputTextureCoordinate.xy + widthHeightStep;
        }
        """
        let fragment = """
        varying vec2 textureCoordinate;
        varying vec2 topRightTextureCoordinate;
        varying vec2 bottomLeftTextureCoordinate;
        varying vec2 topLeftTextureCoordinate;
        varying vec2 bottomRightTextureCoordinate;
        uniform sampler2D inputImageTexture;
        void main() {
            float tr = texture2D(inputImageTexture, topRightTextureCoordinate).r;
            float bl = texture2D(inputImageTexture, bottomLeftTextureCoordinate).r;
            float tl = texture2D(inputImageTexture, topLeftTextureCoordinate).r;
            float br = texture2D(inputImageTexture, bottomRightTextureCoordinate).r;
            gl_FragColor = vec4(abs(tr - bl) * 1.0e6, abs(tl - br) * 1.0e6, tr, 1.0);
        }
        """
        let program = try ShaderProgram(source: fragment, fileName: "diag.fsh", vertexSource: vertex, vertexFileName: "3x3.vsh")
        let flat = TestImage(width: 37, height: 9)
        for i in 0..<(flat.stride * flat.height) { flat.data[i] = 200 }
        let kernel = ShaderKernel(program: try program.bind(uniforms: [:]))
        let output = TestImage(width: flat.width, height: flat.height)
        try kernel.run(source: flat.planes, destination: output.planes)
        for y in 0..<flat.height {
            for x in 0..<flat.width {
                #expect(output[x, y, 0] == 0 && output[x, y, 1] == 0, "(\(x), \(y)): \(output[x, y, 0]), \(output[x, y, 1])")
            }
        }
        // On a patterned image the green channel of the top right neighbour is that texel's.
        let input = TestImage.pattern(width: 37, height: 9, seed: 5)
        try kernel.run(source: input.planes, destination: output.planes)
        for y in 0..<input.height {
            for x in 0..<input.width {
                #expect(output[x, y, 2] == input[min(x + 1, input.width - 1), max(y - 1, 0), 0])
            }
        }
    }

    @Test func stageErrorsNameTheirFileAndLine() {
        func firstError(_ fragment: String, _ vertex: String) -> String {
            do {
                _ = try ShaderProgram(source: fragment, fileName: "f.fsh", vertexSource: vertex, vertexFileName: "v.vsh")
                return "compiled"
            } catch {
                return "\(error)".split(separator: "\n").first.map(String.init) ?? ""
            }
        }
        #expect(firstError("void main() { gl_FragColor = vec4(1.0); }", "attribute vec4 colour;\nvoid main() { }")
                == "v.vsh:1:16: error: unknown attribute 'colour': the filter's quad has 'position' and 'inputTextureCoordinate' (inputTextureCoordinate2, ... for further inputs)")
        #expect(firstError("varying vec3 shade;\nvoid main() { gl_FragColor = vec4(shade, 1.0); }", "varying vec2 shade;\nvoid main() { shade = vec2(1.0); }")
                == "f.fsh:1:14: error: varying 'shade' is vec3 here but vec2 in the vertex stage")
        // A varying declared but never read links, as on a GPU; reading one nobody writes does not.
        #expect(firstError("varying vec2 spare;\nvarying vec2 other;\nvoid main() { gl_FragColor = vec4(other, 0.0, 1.0); }",
                           "varying vec2 shade;\nvoid main() { shade = vec2(1.0); }")
                == "f.fsh:3:35: error: unknown varying 'other': the vertex stage does not write it")
        #expect(firstError("varying vec2 spare;\nvoid main() { gl_FragColor = vec4(1.0); }", "varying vec2 shade;\nvoid main() { }") == "compiled")
        #expect(firstError("void main() { gl_FragColor = vec4(1.0); }", "uniform sampler2D t;\nvoid main() { }")
                == "v.vsh:1:19: error: the vertex stage cannot sample textures; sample them in the fragment stage")
    }
}
