import Foundation
import Testing
import MediaGraphShader

/// Runs a shader body on a 1x1 frame and returns gl_FragColor as the kernel computed it, before
/// the byte conversion is hidden: the body writes `gl_FragColor`, and the result is read back as
/// bytes, so tests scale their values into 0...1.
private func pixel(_ body: String, uniforms: [String: ShaderUniformValue] = [:], declarations: String = "",
                   input: SIMD4<UInt8> = SIMD4(10, 20, 30, 40)) throws -> SIMD4<Int> {
    let source = """
    precision highp float;
    varying vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    \(declarations)
    void main() {
    \(body)
    }
    """
    let image = TestImage(width: 1, height: 1)
    for c in 0..<4 { image.data[c] = input[c] }
    let out = try runShader(source, on: image, uniforms: uniforms)
    return SIMD4(Int(out[0, 0, 0]), Int(out[0, 0, 1]), Int(out[0, 0, 2]), Int(out[0, 0, 3]))
}

/// Evaluates a float expression per pixel on a 64x1 frame, where `x` is a value from `values`
/// (read from the red channel through a uniform array); returns the results decoded from four
/// bytes (a float's bit pattern would not survive clamping, so it is encoded in 0...1 steps).
/// Simpler and exact: compare `expr` with the reference inside the shader and output 1 or 0.
private func check(_ expr: String, equals reference: Float, tolerance: Float, declarations: String = "") throws -> Bool {
    let body = """
        float v = \(expr);
        float r = \(reference.glsl);
        bool ok = abs(v - r) <= \(tolerance.glsl) * max(1.0, abs(r)) || (v == r);
        gl_FragColor = vec4(ok ? 1.0 : 0.0, 0.0, 0.0, 1.0);
    """
    return try pixel(body, declarations: declarations).x == 255
}

extension Float {
    /// A GLSL float literal that reads back as exactly this value.
    var glsl: String {
        if self.isInfinite { return self > 0 ? "(1.0/0.0)" : "(-1.0/0.0)" }
        let s = "\(self)"
        return s.contains(".") || s.contains("e") ? s : s + ".0"
    }
}

