import Foundation
import Testing
import MediaGraphShader
import MediaGraphKernels

/// Every shader in Graphs/shaders over whole frames against a scalar Double reference of the
/// same formula, written here independently: at most 1 LSB.
struct ShippedShaderTests {
    static let shaderDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Graphs/shaders")

    static func load(_ name: String) throws -> String {
        try String(contentsOf: shaderDirectory.appendingPathComponent(name + ".glsl"), encoding: .utf8)
    }

    typealias Reference = (_ image: TestImage, _ x: Int, _ y: Int) -> SIMD4<Double>

    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let uniforms: [String: ShaderUniformValue]
        let reference: @Sendable (TestImage, Int, Int) -> SIMD4<Double>
        var description: String { name }
    }

    static let sizes = [(1920, 1080), (385, 289)]

    static let cases: [Case] = [
        Case(name: "invert", uniforms: [:]) { img, x, y in
            let c = Reference_.pixel(img, x, y)
            return SIMD4(1 - c.x, 1 - c.y, 1 - c.z, c.w)
        },
        Case(name: "grayscale", uniforms: [:]) { img, x, y in
            let c = Reference_.pixel(img, x, y)
            let l = 0.2125 * c.x + 0.7154 * c.y + 0.0721 * c.z
            return SIMD4(l, l, l, c.w)
        },
        Case(name: "sepia", uniforms: ["intensity": 0.8]) { img, x, y in
            let c = Reference_.pixel(img, x, y)
            let r = 0.3588 * c.x + 0.7044 * c.y + 0.1368 * c.z
            let g = 0.2990 * c.x + 0.5870 * c.y + 0.1140 * c.z
            let b = 0.2392 * c.x + 0.4696 * c.y + 0.0912 * c.z
            return SIMD4(r, g, b, c.w) * 0.8 + c * 0.2
        },
        Case(name: "brightness_contrast", uniforms: ["brightness": 0.1, "contrast": 1.4]) { img, x, y in
            let c = Reference_.pixel(img, x, y)
            func f(_ v: Double) -> Double { (v + 0.1 - 0.5) * 1.4 + 0.5 }
            return SIMD4(f(c.x), f(c.y), f(c.z), c.w)
        },
        Case(name: "saturation", uniforms: ["saturation": 1.6]) { img, x, y in
            let c = Reference_.pixel(img, x, y)
            let l = 0.2125 * c.x + 0.7154 * c.y + 0.0721 * c.z
            func f(_ v: Double) -> Double { l * (1 - 1.6) + v * 1.6 }
            return SIMD4(f(c.x), f(c.y), f(c.z), c.w)
        },
        Case(name: "hue", uniforms: ["hueAdjust": 400]) { img, x, y in
            let c = Reference_.pixel(img, x, y)
            let yp = 0.299 * c.x + 0.587 * c.y + 0.114 * c.z
            let i = 0.595716 * c.x - 0.274453 * c.y - 0.321263 * c.z
            let q = 0.211456 * c.x - 0.522591 * c.y + 0.31135 * c.z
            let hue = atan2(q, i) - 40 * Double.pi / 180
            let chroma = (i * i + q * q).squareRoot()
            let i2 = chroma * cos(hue), q2 = chroma * sin(hue)
            return SIMD4(yp + 0.9563 * i2 + 0.6210 * q2, yp - 0.2721 * i2 - 0.6474 * q2, yp - 1.1070 * i2 + 1.7046 * q2, c.w)
        },
        Case(name: "vignette", uniforms: ["vignetteCenter": [0.45, 0.55], "vignetteColor": [0.1, 0.2, 0.3],
                                          "vignetteStart": 0.3, "vignetteEnd": 0.75]) { img, x, y in
            let c = Reference_.pixel(img, x, y)
            let (u, v) = Reference_.coordinate(img, x, y)
            let d = ((u - 0.45) * (u - 0.45) + (v - 0.55) * (v - 0.55)).squareRoot()
            let t = min(max((d - 0.3) / (0.75 - 0.3), 0), 1)
            let p = t * t * (3 - 2 * t)
            let color = SIMD4<Double>(0.1, 0.2, 0.3, c.w)
            var out = c * (1 - p) + color * p
            out.w = c.w
            return out
        },
        Case(name: "swirl", uniforms: ["center": [0.5, 0.45], "radius": 0.4, "angle": 1.2]) { img, x, y in
            var (u, v) = Reference_.coordinate(img, x, y)
            let d = ((u - 0.5) * (u - 0.5) + (v - 0.45) * (v - 0.45)).squareRoot()
            if d < 0.4 {
                let p = (0.4 - d) / 0.4
                let theta = p * p * 1.2 * 8
                let du = u - 0.5, dv = v - 0.45
                u = du * cos(theta) - dv * sin(theta) + 0.5
                v = du * sin(theta) + dv * cos(theta) + 0.45
            }
            return Reference_.bilinear(img, u, v)
        },
        Case(name: "bulge", uniforms: ["center": [0.55, 0.5], "radius": 0.3, "scale": 0.5]) { img, x, y in
            var (u, v) = Reference_.coordinate(img, x, y)
            let aspect = Double(img.height) / Double(img.width)
            let vy = (v - 0.5) * aspect + 0.5
            let d = ((u - 0.55) * (u - 0.55) + (vy - 0.5) * (vy - 0.5)).squareRoot()
            if d < 0.3 {
                var p = 1 - ((0.3 - d) / 0.3) * 0.5
                p *= p
                u = (u - 0.55) * p + 0.55
                v = (v - 0.5) * p + 0.5
            }
            return Reference_.bilinear(img, u, v)
        },
        Case(name: "pixellate", uniforms: ["fractionalWidthOfPixel": 0.0123]) { img, x, y in
            let (u, v) = Reference_.coordinate(img, x, y)
            let du = 0.0123, dv = 0.0123 * Double(img.width) / Double(img.height)
            let su = u - (u - du * (u / du).rounded(.down)) + 0.5 * du
            let sv = v - (v - dv * (v / dv).rounded(.down)) + 0.5 * dv
            return Reference_.bilinear(img, su, sv)
        },
        Case(name: "sharpen", uniforms: ["sharpness": 0.7]) { img, x, y in
            let c = Reference_.pixel(img, x, y)
            let n = Reference_.pixel(img, x - 1, y) + Reference_.pixel(img, x + 1, y)
                  + Reference_.pixel(img, x, y - 1) + Reference_.pixel(img, x, y + 1)
            var out = c * (1 + 4 * 0.7) - n * 0.7
            out.w = c.w
            return out
        },
        Case(name: "sobel", uniforms: ["edgeStrength": 1.5]) { img, x, y in
            func l(_ dx: Int, _ dy: Int) -> Double {
                let c = Reference_.pixel(img, x + dx, y + dy)
                return 0.2125 * c.x + 0.7154 * c.y + 0.0721 * c.z
            }
            // "top" is the row above in memory (y - 1).
            let h = -l(-1, -1) - 2 * l(0, -1) - l(1, -1) + l(-1, 1) + 2 * l(0, 1) + l(1, 1)
            let v = -l(-1, 1) - 2 * l(-1, 0) - l(-1, -1) + l(1, 1) + 2 * l(1, 0) + l(1, -1)
            let m = (h * h + v * v).squareRoot() * 1.5
            return SIMD4(m, m, m, 1)
        },
    ]

    @Test(arguments: cases)
    func matchesReference(_ c: Case) throws {
        let source = try ShippedShaderTests.load(c.name)
        for (w, h) in ShippedShaderTests.sizes {
            let input = TestImage.pattern(width: w, height: h, seed: UInt32(w))
            let output = try runShader(source, on: input, uniforms: c.uniforms, fileName: c.name + ".glsl")
            let worst = maxDifference(output) { x, y in c.reference(input, x, y) }
            #expect(worst.diff <= 1, "\(c.name) \(w)x\(h): \(worst.diff) LSB at (\(worst.x), \(worst.y)) channel \(worst.c)")
        }
    }

    @Test func everyShippedShaderIsTested() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ShippedShaderTests.shaderDirectory.path)
            .filter { $0.hasSuffix(".glsl") }.map { String($0.dropLast(5)) }.sorted()
        #expect(files == (ShippedShaderTests.cases.map(\.name) + ShippedMultiInputShaderTests.names).sorted())
    }
}

