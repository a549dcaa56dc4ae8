import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphShader
import Testing

/// Shaders that are an affine map of the pixel's own colour run as a colour matrix; everything
/// else must stay with the general kernel. The results are checked against formulas written here.
struct ColorMapTests {
    static func bound(_ source: String, _ uniforms: [String: ShaderUniformValue] = [:]) throws -> BoundShaderProgram {
        try ShaderProgram(source: source).bind(uniforms: uniforms)
    }

    static func wrap(_ body: String, declarations: String = "") -> String {
        """
        varying highp vec2 textureCoordinate;
        uniform sampler2D inputImageTexture;
        \(declarations)
        void main() {
            lowp vec4 c = texture2D(inputImageTexture, textureCoordinate);
            \(body)
        }
        """
    }

    @Test func shippedColourShadersAreRecognizedAndTheOthersAreNot() throws {
        let uniforms: [String: [String: ShaderUniformValue]] = [
            "sepia": ["intensity": 0.7], "brightness_contrast": ["brightness": 0.1, "contrast": 1.3],
            "saturation": ["saturation": 1.5], "hue": ["hueAdjust": 30], "sharpen": ["sharpness": 0.5],
            "sobel": ["edgeStrength": 1.5], "pixellate": ["fractionalWidthOfPixel": 0.01],
            "swirl": ["center": [0.5, 0.5], "radius": 0.5, "angle": 1.2], "bulge": ["center": [0.5, 0.5], "radius": 0.3, "scale": 0.5],
            "vignette": ["vignetteCenter": [0.5, 0.5], "vignetteColor": [0, 0, 0], "vignetteStart": 0.3, "vignetteEnd": 0.75],
        ]
        for name in ["invert", "grayscale", "sepia", "brightness_contrast", "saturation"] {
            let p = try ShaderProgram(source: ShippedShaderTests.load(name)).bind(uniforms: uniforms[name] ?? [:])
            #expect(p.colorMap != nil, "\(name) is an affine colour map")
        }
        // hue goes through atan/sqrt/cos/sin; the others read other pixels or use the position.
        for name in ["hue", "vignette", "swirl", "bulge", "pixellate", "sharpen", "sobel"] {
            let p = try ShaderProgram(source: ShippedShaderTests.load(name)).bind(uniforms: uniforms[name] ?? [:])
            #expect(p.colorMap == nil, "\(name) is not a colour map")
        }
    }

    @Test func theRecognizedMatrixIsTheFormula() throws {
        let sepia = try Self.bound(try ShippedShaderTests.load("sepia"), ["intensity": 1])
        let rows = try #require(sepia.colorMap).effectiveRows
        let expected: [SIMD4<Double>] = [SIMD4(0.3588, 0.7044, 0.1368, 0), SIMD4(0.2990, 0.5870, 0.1140, 0),
                                         SIMD4(0.2392, 0.4696, 0.0912, 0), SIMD4(0, 0, 0, 1)]
        for (r, e) in zip(rows, expected) {
            let d = r - e
            #expect((0..<4).allSatisfy { abs(d[$0]) < 1e-6 }, "\(r) vs \(e)")
        }
        let brightness = try Self.bound(Self.wrap("gl_FragColor = vec4(c.rgb + b, c.a);", declarations: "uniform float b;"), ["b": 0.25])
        #expect(try #require(brightness.colorMap).effectiveOffset == SIMD4(0.25, 0.25, 0.25, 0))
    }

    @Test func nonLinearOrPositionDependentShadersAreNotColourMaps() throws {
        let bodies = [
            "gl_FragColor = c * c;",                                              // product of colours
            "gl_FragColor = clamp(c * 2.0, 0.0, 1.0) * 0.5;",                      // clamp inside
            "gl_FragColor = clamp(c * 2.0, 0.2, 1.0);",                            // a clamp the store does not make
            "gl_FragColor = vec4(c.rgb * textureCoordinate.x, c.a);",              // position
            "gl_FragColor = texture2D(inputImageTexture, textureCoordinate + vec2(0.01, 0.0));",  // another point
            "if (c.r > 0.5) discard; gl_FragColor = 1.0 - c;",                     // pixel-dependent discard
            "gl_FragColor = vec4(c.rgb / c.a, 1.0);",                              // division by a colour
            "gl_FragColor = vec4(c.rgb * 1000.0, c.a);",                           // beyond the matrix range
        ]
        for body in bodies {
            #expect(try Self.bound(Self.wrap(body)).colorMap == nil, "\(body)")
        }
        // The outermost clamp to 0…1 is what storing bytes does anyway: still a colour map.
        #expect(try Self.bound(Self.wrap("gl_FragColor = clamp(vec4(c.rgb * 1.5 - 0.1, c.a), 0.0, 1.0);")).colorMap != nil)
        #expect(try Self.bound(Self.wrap("gl_FragColor = min(max(1.0 - c, vec4(-2.0)), 3.0);")).colorMap != nil)
        // A branch on a uniform is decided at binding: this one is a colour map.
        let branch = Self.wrap("if (u > 0.5) { gl_FragColor = 1.0 - c; } else { gl_FragColor = c * 0.5; }", declarations: "uniform float u;")
        #expect(try Self.bound(branch, ["u": 1]).colorMap != nil)
    }

