import Testing
import MediaGraphShader

/// Broken shaders, each with the exact diagnostic (line:column: error: message) it must produce.
struct DiagnosticTests {
    static let header = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    uniform float radius;
    """  // lines 1-3; the cases start on line 4

    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let source: String
        let expected: [String]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "missing semicolon", source: """
            void main() {
                vec4 c = vec4(1.0)
                gl_FragColor = c;
            }
            """, expected: ["6:5: error: expected ';' after the declaration, found 'gl_FragColor'"]),
        Case(name: "undeclared identifier", source: """
            void main() { gl_FragColor = vec4(colour, 1.0); }
            """, expected: ["4:35: error: use of undeclared identifier 'colour'"]),
        Case(name: "vec3 + vec4", source: """
            void main() { gl_FragColor = vec3(1.0) + vec4(1.0); }
            """, expected: ["4:40: error: type mismatch: cannot apply '+' to vec3 and vec4"]),
        Case(name: "wrong argument count", source: """
            void main() { gl_FragColor = vec4(clamp(radius, 0.0), 0.0, 0.0, 1.0); }
            """, expected: ["4:35: error: wrong number of arguments to 'clamp': expected 3, found 2"]),
        Case(name: "assignment to a uniform", source: """
            void main() { radius = 1.0; gl_FragColor = vec4(radius); }
            """, expected: ["4:15: error: cannot assign to uniform 'radius'"]),
        Case(name: "assignment to a varying", source: """
            void main() { textureCoordinate = vec2(0.0); gl_FragColor = vec4(1.0); }
            """, expected: ["4:15: error: cannot assign to varying 'textureCoordinate': varyings are read-only in a fragment shader"]),
        Case(name: "while loop", source: """
            void main() { while (true) { } gl_FragColor = vec4(1.0); }
            """, expected: ["4:15: error: unsupported feature: 'while' loop; use a for loop with constant bounds"]),
        Case(name: "non-constant loop", source: """
            void main() {
                float s = 0.0;
                for (int i = 0; float(i) < textureCoordinate.x; i++) { s += 1.0; }
                gl_FragColor = vec4(s);
            }
            """, expected: ["6:30: error: loop condition is not a constant expression: loops need bounds that are constants or uniforms and an index the body does not change (GLSL ES 1.00, Appendix A)"]),
        Case(name: "infinite loop", source: """
            void main() {
                float s = 0.0;
                for (int i = 0; i >= 0; i++) { s += 1.0; }
                gl_FragColor = vec4(s);
            }
            """, expected: ["6:5: error: loop does not end within 1024 iterations (infinite loop?)"]),
        Case(name: "loop without condition", source: """
            void main() { for (int i = 0; ; i++) { } gl_FragColor = vec4(1.0); }
            """, expected: ["4:15: error: for loop has no condition: loops need constant bounds (GLSL ES 1.00, Appendix A)"]),
        Case(name: "recursion", source: """
            float f(float x) { return x < 0.0 ? 0.0 : f(x - 1.0); }
            void main() { gl_FragColor = vec4(f(radius)); }
            """, expected: ["4:43: error: recursion is not supported: 'f' calls itself"]),
        Case(name: "mutual recursion", source: """
            float g(float x);
            float f(float x) { return g(x); }
            float g(float x) { return f(x); }
            void main() { gl_FragColor = vec4(f(radius)); }
            """, expected: ["6:27: error: recursion is not supported: 'f' calls 'g' calls 'f'"]),
        Case(name: "no gl_FragColor", source: """
            void main() { vec4 c = vec4(1.0); }
            """, expected: ["4:6: error: shader never writes gl_FragColor"]),
        Case(name: "no main", source: """
            void mainImage() { gl_FragColor = vec4(1.0); }
            """, expected: ["1:1: error: shader has no 'void main()' function"]),
        Case(name: "unknown varying", source: """
            varying vec2 vUv;
            void main() { gl_FragColor = vec4(vUv, 0.0, 1.0); }
            """, expected: ["5:35: error: unknown varying 'vUv': the filter provides only textureCoordinate (textureCoordinate2, ... for further inputs) and the 8 neighbour coordinates (leftTextureCoordinate, topRightTextureCoordinate, ...)"]),
        Case(name: "struct", source: """
            struct Light { float x; };
            void main() { gl_FragColor = vec4(1.0); }
            """, expected: ["4:1: error: unsupported feature: 'struct'"]),
        Case(name: "implicit int to float", source: """
            void main() { float x = 1; gl_FragColor = vec4(x); }
            """, expected: ["4:25: error: cannot initialize 'x' of type float with a value of type int"]),
        Case(name: "unknown function", source: """
            void main() { gl_FragColor = vec4(lerp(0.0, 1.0, 0.5)); }
            """, expected: ["4:35: error: use of undeclared function 'lerp'"]),
        Case(name: "unsupported built-in", source: """
            void main() { gl_FragColor = textureCube(inputImageTexture, vec3(0.0)); }
            """, expected: ["4:30: error: unsupported feature: built-in function 'textureCube'"]),
        Case(name: "swizzle out of range", source: """
            void main() { vec2 v = vec2(1.0); gl_FragColor = vec4(v.z); }
            """, expected: ["4:57: error: swizzle '.z' reads component 'z', but vec2 has only 2 components"]),
        Case(name: "mixed swizzle sets", source: """
            void main() { vec4 v = vec4(1.0); gl_FragColor = v.xgba; }
            """, expected: ["4:52: error: invalid swizzle '.xgba': use up to four of xyzw, rgba or stpq, without mixing the sets"]),
        Case(name: "repeated component in swizzle write", source: """
            void main() { vec4 v = vec4(1.0); v.xx = vec2(0.0); gl_FragColor = v; }
            """, expected: ["4:37: error: cannot assign to swizzle '.xx': it names a component twice"]),
        Case(name: "constructor with too few components", source: """
            void main() { gl_FragColor = vec4(1.0, 2.0); }
            """, expected: ["4:30: error: not enough data for constructor 'vec4': 2 components given, 4 needed"]),
        Case(name: "constructor with too many arguments", source: """
            void main() { gl_FragColor = vec4(vec3(1.0), 1.0, 2.0); }
            """, expected: ["4:30: error: too many arguments to constructor 'vec4': argument 3 is not used"]),
        Case(name: "non-bool condition", source: """
            void main() { if (radius) { } gl_FragColor = vec4(1.0); }
            """, expected: ["4:19: error: 'if' condition must be a bool, found float"]),
        Case(name: "return type mismatch", source: """
            vec3 f() { return vec4(1.0); }
            void main() { gl_FragColor = vec4(f(), 1.0); }
            """, expected: ["4:19: error: function 'f' returns vec3, but this returns vec4"]),
        Case(name: "missing return", source: """
            float f(float x) { x += 1.0; }
            void main() { gl_FragColor = vec4(f(1.0)); }
            """, expected: ["4:7: error: function 'f' does not return a value"]),
        Case(name: "percent operator", source: """
            void main() { int a = 5 % 2; gl_FragColor = vec4(1.0); }
            """, expected: ["4:25: error: unsupported feature: operator '%' is reserved in GLSL ES 1.00; use mod()"]),
        Case(name: "index out of range", source: """
            void main() { vec3 v = vec3(1.0); gl_FragColor = vec4(v[3]); }
            """, expected: ["4:57: error: index 3 is out of range for vec3 (0...2)"]),
        Case(name: "ninth texture", source: """
            uniform sampler2D inputImageTexture9;
            void main() { gl_FragColor = vec4(1.0); }
            """, expected: ["4:19: error: texture 'inputImageTexture9' would be input 9: a shader reads at most 8 input textures"]),
        Case(name: "const without constant initializer", source: """
            void main() { const float k = radius; gl_FragColor = vec4(k); }
            """, expected: ["4:31: error: const variable 'k' needs a constant initializer"]),
        Case(name: "break outside loop", source: """
            void main() { break; gl_FragColor = vec4(1.0); }
            """, expected: ["4:15: error: 'break' outside a loop"]),
        Case(name: "function-like macro", source: """
            #define SQ(x) ((x) * (x))
            void main() { gl_FragColor = vec4(1.0); }
            """, expected: ["4:9: error: unsupported feature: function-like macro 'SQ(...)'; only object-like #define constants are supported"]),
        Case(name: "unterminated comment", source: """
            void main() { gl_FragColor = vec4(1.0); }
            /* never closed
            """, expected: ["5:1: error: unterminated comment: '/*' without '*/'"]),
        Case(name: "invalid character", source: """
            void main() { gl_FragColor = vec4(1.0) @ 2.0; }
            """, expected: ["4:40: error: invalid character '@' in shader source"]),
        Case(name: "redefinition", source: """
            void main() { float a = 1.0; float a = 2.0; gl_FragColor = vec4(a); }
            """, expected: ["4:36: error: redefinition of 'a'"]),
        Case(name: "comparison of vectors with <", source: """
            void main() { bool b = vec2(1.0) < vec2(2.0); gl_FragColor = vec4(1.0); }
            """, expected: ["4:34: error: operator '<' needs two int or two float scalars, found vec2 and vec2; use lessThan() etc. for vectors"]),
        Case(name: "unbalanced braces", source: """
            void main() { gl_FragColor = vec4(1.0);
            """, expected: ["4:40: error: expected '}' to close the block opened at line 4, found end of file"]),
        Case(name: "attribute in fragment shader", source: """
            attribute vec4 position;
            void main() { gl_FragColor = position; }
            """, expected: ["4:1: error: attribute variables exist only in vertex shaders; a fragment shader reads varyings"]),
        Case(name: "matrix times wrong vector", source: """
            void main() { mat3 m = mat3(1.0); gl_FragColor = m * vec4(1.0); }
            """, expected: ["4:52: error: type mismatch: cannot apply '*' to mat3 and vec4"]),
        Case(name: "gl_FragCoord", source: """
            void main() { gl_FragColor = gl_FragCoord; }
            """, expected: ["4:30: error: unsupported feature: 'gl_FragCoord'"]),
        Case(name: "several errors in one run", source: """
            void main() {
                float a = undefinedOne;
                vec2 b = vec3(1.0);
                gl_FragColor = vec4(a) + undefinedTwo;
            }
            """, expected: ["5:15: error: use of undeclared identifier 'undefinedOne'",
                            "6:14: error: cannot initialize 'b' of type vec2 with a value of type vec3",
                            "7:30: error: use of undeclared identifier 'undefinedTwo'"]),
    ]

    @Test(arguments: cases)
    func reportsTheExactDiagnostic(_ c: Case) {
        let source = DiagnosticTests.header + "\n" + c.source
        do {
            _ = try ShaderProgram(source: source, fileName: "broken.glsl")
            Issue.record("\(c.name): compiled without an error")
        } catch let e as ShaderCompileError {
            let got = e.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.severity.rawValue): \($0.message)" }
            #expect(got == c.expected, "\(c.name)")
            // Formatted like a compiler: file:line:column, the line, a caret under the column.
            let lines = e.description.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first?.hasPrefix("broken.glsl:" + (c.expected.first ?? "")) == true)
            if let d = e.diagnostics.first, lines.count >= 3 {
                let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
                if d.location.line <= sourceLines.count {
                    #expect(lines[1] == sourceLines[d.location.line - 1])
                    #expect(lines[2] == String(repeating: " ", count: d.location.column - 1) + "^")
                }
            }
        } catch {
            Issue.record("\(c.name): unexpected error type \(error)")
        }
    }

    @Test func thereAreAtLeastThirtyBrokenShaders() { #expect(DiagnosticTests.cases.count >= 30) }

    @Test func uniformValueErrors() throws {
        let program = try ShaderProgram(source: DiagnosticTests.header + """

            uniform vec2 center;
            uniform mat2 m;
            uniform int count;
            void main() { gl_FragColor = vec4(center, radius, m[0][0] + float(count)); }
            """, fileName: "u.glsl")
        #expect(program.uniforms.map(\.name) == ["radius", "center", "m", "count"])
        func message(_ values: [String: ShaderUniformValue]) -> String {
            do { _ = try program.bind(uniforms: values); return "" } catch { return "\(error)" }
        }
        #expect(message(["nope": 1]) == "u.glsl declares no uniform 'nope' (it declares 'radius', 'center', 'm', 'count')")
        #expect(message(["center": [0.5, 0.5, 0.5]]) == "uniform 'center' (vec2, declared at u.glsl:4): expected an array of 2 numbers, found 3 numbers")
        #expect(message(["radius": [0.5]]) == "uniform 'radius' (float, declared at u.glsl:3): expected a number, found an array [0.5]")
        #expect(message(["count": 1.5]) == "uniform 'count' (int, declared at u.glsl:6): expected an integer, found 1.5, which is not a whole number (ints are exact up to 2^24)")
        #expect(message(["m": [[1, 0], [0]]]) == "uniform 'm' (mat2, declared at u.glsl:5): expected 2 columns of 2 numbers, or 4 numbers column-major, found 2 arrays of 2, 1 numbers")
        #expect(message(["texelWidth": 1]) == "uniform 'texelWidth' is provided by the filter from the frame size and cannot be set")
        #expect(message(["imageHeightFactor": 1]) == "uniform 'imageHeightFactor' is provided by the filter from the frame size and cannot be set")
        // the uniforms the node drives per frame (a transition's progress) are not offered
        #expect(throws: ShaderBindError.self) { _ = try program.bind(uniforms: ["nope": 1, "radius": 0.5], live: ["radius"]) }
        do { _ = try program.bind(uniforms: ["nope": 1, "radius": 0.5], live: ["radius"]) } catch {
            #expect("\(error)" == "u.glsl declares no uniform 'nope' (it declares 'center', 'm', 'count')")
        }
        let bound = try program.bind(uniforms: ["radius": 0.5, "center": [0.5, 0.5], "m": [1, 0, 0, 1]])
        #expect(bound.warnings == ["u.glsl:6:13: warning: uniform 'count' (int) has no value; it is 0"])
    }

    /// Random garbage and truncations of a valid shader: always an error or a program, never a
    /// crash or a hang.
    @Test func neverCrashesOnMangledInput() throws {
        let valid = try ShippedShaderTests.load("sobel") + (try ShippedShaderTests.load("swirl"))
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % 1_000_000)
        }
        let bytes = Array(valid.utf8)
        for _ in 0..<300 {
            var b = bytes
            for _ in 0..<(1 + next() % 6) {
                let i = next() % b.count
                switch next() % 3 {
                case 0: b.remove(at: i)
                case 1: b.insert(Array("{}();.,+*/=<>[]#0123456789abcxyz\"\\".utf8)[next() % 34], at: i)
                default: b = Array(b[..<i])
                }
                if b.isEmpty { break }
            }
            let text = String(decoding: b, as: UTF8.self)
            if let p = try? ShaderProgram(source: text) {
                let image = TestImage.pattern(width: 9, height: 9)
                let out = TestImage(width: 9, height: 9)
                if let bound = try? p.bind(uniforms: [:]) {
                    try ShaderKernel(program: bound).run(source: image.planes, destination: out.planes, threads: 1)
                }
            }
        }
    }
}