struct BuiltinTests {
    /// Each built-in on edge values against Swift's own math (Foundation, in Double, rounded to Float).
    static let unaryCases: [(String, @Sendable (Double) -> Double, [Float])] = [
        ("sin", sin, [0, 1e-6, 0.5, -1, Float.pi / 2, 3.14159, 100]),
        ("cos", cos, [0, 1e-6, 0.5, -1, Float.pi, 3.14159, 100]),
        ("tan", tan, [0, 0.5, -1, 1.5]),
        ("asin", asin, [0, 0.5, -1, 1, -0.999]),
        ("acos", acos, [0, 0.5, -1, 1, 0.999]),
        ("atan", atan, [0, 0.5, -1, 1000, -1e6]),
        ("exp", exp, [0, 1, -1, 10, -20]),
        ("log", log, [1, 2.718282, 0.001, 1e6]),
        ("exp2", exp2, [0, 1, -1, 10, 0.5]),
        ("log2", log2, [1, 2, 0.25, 1024, 3]),
        ("sqrt", sqrt, [0, 1, 2, 1e-8, 1e8]),
        ("inversesqrt", { 1 / sqrt($0) }, [1, 4, 2, 1e-8, 1e8]),
        ("abs", abs, [0, -0.5, 3, -1e10]),
        ("sign", { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) }, [0, -0.5, 3, -1e-10]),
        ("floor", { $0.rounded(.down) }, [0, -0.5, 1.5, -2, 2.999, -1e-7]),
        ("ceil", { $0.rounded(.up) }, [0, -0.5, 1.5, -2, 2.001]),
        ("fract", { $0 - $0.rounded(.down) }, [0, -0.25, 1.5, -2, 2.75]),
        ("radians", { $0 * Double.pi / 180 }, [0, 90, -180, 360]),
        ("degrees", { $0 * 180 / Double.pi }, [0, 1, -3.14159]),
        ("length", abs, [-2, 0, 3]),
        ("normalize", { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) }, [-2, 3]),
    ]

    @Test(arguments: unaryCases.indices)
    func unaryBuiltin(_ i: Int) throws {
        let (name, f, values) = BuiltinTests.unaryCases[i]
        for x in values {
            let expected = Float(f(Double(x)))
            #expect(try check("\(name)(\(x.glsl))", equals: expected, tolerance: 2e-6), "\(name)(\(x)) != \(expected)")
            // Also through a uniform so the per-pixel kernel (not the constant folder) computes it.
            let body = """
                float v = \(name)(u * textureCoordinate.x * 2.0);
                gl_FragColor = vec4(abs(v - \(expected.glsl)) <= 2e-6 * max(1.0, abs(\(expected.glsl))) ? 1.0 : 0.0, 0.0, 0.0, 1.0);
            """
            #expect(try pixel(body, uniforms: ["u": .number(Double(x))], declarations: "uniform float u;").x == 255,
                    "per-pixel \(name)(\(x)) != \(expected)")
        }
    }

    static let binaryCases: [(String, @Sendable (Double, Double) -> Double, [(Float, Float)])] = [
        ("pow", pow, [(2, 10), (0.5, 0.5), (10, -2), (1, 100), (3, 0)]),
        ("atan", atan2, [(1, 1), (1, -1), (-1, -1), (0, 1), (1, 0), (-0.5, 2)]),
        ("mod", { $0 - $1 * ($0 / $1).rounded(.down) }, [(5.5, 2), (-5.5, 2), (5.5, -2), (3, 3), (0.7, 0.25)]),
        ("min", min, [(1, 2), (-1, -2), (0, 0)]),
        ("max", max, [(1, 2), (-1, -2), (0, 0)]),
        ("step", { $1 < $0 ? 0 : 1 }, [(0.5, 0.4), (0.5, 0.5), (0.5, 0.6)]),
        ("distance", { abs($0 - $1) }, [(1, 4), (-2, 2)]),
        ("dot", { $0 * $1 }, [(3, 4), (-2, 0.5)]),
    ]

    @Test(arguments: binaryCases.indices)
    func binaryBuiltin(_ i: Int) throws {
        let (name, f, values) = BuiltinTests.binaryCases[i]
        for (x, y) in values {
            let expected = Float(f(Double(x), Double(y)))
            #expect(try check("\(name)(\(x.glsl), \(y.glsl))", equals: expected, tolerance: 2e-6), "\(name)(\(x), \(y)) != \(expected)")
            let body = """
                float v = \(name)(a * (textureCoordinate.x * 2.0), b * (textureCoordinate.y * 2.0));
                gl_FragColor = vec4(abs(v - \(expected.glsl)) <= 2e-6 * max(1.0, abs(\(expected.glsl))) ? 1.0 : 0.0, 0.0, 0.0, 1.0);
            """
            #expect(try pixel(body, uniforms: ["a": .number(Double(x)), "b": .number(Double(y))],
                              declarations: "uniform float a; uniform float b;").x == 255, "per-pixel \(name)(\(x), \(y)) != \(expected)")
        }
    }

    @Test func ternaryAndVectorBuiltins() throws {
        // clamp, mix, smoothstep with the GLSL formulas, computed here in Double.
        func smooth(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
            let t = min(max((x - e0) / (e1 - e0), 0), 1)
            return t * t * (3 - 2 * t)
        }
        let cases: [(String, Double)] = [
            ("clamp(1.5, 0.0, 1.0)", 1), ("clamp(-0.5, 0.0, 1.0)", 0), ("clamp(0.25, 0.0, 1.0)", 0.25),
            ("clamp(vec2(2.0, -1.0), 0.0, 1.0).x", 1), ("clamp(vec2(2.0, -1.0), vec2(0.0), vec2(0.5)).y", 0),
            ("mix(2.0, 4.0, 0.25)", 2.5), ("mix(vec3(0.0), vec3(1.0, 2.0, 3.0), vec3(0.5)).z", 1.5),
            ("mix(vec2(1.0), vec2(3.0), 0.5).y", 2),
            ("smoothstep(0.0, 1.0, 0.3)", smooth(0, 1, 0.3)), ("smoothstep(0.2, 0.4, 0.1)", 0),
            ("smoothstep(0.2, 0.4, 0.5)", 1), ("smoothstep(0.0, 2.0, vec2(0.5)).y", smooth(0, 2, 0.5)),
            ("length(vec2(3.0, 4.0))", 5), ("length(vec3(1.0, 2.0, 2.0))", 3), ("length(vec4(1.0))", 2),
            ("distance(vec2(1.0, 1.0), vec2(4.0, 5.0))", 5), ("dot(vec3(1.0, 2.0, 3.0), vec3(4.0, -5.0, 6.0))", 12),
            ("cross(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0)).z", 1),
            ("cross(vec3(1.0, 2.0, 3.0), vec3(4.0, 5.0, 6.0)).x", 2 * 6 - 3 * 5),
            ("cross(vec3(1.0, 2.0, 3.0), vec3(4.0, 5.0, 6.0)).y", 3 * 4 - 1 * 6),
            ("normalize(vec2(3.0, 4.0)).y", 0.8), ("normalize(vec3(0.0, 0.0, -2.0)).z", -1),
            ("reflect(vec2(1.0, -1.0), vec2(0.0, 1.0)).y", 1), ("reflect(vec2(1.0, -1.0), vec2(0.0, 1.0)).x", 1),
            ("refract(vec2(0.0, -1.0), vec2(0.0, 1.0), 0.5).y", -1),
            ("refract(normalize(vec2(1.0, -1.0)), vec2(0.0, 1.0), 0.9).x", 0.9 * (1 / 2.0.squareRoot())),
            ("refract(normalize(vec2(1.0, -0.1)), vec2(0.0, 1.0), 1.5).x", 0),  // total internal reflection
            ("faceforward(vec2(0.0, 1.0), vec2(0.0, -1.0), vec2(0.0, 1.0)).y", 1),
            ("faceforward(vec2(0.0, 1.0), vec2(0.0, 1.0), vec2(0.0, 1.0)).y", -1),
            ("matrixCompMult(mat2(1.0, 2.0, 3.0, 4.0), mat2(2.0))[1][1]", 8),
            ("matrixCompMult(mat2(1.0, 2.0, 3.0, 4.0), mat2(2.0))[0][1]", 0),
            ("abs(vec3(-1.0, 2.0, -3.0)).z", 3), ("sign(vec2(-4.0, 0.0)).x", -1),
            ("mod(vec2(5.5), 2.0).x", 1.5), ("min(vec2(1.0, 5.0), 3.0).y", 3), ("max(vec2(1.0, 5.0), vec2(3.0)).x", 3),
            ("step(0.5, vec2(0.4, 0.6)).y", 1), ("pow(vec2(2.0), vec2(3.0, 0.5)).y", 2.0.squareRoot()),
            ("atan(vec2(1.0), vec2(-1.0)).x", atan2(1, -1)),
            ("float(all(lessThan(vec2(1.0, 2.0), vec2(2.0, 3.0))))", 1),
            ("float(any(greaterThan(vec3(1.0, 2.0, 3.0), vec3(2.0))))", 1),
            ("float(all(greaterThanEqual(ivec2(1, 2), ivec2(1, 3))))", 0),
            ("float(all(lessThanEqual(vec2(1.0, 2.0), vec2(1.0, 2.0))))", 1),
            ("float(all(equal(bvec2(true, false), bvec2(true, false))))", 1),
            ("float(any(notEqual(ivec3(1, 2, 3), ivec3(1, 2, 3))))", 0),
            ("float(not(bvec2(true, false)).y)", 1),
        ]
        for (expr, expected) in cases {
            #expect(try check(expr, equals: Float(expected), tolerance: 2e-6), "\(expr) != \(expected)")
        }
    }
}

