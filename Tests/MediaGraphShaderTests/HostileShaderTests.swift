import Foundation
import Testing
import MediaGraphCore
import MediaGraphKernels
import MediaGraphShader

/// Shaders made to break the compiler, one per class of problem (issue 11): each is generated
/// here, must end with the exact error (file:line:column, the limit named) well within a time
/// bound, and runs on a thread with an 8 MiB stack, as graph threads have (`mediagraph validate`
/// compiles on the main thread, also 8 MiB: EndToEndTests.HostileShaderCLITests covers it).
struct HostileShaderTests {
    /// Generous: each takes well under a second in a release build. `make test-sanitize` runs
    /// a debug build under sanitizers, several times slower, and scales it by
    /// MEDIAGRAPH_TEST_TIME_SCALE.
    static let timeLimit = 5.0 * (Double(ProcessInfo.processInfo.environment["MEDIAGRAPH_TEST_TIME_SCALE"] ?? "") ?? 1)

    /// Compiles (and binds) `source` on an 8 MiB-stack thread; the first diagnostic as
    /// "line:column: error: message" ("" when it compiles) and the seconds it took.
    func compile(_ source: String, uniforms: [String: ShaderUniformValue] = [:]) -> (first: String, all: [String], seconds: Double) {
        onThread(stackSize: 8 << 20) {
            let start = Date()
            var lines: [String] = []
            do {
                _ = try ShaderProgram(source: source, fileName: "hostile.glsl").bind(uniforms: uniforms)
            } catch let e as ShaderCompileError {
                lines = e.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.severity.rawValue): \($0.message)" }
            } catch {
                lines = ["\(error)"]
            }
            return (lines.first ?? "", lines, Date().timeIntervalSince(start))
        }
    }

    /// Column (1-based) of the `n`th occurrence (1-based) of `needle` in a one-line `text`.
    func column(of needle: String, occurrence n: Int, in text: String) -> Int {
        var searchFrom = text.startIndex
        var found = text.startIndex
        for _ in 0..<n {
            guard let r = text.range(of: needle, range: searchFrom..<text.endIndex) else { return -1 }
            found = r.lowerBound
            searchFrom = r.upperBound
        }
        return text.utf8.distance(from: text.startIndex, to: found) + 1
    }

    // MARK: unbounded recursion

    @Test func chainedAssignments() {
        let line = "void main() { float a; a = " + String(repeating: "a = ", count: 100_000) + "1.0; gl_FragColor = vec4(a); }"
        let r = compile(line)
        // The statement's expression is level 1; each '=' opens one more: the 257th level is the
        // 256th 'a' after the first.
        #expect(r.first == "1:\(column(of: "a = ", occurrence: 257, in: line)): error: expression too complex: nested more than 256 levels")
        #expect(r.seconds < Self.timeLimit)
    }

    /// One error per cause: a declaration whose initializer is too deep still declares its
    /// variable (no "undeclared identifier" at each use), and the shader-wide iteration limit is
    /// said once, not again at every enclosing loop.
    @Test func aLimitIsReportedOnceWithoutFollowOnErrors() {
        let deep = "void main() { float x = " + String(repeating: "(", count: 1000) + "1.0" + String(repeating: ")", count: 1000) + "; gl_FragColor = vec4(x); }"
        let r = compile(deep)
        #expect(r.all.count == 1 && r.first.hasSuffix("error: expression too complex: nested more than 256 levels"), "\(r.all)")
        let loops = "void main() { float x = 0.0; " + String(repeating: "for (int i = 0; i < 1024; i++) { ", count: 4) + "x += 1.0;"
            + String(repeating: " }", count: 4) + " gl_FragColor = vec4(x); }"
        let l = compile(loops)
        #expect(l.all.count == 1 && l.first.hasSuffix("error: loops run more than 65536 iterations in all once unrolled"), "\(l.all)")
    }

    @Test func nestedConditionals() {
        let tail = "void main() { gl_FragColor = vec4(" + String(repeating: "true ? 1.0 : ", count: 10_000) + "0.0); }"
        let r = compile(tail)
        // The statement is level 1, the right of '=' 2, vec4's argument 3, and each ':' result one
        // more: the k-th 'true' is at level k + 2, its middle operand at k + 3, so level 257 is
        // the middle operand of the 254th.
        #expect(r.first == "1:\(column(of: "1.0 :", occurrence: 254, in: tail)): error: expression too complex: nested more than 256 levels")
        #expect(r.seconds < Self.timeLimit)
        // Conditionals nested in the middle operand, and prefix operators, count the same way.
        let middle = "void main() { gl_FragColor = vec4(" + String(repeating: "true ? ", count: 10_000) + "1.0" + String(repeating: " : 0.0", count: 10_000) + "); }"
        #expect(compile(middle).first.hasSuffix("error: expression too complex: nested more than 256 levels"))
        let negations = "void main() { gl_FragColor = vec4(" + String(repeating: "- ", count: 100_000) + "1.0); }"
        #expect(compile(negations).first.hasSuffix("error: expression too complex: nested more than 256 levels"))
    }

    /// Function calls multiply nesting: 12 functions of 250 nested calls each, every one calling
    /// the previous, nest 3000 deep once inlined.
    @Test func nestingAcrossInlinedFunctions() {
        var source = "float f0(float x) { return " + String(repeating: "sin(", count: 250) + "x" + String(repeating: ")", count: 250) + "; }\n"
        for i in 1..<12 {
            source += "float f\(i)(float x) { return " + String(repeating: "sin(", count: 250) + "f\(i - 1)(x)" + String(repeating: ")", count: 250) + "; }\n"
        }
        source += "void main() { gl_FragColor = vec4(f11(0.5)); }\n"
        let r = compile(source)
        #expect(r.first.hasSuffix("error: code nested more than 1024 levels deep once functions are inlined"), "\(r.first)")
        #expect(r.seconds < Self.timeLimit)
    }

    @Test func longCallCycle() {
        // A cycle through 1000 functions: the recursion check walks it without recursing.
        var source = "float c0(float x);\n"
        for i in 1..<1000 { source += "float c\(i)(float x) { return c\((i + 1) % 1000)(x); }\n" }
        source += "float c0(float x) { return c1(x); }\nvoid main() { gl_FragColor = vec4(c0(1.0)); }\n"
        let r = compile(source)
        // Found at c999's call of c0 (line 1000), the cycle named with its middle left out.
        #expect(r.all.contains("1000:30: error: recursion is not supported: 'c0' calls 'c1' calls 'c2' calls 'c3' calls ... (1000 functions) calls 'c998' calls 'c999' calls 'c0'"), "\(r.all.prefix(3))")
        #expect(r.seconds < Self.timeLimit)
    }

    // MARK: exponential and quadratic work

    /// Each E<i> is ten E<i-1>; E0 is empty, so no token is ever produced (the token limit never
    /// trips) while E8 means 10^8 expansions.
    static func emptyMacros(levels: Int) -> String {
        var s = "#define E0\n"
        for i in 1...levels { s += "#define E\(i) " + Array(repeating: "E\(i - 1)", count: 10).joined(separator: " ") + "\n" }
        return s
    }

    @Test func macrosExpandingToNothing() {
        let header = HostileShaderTests.emptyMacros(levels: 8)
        let r = compile(header + "void main() { E8 gl_FragColor = vec4(1.0); }")
        #expect(r.first == "10:15: error: macros expanded more than 2000000 times")
        #expect(r.all.count == 1, "lexing stops at the limit: \(r.all)")
        #expect(r.seconds < Self.timeLimit)
        // 10^6 expansions to nothing are within the limit: the shader compiles.
        let fine = compile(HostileShaderTests.emptyMacros(levels: 6) + "void main() { E6 gl_FragColor = vec4(1.0); }")
        #expect(fine.first == "")
        #expect(fine.seconds < Self.timeLimit)
    }

    /// As in C, a macro is not expanded again inside its own expansion: self and mutual
    /// references end (they used to be expanded 32 levels deep), and mean what cpp makes of them:
    /// B -> C -> B and C -> B -> C stop at the name being expanded; h -> (h * 2.0) once.
    @Test func selfAndMutuallyReferentialMacros() throws {
        let source = """
        #define B C
        #define C B
        #define X X
        float B = 0.25;
        float h = 0.25;
        #define h (h * 2.0)
        void main() { float X = 0.75; gl_FragColor = vec4(B, X, h, 1.0); }
        """
        let r = compile(source)
        #expect(r.first == "", "\(r.all)")
        let out = try runShader(source, on: TestImage.pattern(width: 8, height: 8))
        // 0.25, 0.75 and 0.5 as bytes (0.5 * 255 = 127.5 rounds to even).
        #expect([out[3, 3, 0], out[3, 3, 1], out[3, 3, 2], out[3, 3, 3]] == [64, 191, 128, 255])
        #expect(compile("#define B C\n#define C B\nfloat B = 0.25;\nvoid main() { gl_FragColor = vec4(C); }").first
                == "4:35: error: use of undeclared identifier 'C'")
    }

    @Test func macroNesting() {
        var s = ""
        for i in 0..<100 { s += "#define M\(i) M\(i + 1)\n" }
        s += "#define M100 1.0\nvoid main() { gl_FragColor = vec4(M0); }"
        #expect(compile(s).first == "102:35: error: macros nested more than 64 deep (expanding 'M64')")
    }

    /// f<i> calls f<i-1> twice with the same argument: value numbering keeps the code tiny (the
    /// operation limit never trips), while inlining does 2^40 calls' work. The budget counts the
    /// work, so this ends at once.
    @Test func exponentialInlining() {
        var source = "float f0(float x) { return x * 0.5 + 0.25; }\n"
        for i in 1...40 { source += "float f\(i)(float x) { return f\(i - 1)(x) + f\(i - 1)(x); }\n" }
        source += "void main() { gl_FragColor = vec4(f40(0.1)); }\n"
        let r = compile(source)
        #expect(r.all.count == 1, "\(r.all)")
        // Where the budget runs out is somewhere inside the functions' bodies (lines 1-41).
        let parts = r.first.split(separator: ":", maxSplits: 2)
        #expect(parts.count == 3 && (1...41).contains(Int(parts[0]) ?? 0), "\(r.first)")
        #expect(r.first.hasSuffix(" error: shader takes more than 2000000 compile steps: functions are inlined or loops unrolled too many times"), "\(r.first)")
        #expect(r.seconds < Self.timeLimit)
    }

    /// Statements that emit nothing, in a function called from a loop: no operation is added,
    /// the work is still counted.
    @Test func inliningCodeThatEmitsNothing() {
        let source = "float f(float x) {" + String(repeating: " x;", count: 20_000) + " return x; }\n"
            + "void main() { float s = 0.0; for (int i = 0; i < 1000; i++) { s += f(s); } gl_FragColor = vec4(s); }\n"
        let r = compile(source)
        #expect(r.first.hasSuffix(" error: shader takes more than 2000000 compile steps: functions are inlined or loops unrolled too many times"), "\(r.first)")
        #expect(r.seconds < Self.timeLimit)
    }

    /// Many globals and many functions: checking each function alone used to copy every global.
    @Test func manyGlobalsAndFunctionsStayLinear() {
        var source = ""
        for i in 0..<30_000 { source += "float g\(i);\n" }
        for i in 0..<1000 { source += "float h\(i)(float a) { g\(i) = a; return a + g\(i); }\n" }
        source += "void main() { gl_FragColor = vec4(h0(0.5)); }\n"
        let r = compile(source)
        #expect(r.first == "")
        #expect(r.seconds < Self.timeLimit)
    }

    @Test func bigArraysCostTheirSize() {
        let source = "void main() {\n" + (0..<3000).map { "mat4 m\($0)[4096];\n" }.joined() + "gl_FragColor = vec4(1.0); }\n"
        let r = compile(source)
        // 16 * 4096 components each: the 31st declaration (line 32) passes 2,000,000 steps, and
        // the next statement stops there.
        #expect(r.first == "33:1: error: shader takes more than 2000000 compile steps: functions are inlined or loops unrolled too many times")
        #expect(r.seconds < Self.timeLimit)
    }

    @Test func manyErrorsAreCappedAndFast() {
        let source = "void main() {\n" + String(repeating: "float;\n", count: 100_000) + "}\n"
        let r = compile(source)
        #expect(r.all.count == 101)
        #expect(r.all.first == "2:6: error: expected a variable name, found ';'")
        #expect(r.all.last == "102:6: error: too many errors: 99900 more after the first 100 are not listed")
        #expect(r.seconds < Self.timeLimit)
    }

    @Test func tokenLimit() {
        let prefix = "void main() { gl_FragColor = vec4(1.0);"  // 12 tokens
        let source = prefix + String(repeating: ";", count: 1_000_100) + "}"
        // Token 1,000,001 is the (1,000,001 - 12)th ';'.
        #expect(compile(source).first == "1:\(prefix.utf8.count + 1_000_001 - 12): error: shader has more than 1000000 tokens")
    }

    @Test func conditionalNesting() {
        let source = String(repeating: "#ifdef GL_ES\n", count: 50_000) + "void main() { gl_FragColor = vec4(1.0); }\n"
            + String(repeating: "#endif\n", count: 50_000)
        let r = compile(source)
        #expect(r.first == "65:1: error: '#if' nested more than 64 deep")
        #expect(r.seconds < Self.timeLimit)
    }

    @Test func functionCount() {
        let source = (0..<1100).map { "float f\($0)(float x) { return x; }\n" }.joined() + "void main() { gl_FragColor = vec4(f0(1.0)); }\n"
        // Parsing stops there: what follows would only report the cut (no main, say).
        #expect(compile(source).all == ["1025:7: error: more than 1024 functions"])
    }

    @Test func identifierLength() {
        let name = String(repeating: "x", count: 5000)
        #expect(compile("void main() { float \(name) = 1.0; gl_FragColor = vec4(1.0); }").first
                == "1:21: error: identifier longer than 1024 characters")
    }

    @Test func uniformComponents() {
        let source = (0..<5).map { "uniform mat4 u\($0)[1024];\n" }.joined() + "void main() { gl_FragColor = vec4(u0[0][0]); }\n"
        #expect(compile(source).first == "2:14: error: uniform 'u1' (mat4[1024]) goes over the 16384 uniform components a shader may declare")
    }

    @Test func sourceSize() {
        let source = "void main() { gl_FragColor = vec4(1.0); }\n" + String(repeating: "// padding\n", count: 100_000)
        // Byte 1048576 (0-based) is on line 1 + (1048576 - 42) / 11 + 1, at column (1048576 - 42) % 11 + 1.
        #expect(compile(source).all == ["\(1 + (1_048_576 - 42) / 11 + 1):\((1_048_576 - 42) % 11 + 1): error: shader source is larger than 1048576 bytes"])
    }

    @Test func invalidUTF8() {
        var bytes = Array("void main() { gl_FragColor = vec4(1.0); }\n// caf".utf8)
        bytes.append(0xE9)  // Latin-1 é
        do {
            _ = try ShaderProgram(bytes: bytes, fileName: "latin1.glsl")
            Issue.record("compiled")
        } catch {
            #expect("\(error)".hasPrefix("latin1.glsl:2:7: error: invalid UTF-8 at byte offset 48"), "\(error)")
        }
    }

    // MARK: undefined behaviour without checks

    /// Out-of-range constants as indices, sizes and loop bounds: errors naming the value, never
    /// a conversion to Int (a trap with checks, undefined behaviour without).
    @Test func hugeFloatConstantsAsIndices() {
        let header = "void main() { vec3 v = vec3(1.0); "
        func first(_ body: String) -> String { compile(header + body + " gl_FragColor = vec4(1.0); }").first }
        #expect(first("float x = v[int(1e30)];") == "1:47: error: index 1e+30 is out of range for vec3 (0...2)")
        #expect(first("float x = v[int(-1e30)];") == "1:47: error: index -1e+30 is out of range for vec3 (0...2)")
        #expect(first("float x = v[int(1.0 / 0.0)];") == "1:47: error: index inf is out of range for vec3 (0...2)")
        #expect(first("float x = v[int(0.0 / 0.0)];") == "1:47: error: index nan is out of range for vec3 (0...2)")
        #expect(first("v[int(3e9)] = 1.0;") == "1:37: error: index 3000000000 is out of range for vec3 (0...2)")
        #expect(first("float a[int(1e30)];") == "1:43: error: array size must be between 1 and 4096, found 1e+30")
        #expect(first("float a[int(0.0 / 0.0)];") == "1:43: error: array size must be between 1 and 4096, found nan")
        #expect(first("float s = 0.0; for (int i = 0; i < int(1e30); i++) { s += 1.0; }") == "1:50: error: loop does not end within 1024 iterations (infinite loop?)")
        #expect(first("float s = 0.0; for (int i = int(-1e30); i < 0; i += int(1e30)) { s += 1.0; }") == "")
    }

    /// The AVX2 sampler computes byte offsets in 32-bit lanes: a source plane over 2 GiB must
    /// be sampled right all the same (it runs the loop with Int offsets). The plane is a sparse
    /// mapping: rows 1 GiB apart, only the sampled row's page touched.
    @Test func bilinearSamplingBeyondTwoGigabytes() throws {
        let width = 64, height = 3, stride = 1 << 30
        let size = stride * (height - 1) + width * 4
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              map != MAP_FAILED else {
            Issue.record("cannot map \(size) bytes: \(String(cString: strerror(errno)))")
            return
        }
        defer { munmap(map, size) }
        let source = map.assumingMemoryBound(to: UInt8.self)
        let last = source + stride * (height - 1)
        for x in 0..<width { (last + x * 4).update(from: [200, 100, 50, 255], count: 4) }
        let planes = FramePlanes(format: .rgba, width: width, height: height, data0: source, stride0: stride)
        // v = 0.99 lies in the last row's half texel: bilinear weights all on row 2.
        let program = try ShaderProgram(source: """
            varying highp vec2 textureCoordinate;
            uniform sampler2D inputImageTexture;
            void main() { gl_FragColor = texture2D(inputImageTexture, vec2(textureCoordinate.x, 0.99)); }
            """).bind(uniforms: [:])
        for path in [VectorPath.detected, .sse2] {
            let output = TestImage(width: width, height: height)
            try ShaderKernel(program: program, vectorPath: path).run(source: planes, destination: output.planes, threads: 1)
            let pixels = (0..<height).flatMap { y in (0..<width).map { x in (0..<4).map { output[x, y, $0] } } }
            #expect(pixels.allSatisfy { $0 == [200, 100, 50, 255] }, "\(path): \(pixels.first { $0 != [200, 100, 50, 255] } ?? [])")
        }
    }

    // MARK: binding and the fuzzing entry point

    @Test func manyUnknownUniformValuesAreCapped() {
        let shader = Array("uniform float deep; void main() { gl_FragColor = vec4(deep); }".utf8)
        func messages(_ values: [String: ShaderUniformValue]) -> [String] {
            do {
                _ = try ShaderProgram.compile(bytes: shader, fileName: "u.glsl", uniforms: values)
                return []
            } catch let e as ShaderBindError {
                return e.errors.map(\.message)
            } catch {
                return ["\(error)"]
            }
        }
        var values: [String: ShaderUniformValue] = [:]
        for i in 0..<100_000 { values["u\(i)"] = 1 }
        let start = Date()
        let many = messages(values)
        #expect(many.count == 21)
        #expect(many.first == "u.glsl declares no uniform 'u0' (it declares 'deep')")
        #expect(many.last == "99980 more uniform errors not listed")
        #expect(Date().timeIntervalSince(start) < Self.timeLimit)
        #expect(messages(["deep": [[[1]]]]) == ["uniform 'deep' (float, declared at u.glsl:1): expected a number, found arrays nested more than 2 deep"])
    }

    /// Random bytes through the whole front end (what a fuzzer does): errors or programs, never
    /// a crash, and quickly.
    @Test func randomBytesThroughTheFrontEnd() {
        let alphabet = Array("void main(){}gl_FragColor=vec4(1.0);#define A A\n?:+-*/[]()int float x,;.0123456789eE\u{0}\u{FF}".utf8)
        let start = Date()
        onThread(stackSize: 8 << 20) {
            var state: UInt64 = 0x2545F4914F6CDD1D
            func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
            for _ in 0..<300 {
                let n = Int(next() % 400)
                let bytes = (0..<n).map { _ in next() % 4 == 0 ? UInt8(truncatingIfNeeded: next()) : alphabet[Int(next() % UInt64(alphabet.count))] }
                _ = try? ShaderProgram.compile(bytes: bytes, uniforms: ["x": 1])
            }
        }
        #expect(Date().timeIntervalSince(start) < Self.timeLimit)
    }
}

/// Runs `body` on a new thread with the given stack and waits for its result.
func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let box = Lock<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = body()
        box.withLock { $0 = value }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return box.withLock { $0 }!
}