/// Inputs built to exhaust the compiler: each must end quickly with an error, never a crash.
struct ResourceLimitTests {
    func firstError(_ source: String) -> String {
        do { _ = try ShaderProgram(source: source); return "" } catch let e as ShaderCompileError {
            return e.diagnostics.first?.message ?? ""
        } catch { return "\(error)" }
    }

    @Test func deeplyNestedParentheses() {
        let e = String(repeating: "(", count: 100_000) + "1.0" + String(repeating: ")", count: 100_000)
        #expect(firstError("void main() { gl_FragColor = vec4(\(e)); }") == "expression too complex: nested more than 256 levels")
    }

    @Test func longOperatorChain() {
        let e = Array(repeating: "1.0", count: 50_000).joined(separator: " + ")
        #expect(firstError("void main() { gl_FragColor = vec4(\(e)); }") == "expression too complex: nested more than 256 levels")
    }

    @Test func deeplyNestedBlocks() {
        let s = String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000)
        #expect(firstError("void main() { \(s) gl_FragColor = vec4(1.0); }") == "blocks nested more than 64 deep")
    }

    @Test func exponentialMacros() {
        var defs = "#define M0 1.0\n"
        for i in 1...40 { defs += "#define M\(i) M\(i - 1) + M\(i - 1)\n" }
        #expect(firstError(defs + "void main() { gl_FragColor = vec4(M40); }") == "macro expansion produces more than 1000000 tokens")
    }

    @Test func nestedLoopsThatEmitNothing() {
        let src = """
        void main() {
            for (int i = 0; i < 1000; i++) { for (int j = 0; j < 1000; j++) { for (int k = 0; k < 1000; k++) { } } }
            gl_FragColor = vec4(1.0);
        }
        """
        #expect(firstError(src) == "loops run more than 65536 iterations in all once unrolled")
    }

    @Test func hugeUnrolledBody() {
        let src = """
        uniform float u;
        void main() {
            float s = 0.0;
            for (int i = 0; i < 1000; i++) { for (int j = 0; j < 60; j++) { s = sin(s * u + float(i)) * cos(s - u * float(j)) + tan(s); } }
            gl_FragColor = vec4(s);
        }
        """
        #expect(firstError(src).hasPrefix("shader is too large after unrolling loops and inlining functions"))
    }
}