/// Texture reads of the Double reference: texel centres and bilinear clamp-to-edge.
enum Reference_ {
    static func pixel(_ img: TestImage, _ x: Int, _ y: Int) -> SIMD4<Double> {
        let cx = min(max(x, 0), img.width - 1), cy = min(max(y, 0), img.height - 1)
        return SIMD4(img.unit(cx, cy, 0), img.unit(cx, cy, 1), img.unit(cx, cy, 2), img.unit(cx, cy, 3))
    }

    static func coordinate(_ img: TestImage, _ x: Int, _ y: Int) -> (Double, Double) {
        ((Double(x) + 0.5) / Double(img.width), (Double(y) + 0.5) / Double(img.height))
    }

    static func bilinear(_ img: TestImage, _ u: Double, _ v: Double) -> SIMD4<Double> {
        let fx = u * Double(img.width) - 0.5, fy = v * Double(img.height) - 0.5
        let x0 = fx.rounded(.down), y0 = fy.rounded(.down)
        let ax = fx - x0, ay = fy - y0
        let ix = Int(x0), iy = Int(y0)
        let top = pixel(img, ix, iy) * (1 - ax) + pixel(img, ix + 1, iy) * ax
        let bottom = pixel(img, ix, iy + 1) * (1 - ax) + pixel(img, ix + 1, iy + 1) * ax
        return top * (1 - ay) + bottom * ay
    }
}