    /// The colour-map path and the general tile kernel give the same frames within 1 LSB.
    @Test func bothPathsAgree() throws {
        let input = TestImage.pattern(width: 385, height: 289, seed: 5)
        let cases: [(String, [String: ShaderUniformValue])] = [("invert", [:]), ("sepia", ["intensity": 0.6]),
            ("brightness_contrast", ["brightness": -0.2, "contrast": 2.5]), ("saturation", ["saturation": 1.8]), ("grayscale", [:])]
        for (name, uniforms) in cases {
            let program = try ShaderProgram(source: ShippedShaderTests.load(name)).bind(uniforms: uniforms)
            var outputs: [TestImage] = []
            for colorMaps in [true, false] {
                let output = TestImage(width: input.width, height: input.height)
                try ShaderKernel(program: program, colorMaps: colorMaps).run(source: input.planes, destination: output.planes)
                outputs.append(output)
            }
            let worst = maxDifference(outputs[0]) { x, y in
                SIMD4((0..<4).map { Double(outputs[1][x, y, $0]) / 255 })
            }
            #expect(worst.diff <= 1, "\(name): \(worst.diff) LSB apart")
        }
    }

    /// Results through the colour-map path against the formula, in place of the interpreter:
    /// invert exactly, a mixed matrix with offset and alpha output within 1 LSB.
    @Test func colourMapPathMatchesTheFormula() throws {
        for (w, h) in [(1920, 1080), (385, 289), (1, 1), (3, 2)] {
            let input = TestImage.pattern(width: w, height: h, seed: UInt32(w * 7 + h))
            let inverted = try runShader(Self.wrap("gl_FragColor = vec4(1.0 - c.rgb, c.a);"), on: input)
            let exact = maxDifference(inverted) { x, y in
                SIMD4(1 - input.unit(x, y, 0), 1 - input.unit(x, y, 1), 1 - input.unit(x, y, 2), input.unit(x, y, 3))
            }
            #expect(exact.diff == 0, "invert \(w)x\(h)")

            let body = "gl_FragColor = clamp(vec4(0.5 * c.r + 0.4 * c.b - 0.1, c.g * 1.3 + 0.2 * c.a, (c.b - c.r) / 2.0 + 0.5, 0.8 * c.a + 0.1), 0.0, 1.0);"
            let mixed = try runShader(Self.wrap(body), on: input, threads: 3)
            let worst = maxDifference(mixed) { x, y in
                let r = input.unit(x, y, 0), g = input.unit(x, y, 1), b = input.unit(x, y, 2), a = input.unit(x, y, 3)
                return SIMD4(0.5 * r + 0.4 * b - 0.1, g * 1.3 + 0.2 * a, (b - r) / 2 + 0.5, 0.8 * a + 0.1)
            }
            #expect(worst.diff <= 1, "mixed matrix \(w)x\(h): \(worst.diff) LSB")
        }
    }

    /// A map that ignores its input (one colour; GPUImage's histogram accumulation) is written as
    /// a fill: the same bytes as the general tile kernel, on rows whose start is not aligned, at
    /// odd widths, on one and several threads, rounding halves to even as the kernel does.
    @Test func aConstantColourIsAFillOfTheKernelsBytes() throws {
        let colour = Self.wrap("gl_FragColor = c * 0.0 + vec4(0.25, -0.5, 1.5, 0.5);")
        let program = try Self.bound(colour, [:])
        #expect(program.colorMap != nil)
        for (width, height, threads) in [(385, 289, 0), (3, 5, 1), (67, 9, 2)] {
            let input = TestImage.pattern(width: width, height: height, seed: 7)
            var outputs: [[UInt8]] = []
            for colorMaps in [true, false] {
                // Start one pixel into a padded row, so the fill's first store is not aligned.
                let output = TestImage(width: width + 1, height: height)
                let planes = FramePlanes(format: .rgba, width: width, height: height, data0: output.data + 4, stride0: output.stride)
                try ShaderKernel(program: program, colorMaps: colorMaps).run(source: input.planes, destination: planes, threads: threads)
                outputs.append((0..<height).flatMap { y in (0..<(width + 1) * 4).map { output[$0 / 4, y, $0 % 4] } })
            }
            #expect(outputs[0] == outputs[1], "\(width)x\(height)")
            #expect(Array(outputs[0][4..<8]) == [64, 0, 255, 128], "\(width)x\(height)")
            #expect(Array(outputs[0][0..<4]) == [0, 0, 0, 0], "the pixel before the frame is left alone")
        }
    }
}
