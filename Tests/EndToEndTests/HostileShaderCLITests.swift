import Foundation
import Testing

/// `mediagraph validate` on graphs whose shader is hostile: the compiler runs on the CLI's main
/// thread here (the unit tests run it on 8 MiB threads), and must end with exit 2 and the
/// shader's file:line:column and the limit, quickly.
@Suite struct HostileShaderCLITests {
    func validate(shader: String, named name: String = "hostile.glsl") throws -> (CLI.Result, Double, String) {
        let dir = CLI.tempDir()
        let path = dir + "/" + name
        try shader.write(toFile: path, atomically: true, encoding: .utf8)
        let graph = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 1, "format": "rgba" } },
                     "f": { "type": "shader", "params": { "file": "\(path)" } }, "out": { "type": "nullsink" } },
          "chains": [["src", "f", "out"]] }
        """, in: dir)
        let start = Date()
        let r = try CLI.mediagraph("validate", graph)
        return (r, Date().timeIntervalSince(start), path)
    }

    @Test func chainedAssignments() throws {
        let line = "void main() { float a; a = " + String(repeating: "a = ", count: 100_000) + "1.0; gl_FragColor = vec4(a); }"
        let (r, seconds, path) = try validate(shader: line)
        #expect(r.status == 2)
        // The 257th 'a' opens level 257 (the first is at column 24; each is 4 columns on).
        #expect(r.stderr.contains("\(path):1:1048: error: expression too complex: nested more than 256 levels"), "\(r.stderr.prefix(500))")
        #expect(seconds < CLI.timeLimit)
    }

    /// 12 functions of 250 nested calls each, each calling the previous: 3000 levels once inlined,
    /// which the compiler's recursion would follow; it stops at 1024, on the main thread's stack.
    @Test func nestingAcrossInlinedFunctions() throws {
        var source = "float f0(float x) { return " + String(repeating: "sin(", count: 250) + "x" + String(repeating: ")", count: 250) + "; }\n"
        for i in 1..<12 {
            source += "float f\(i)(float x) { return " + String(repeating: "sin(", count: 250) + "f\(i - 1)(x)" + String(repeating: ")", count: 250) + "; }\n"
        }
        source += "void main() { gl_FragColor = vec4(f11(0.5)); }\n"
        let (r, seconds, path) = try validate(shader: source)
        #expect(r.status == 2)
        #expect(r.stderr.contains(path + ":"), "\(r.stderr.prefix(500))")
        #expect(r.stderr.contains(" error: code nested more than 1024 levels deep once functions are inlined"), "\(r.stderr.prefix(500))")
        #expect(seconds < CLI.timeLimit)
    }

    @Test func macrosExpandingToNothing() throws {
        var source = "#define E0\n"
        for i in 1...9 { source += "#define E\(i) " + Array(repeating: "E\(i - 1)", count: 10).joined(separator: " ") + "\n" }
        source += "void main() { E9 gl_FragColor = vec4(1.0); }\n"
        let (r, seconds, path) = try validate(shader: source)
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(path):11:15: error: macros expanded more than 2000000 times"), "\(r.stderr.prefix(500))")
        #expect(seconds < CLI.timeLimit)
    }

    /// A shader "file" that is a device or a directory is refused before anything is read.
    @Test func shaderFileThatIsNotARegularFile() throws {
        let dir = CLI.tempDir()
        let graph = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 1, "format": "rgba" } },
                     "f": { "type": "shader", "params": { "file": "/dev/zero" } }, "out": { "type": "nullsink" } },
          "chains": [["src", "f", "out"]] }
        """, in: dir)
        let start = Date()
        let r = try CLI.mediagraph("validate", graph)
        #expect(r.status == 2)
        #expect(r.stderr.contains("param 'file': shader '/dev/zero' is not a regular file"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(start) < CLI.timeLimit)
    }
}