struct LanguageTests {
    @Test func swizzleWrites() throws {
        let out = try pixel("""
            vec4 c = vec4(0.0);
            c.zx = vec2(0.25, 0.5);          // x = 0.5, z = 0.25
            c.g = 1.0;
            c.a = c.r + c.b;                 // 0.75
            vec3 t = c.bgr;                  // (0.25, 1, 0.5)
            t.yz = t.zy;                     // (0.25, 0.5, 1)
            c.rgb = t;
            c.stp.x = 0.0 + c.s;             // unchanged
            gl_FragColor = c;
        """)
        #expect(out == SIMD4(64, 128, 255, 191))
    }

    @Test func matrixProductsAreColumnMajor() throws {
        // mat2(a, b, c, d) has columns (a, b) and (c, d): m * v = (a*x + c*y, b*x + d*y).
        let out = try pixel("""
            mat2 m = mat2(0.1, 0.2, 0.3, 0.4);
            vec2 v = vec2(1.0, 0.5);
            vec2 mv = m * v;                 // (0.1 + 0.15, 0.2 + 0.2) = (0.25, 0.4)
            vec2 vm = v * m;                 // (dot(v, col0), dot(v, col1)) = (0.2, 0.5)
            mat2 mm = m * mat2(1.0, 1.0, 0.0, 2.0);   // column 0: m*(1,1) = (0.4, 0.6)
            gl_FragColor = vec4(mv.x, vm.y, mm[0][1], m[1].x);    // (0.25, 0.5, 0.6, 0.3)
        """)
        // 0.3 * 255 is exactly 76.5 in Float, and output rounding is to nearest even, as GPUs do.
        #expect(out == SIMD4(64, 128, 153, 76))
        let three = try pixel("""
            mat3 m = mat3(1.0, 0.0, 0.0,  0.0, 0.0, 1.0,  0.0, 1.0, 0.0);   // swaps y and z
            vec3 v = m * vec3(0.1, 0.2, 0.8);
            mat4 s = mat4(0.5);                                            // diagonal
            mat4 t = mat4(m);                                              // m, then identity
            gl_FragColor = vec4(v.y, v.z, (s * vec4(1.0)).w, t[3][3] * 0.25);
        """)
        #expect(three == SIMD4(204, 51, 128, 64))
    }