/// The tile loop's AVX2 build (on CPUs that have it) and the baseline build run the same source:
/// they must give the same bytes.
struct TileLoopBuildTests {
    @Test func avx2AndBaselineBuildsGiveTheSameBytes() throws {
        let input = TestImage.pattern(width: 385, height: 289, seed: 11)
        for c in ShippedShaderTests.cases {
            let program = try ShaderProgram(source: ShippedShaderTests.load(c.name)).bind(uniforms: c.uniforms)
            var outputs: [[UInt8]] = []
            for path in [VectorPath.detected, .sse2] {
                let output = TestImage(width: input.width, height: input.height)
                try ShaderKernel(program: program, colorMaps: false, vectorPath: path)
                    .run(source: input.planes, destination: output.planes, threads: 2)
                outputs.append((0..<output.height).flatMap { y in (0..<output.width * 4).map { output[$0 / 4, y, $0 % 4] } })
            }
            #expect(outputs[0] == outputs[1], "\(c.name): \(VectorPath.detected) and sse2 builds differ")
        }
    }

    /// Sampling far outside the frame, at infinities and at NaN clamps alike in both builds.
    @Test func edgeAndNaNSamplingAgree() throws {
        let source = """
        varying highp vec2 textureCoordinate;
        uniform sampler2D inputImageTexture;
        void main() {
            highp vec2 c = textureCoordinate * 3.0 - 1.0;
            highp vec4 inside = texture2D(inputImageTexture, c);
            highp vec4 wild = texture2D(inputImageTexture, vec2(c.x / (c.y - c.y), c.y * 1e30));
            gl_FragColor = mix(inside, wild, 0.5);
        }
        """
        let program = try ShaderProgram(source: source).bind(uniforms: [:])
        let input = TestImage.pattern(width: 97, height: 61, seed: 3)
        var outputs: [[UInt8]] = []
        for path in [VectorPath.detected, .sse2] {
            let output = TestImage(width: input.width, height: input.height)
            try ShaderKernel(program: program, vectorPath: path).run(source: input.planes, destination: output.planes, threads: 1)
            outputs.append((0..<output.height).flatMap { y in (0..<output.width * 4).map { output[$0 / 4, y, $0 % 4] } })
        }
        #expect(outputs[0] == outputs[1])
    }
}