    @Test func intDivisionAndConversions() throws {
        let out = try pixel("""
            int a = 7 / 2;           // 3
            int b = -7 / 2;          // -3 (toward zero)
            int c = int(2.9);        // 2
            int d = int(-2.9);       // -2
            float e = float(a) / 4.0;              // 0.75
            bool f = bool(0.5);                    // true
            ivec2 g = ivec2(vec2(3.7, -1.2));      // (3, -1)
            gl_FragColor = vec4(e, float(b + d + 5) / 2.0, f ? float(c) / 4.0 : 0.0, float(g.x + g.y) / 4.0);
        """)
        #expect(out == SIMD4(191, 0, 128, 128))
        let perPixel = try pixel("""
            int n = int(u);                        // u = -7.5 -> -7
            int q = n / 2;                         // -3
            gl_FragColor = vec4(float(-q) / 4.0, float(n * 2 + 16) / 4.0, 0.0, 1.0);
        """, uniforms: ["u": -7.5], declarations: "uniform float u;")
        #expect(perPixel == SIMD4(191, 128, 0, 255))
    }

    @Test func loopsBreakContinue() throws {
        let out = try pixel("""
            float sum = 0.0;
            for (int i = 0; i < 10; i++) {
                if (i == 2) continue;
                if (i == 6) break;
                sum += float(i);       // 0 + 1 + 3 + 4 + 5 = 13
            }
            float nested = 0.0;
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 4; j += 2) { nested += 1.0; }
            }
            float down = 0.0;
            for (float x = 1.0; x > 0.0; x -= 0.25) { down += x; }   // 1 + .75 + .5 + .25 = 2.5
            gl_FragColor = vec4(sum / 26.0, nested / 12.0, down / 5.0, 1.0);
        """)
        #expect(out == SIMD4(128, 128, 128, 255))
        // A per-pixel break: lanes leave the loop at different iterations.
        let image = TestImage(width: 8, height: 1)
        for x in 0..<8 { image.data[x * 4] = UInt8(x * 10) }
        let result = try runShader("""
            varying vec2 textureCoordinate;
            uniform sampler2D inputImageTexture;
            void main() {
                float v = texture2D(inputImageTexture, textureCoordinate).r * 255.0;
                float count = 0.0;
                for (int i = 0; i < 100; i++) {
                    if (float(i) * 10.0 >= v) break;
                    count += 1.0;
                }
                gl_FragColor = vec4(count / 255.0, 0.0, 0.0, 1.0);
            }
            """, on: image)
        for x in 0..<8 { #expect(result[x, 0, 0] == UInt8(x), "x = \(x)") }
    }

    @Test func discardKeepsTheInputPixel() throws {
        let image = TestImage.pattern(width: 16, height: 4)
        let result = try runShader("""
            varying vec2 textureCoordinate;
            uniform sampler2D inputImageTexture;
            void main() {
                if (textureCoordinate.x < 0.5) discard;
                gl_FragColor = vec4(1.0, 0.0, 0.5, 1.0);
            }
            """, on: image)
        for y in 0..<4 {
            for x in 0..<16 {
                for c in 0..<4 {
                    let expected = x < 8 ? image[x, y, c] : [255, 0, 128, 255][c]
                    #expect(result[x, y, c] == UInt8(expected), "(\(x), \(y)) channel \(c)")
                }
            }
        }
    }

    @Test func functionsOutParametersAndEarlyReturn() throws {
        let out = try pixel("""
            gl_FragColor = vec4(halve(0.5), clampTo(2.0), 0.0, 1.0);
            float r; split(0.75, r);
            gl_FragColor.b = r;
            gl_FragColor.a = twice(0.25) + twice(-1.0);
        """, declarations: """
            float halve(float x) { return x * 0.5; }
            float clampTo(float x) { if (x > 1.0) { return 0.5; } return x; }
            void split(in float x, out float y) { y = x / 3.0; }
            float twice(float x);
            float twice(float x) { if (x < 0.0) return 0.0; return 2.0 * x; }
        """)
        #expect(out == SIMD4(64, 128, 64, 128))
    }

    @Test func preprocessorConstantsAndComments() throws {
        let out = try pixel("""
            /* block comment
               over lines */
            gl_FragColor = vec4(HALF, QUARTER * 2.0, K[1] / 2.0, 1.0); // comment
        """, declarations: """
            #define HALF 0.5
            #define QUARTER (HALF / 2.0)
            #ifdef GL_ES
            precision mediump float;
            #endif
            #ifndef HALF
            this is skipped
            #endif
            const vec2 K = vec2(0.0, 1.0);
        """)
        #expect(out == SIMD4(128, 128, 128, 255))
    }

    @Test func uniformsOfManyTypes() throws {
        let out = try pixel("""
            gl_FragColor = vec4((m * v).x, float(n) / 8.0, flag ? w[2] : 0.0, iv.y == 3 ? 1.0 : 0.0);
        """, uniforms: ["m": [[0.5, 0.0], [0.0, 1.0]], "v": [0.5, 2.0], "n": 2, "flag": true,
                        "w": [0.1, 0.2, 0.5], "iv": [1, 3]],
           declarations: "uniform mat2 m; uniform vec2 v; uniform int n; uniform bool flag; uniform float w[3]; uniform ivec2 iv;")
        #expect(out == SIMD4(64, 64, 128, 255))
        // Flat column-major matrix is the same matrix.
        let flat = try pixel("gl_FragColor = vec4((m * vec2(1.0, 0.0)).y, (m * vec2(0.0, 1.0)).x, 0.0, 1.0);",
                             uniforms: ["m": [0.1, 0.2, 0.3, 0.4]], declarations: "uniform mat2 m;")
        #expect(flat == SIMD4(51, 76, 0, 255))  // 0.3 * 255 = 76.5 in Float: ties to even
    }

    @Test func providedUniformsAndNeighbours() throws {
        let image = TestImage.pattern(width: 10, height: 6)
        let result = try runShader("""
            varying vec2 textureCoordinate;
            varying vec2 topLeftTextureCoordinate;
            uniform sampler2D inputImageTexture;
            uniform float texelWidth;
            uniform float texelHeight;
            uniform vec2 imageSize;
            void main() {
                vec4 n = texture2D(inputImageTexture, topLeftTextureCoordinate);
                vec4 m = texture2D(inputImageTexture, textureCoordinate + vec2(-texelWidth, -texelHeight));
                gl_FragColor = vec4(n.r, m.g, imageSize.x / 40.0, imageSize.y * texelHeight / 4.0);
            }
            """, on: image)
        for y in 0..<6 {
            for x in 0..<10 {
                let sx = max(x - 1, 0), sy = max(y - 1, 0)
                #expect(result[x, y, 0] == image[sx, sy, 0])
                #expect(result[x, y, 1] == image[sx, sy, 1])
                #expect(result[x, y, 2] == 64 && result[x, y, 3] == 64)
            }
        }
    }

    /// Bands take the rows in chunks (several per band, at odd heights): any thread count gives
    /// the bytes of one thread, for a shader at computed coordinates and one sampling neighbours.
    @Test(arguments: [2, 3, 5])
    func threadCountsGiveTheSameResult(_ threads: Int) throws {
        let image = TestImage.pattern(width: 97, height: 301)
        let shaders: [(String, [String: ShaderUniformValue])] = [
            ("swirl", ["center": [0.5, 0.5], "radius": 0.5, "angle": 2.0]),
            ("sobel", ["edgeStrength": 1.5]),
        ]
        for (name, uniforms) in shaders {
            let source = try ShippedShaderTests.load(name)
            let one = try runShader(source, on: image, uniforms: uniforms, threads: 1)
            let many = try runShader(source, on: image, uniforms: uniforms, threads: threads)
            var differing = 0
            for i in 0..<(image.stride * image.height) where i % image.stride < image.width * 4 && one.data[i] != many.data[i] {
                differing += 1
            }
            #expect(differing == 0, "\(name) on \(threads) threads: \(differing) bytes differ from one thread")
        }
    }

    @Test func samplingFarOutsideAndNaNIsSafe() throws {
        let out = try pixel("""
            vec4 a = texture2D(inputImageTexture, vec2(1e30, -1e30));
            vec4 b = texture2D(inputImageTexture, vec2(0.0 / 0.0, 0.5));
            gl_FragColor = vec4(a.r, b.g, (0.0 / 0.0), 1.0 / 0.0);
        """)
        #expect(out == SIMD4(10, 20, 0, 255))
    }
}

struct IssueExampleTests {
    /// The swirl written in the issue (mat2 built from cos/sin, column-major) against its formula:
    /// columns (cos t, -sin t) and (sin t, cos t), so m * c = (cos t cx + sin t cy, -sin t cx + cos t cy).
    @Test func issueSwirlExample() throws {
        let source = """
        varying highp vec2 textureCoordinate;
        uniform sampler2D inputImageTexture;
        uniform highp float radius;
        uniform highp float angle;
        uniform highp vec2 center;
        void main() {
            highp vec2 c = textureCoordinate - center;
            highp float d = length(c);
            if (d < radius) {
                highp float p = (radius - d) / radius;
                highp float t = p * p * angle * 8.0;
                c = mat2(cos(t), -sin(t), sin(t), cos(t)) * c;
            }
            gl_FragColor = texture2D(inputImageTexture, c + center);
        }
        """
        let input = TestImage.pattern(width: 385, height: 289, seed: 7)
        let out = try runShader(source, on: input, uniforms: ["radius": 0.5, "angle": 1.2, "center": [0.5, 0.5]])
        let worst = maxDifference(out) { x, y in
            let (u, v) = Reference_.coordinate(input, x, y)
            var cx = u - 0.5, cy = v - 0.5
            let d = (cx * cx + cy * cy).squareRoot()
            if d < 0.5 {
                let p = (0.5 - d) / 0.5
                let t = p * p * 1.2 * 8
                (cx, cy) = (cos(t) * cx + sin(t) * cy, -sin(t) * cx + cos(t) * cy)
            }
            return Reference_.bilinear(input, cx + 0.5, cy + 0.5)
        }
        #expect(worst.diff <= 1, "\(worst)")
    }
}

struct GPUImageStyleTests {
    /// GPUImage's 3x3 convolution shape: neighbour varyings and a mat3 uniform indexed
    /// [column][row], plus a weights array walked by a loop, against a Double reference.
    @Test func convolutionWithMatrixUniformAndLoop() throws {
        let source = """
        precision highp float;
        uniform sampler2D inputImageTexture;
        uniform mediump mat3 convolutionMatrix;
        uniform float bias[3];
        varying vec2 textureCoordinate;
        varying vec2 leftTextureCoordinate;
        varying vec2 rightTextureCoordinate;
        varying vec2 topTextureCoordinate;
        varying vec2 topLeftTextureCoordinate;
        varying vec2 topRightTextureCoordinate;
        varying vec2 bottomTextureCoordinate;
        varying vec2 bottomLeftTextureCoordinate;
        varying vec2 bottomRightTextureCoordinate;

        void main()
        {
            mediump vec3 bottomColor = texture2D(inputImageTexture, bottomTextureCoordinate).rgb;
            mediump vec3 bottomLeftColor = texture2D(inputImageTexture, bottomLeftTextureCoordinate).rgb;
            mediump vec3 bottomRightColor = texture2D(inputImageTexture, bottomRightTextureCoordinate).rgb;
            mediump vec4 centerColor = texture2D(inputImageTexture, textureCoordinate);
            mediump vec3 leftColor = texture2D(inputImageTexture, leftTextureCoordinate).rgb;
            mediump vec3 rightColor = texture2D(inputImageTexture, rightTextureCoordinate).rgb;
            mediump vec3 topColor = texture2D(inputImageTexture, topTextureCoordinate).rgb;
            mediump vec3 topRightColor = texture2D(inputImageTexture, topRightTextureCoordinate).rgb;
            mediump vec3 topLeftColor = texture2D(inputImageTexture, topLeftTextureCoordinate).rgb;

            mediump vec3 resultColor = topLeftColor * convolutionMatrix[0][0] + topColor * convolutionMatrix[0][1] + topRightColor * convolutionMatrix[0][2];
            resultColor += leftColor * convolutionMatrix[1][0] + centerColor.rgb * convolutionMatrix[1][1] + rightColor * convolutionMatrix[1][2];
            resultColor += bottomLeftColor * convolutionMatrix[2][0] + bottomColor * convolutionMatrix[2][1] + bottomRightColor * convolutionMatrix[2][2];
            for (int i = 0; i < 3; i++) { resultColor[i] += bias[i]; }

            gl_FragColor = vec4(resultColor, centerColor.a);
        }
        """
        let k: [[Double]] = [[-1, 0, 1], [-2, 0.5, 2], [-1, 0, 1.25]]  // columns
        let bias = [0.1, -0.05, 0.2]
        let input = TestImage.pattern(width: 385, height: 289, seed: 3)
        let out = try runShader(source, on: input, uniforms: [
            "convolutionMatrix": .array(k.map { .array($0.map { .number($0) }) }),
            "bias": .array(bias.map { .number($0) }),
        ])
        let worst = maxDifference(out) { x, y in
            var sum = SIMD4<Double>(bias[0], bias[1], bias[2], 0)
            // convolutionMatrix[column][row]: column 0 holds the top row's weights, as GPUImage uses it.
            for (c, dy) in [-1, 0, 1].enumerated() {
                for (r, dx) in [-1, 0, 1].enumerated() { sum += Reference_.pixel(input, x + dx, y + dy) * k[c][r] }
            }
            sum.w = Reference_.pixel(input, x, y).w
            return sum
        }
        #expect(worst.diff <= 1, "\(worst)")
    }
}
