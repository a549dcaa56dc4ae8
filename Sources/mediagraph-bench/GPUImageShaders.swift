// Every one- and two-input fragment shader of a GPUImage checkout, for `shader-llvmpipe` with
// SHADER_LLVMPIPE_GPUIMAGE=<checkout>/framework/Source. The shaders are read from its .m files
// at run time (nothing of GPUImage is in this repository): the text inside each
// `SHADER_STRING( ... )`, the iOS branch of `#if TARGET_OS_IPHONE` (GLSL ES, with precision
// qualifiers), each with the vertex shader its filter is created with. Uniforms get generic
// values (GPUImage sets its defaults in Objective-C, which is not read): both sides run the same
// values, so the speeds and outputs compare.
import Foundation
import MediaGraphShader

enum GPUImageShaders {
    /// What the checkout gave: the cases to run, and the shaders left out with the reason.
    struct Survey {
        var cases: [LlvmpipeBench.Case] = []
        var leftOut: [(name: String, reason: String)] = []
    }

    static func survey(directory: URL, width: Int, height: Int) -> Survey {
        var fragments: [String: String] = [:], vertices: [String: String] = [:]
        var pairedVertex: [String: String] = [:]  // fragment constant → vertex constant
        var verticesOfFile: [String: [String]] = [:]  // fragment constant → the vertex shaders defined beside it
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".m") }.sorted()
        for file in files {
            guard let (strings, text) = preprocessed(directory.appendingPathComponent(file)) else { continue }
            var here: [String] = [], hereVertices: [String] = []
            for (name, body) in strings {
                if name.hasSuffix("VertexShaderString") { vertices[name] = body; hereVertices.append(name) } else { fragments[name] = body; here.append(name) }
            }
            for f in here { verticesOfFile[f] = hereVertices }
            for (v, f) in initPairs(in: text) { pairedVertex[f] = v }
        }
        var result = Survey()
        for name in fragments.keys.sorted() {
            let fragment = fragments[name]!
            let short = shortName(name)
            let vertexName: String
            if let v = pairedVertex[name], vertices[v] != nil {
                vertexName = v
            } else if let v = vertexWriting(varyings(fragment), among: verticesOfFile[name] ?? [], in: vertices, exactly: true) {
                vertexName = v  // one beside it in the same file
            } else if fragment.contains("leftTextureCoordinate") && !fragment.contains("leftTextureCoordinate2") {
                vertexName = "kGPUImageNearbyTexelSamplingVertexShaderString"  // GPUImage3x3TextureSamplingFilter's
            } else if let v = vertexWriting(varyings(fragment), among: vertices.keys.sorted(), in: vertices, exactly: true)
                        ?? vertexWriting(varyings(fragment), among: vertices.keys.sorted(), in: vertices, exactly: false) {
                vertexName = v
            } else {
                vertexName = "kGPUImageVertexShaderString"
            }
            guard let vertex = vertices[vertexName] else {
                result.leftOut.append((short, "its vertex shader \(vertexName) is not in the checkout"))
                continue
            }
            let program: ShaderProgram
            do {
                program = try ShaderProgram(source: fragment, fileName: short + ".glsl", vertexSource: vertex,
                                            vertexFileName: shortName(vertexName) + ".vert")
            } catch {
                result.leftOut.append((short, "does not compile here: \(String(describing: error).prefix { $0 != "\n" })"))
                continue
            }
            if program.inputCount > 2 {
                result.leftOut.append((short, "compiles here; reads \(program.inputCount) input textures (the llvmpipe harness binds two)"))
                continue
            }
            let uniforms = program.uniforms.compactMap { u in genericValue(for: u).map { (u.name, $0) } }
            result.cases.append(LlvmpipeBench.Case(name: short, fragment: fragment, uniforms: uniforms, vertex: vertex))
        }
        return result
    }

    /// kGPUImageSwirlFragmentShaderString → Swirl.
    static func shortName(_ constant: String) -> String {
        var s = Substring(constant)
        for prefix in ["kGPUImage", "kGPU", "k"] where s.hasPrefix(prefix) { s = s.dropFirst(prefix.count); break }
        for suffix in ["FragmentShaderString", "VertexShaderString", "ShaderString"] where s.hasSuffix(suffix) {
            s = s.dropLast(suffix.count); break
        }
        return String(s)
    }

    /// A value for a uniform the filter's Objective-C would set: 0.5 for floats and vectors (a
    /// centre, a radius, an amount), 3 for ints (a radius in pixels), true for bools, identity
    /// for matrices. Arrays keep GLSL's 0 (the harness sets single values only).
    static func genericValue(for u: ShaderUniform) -> [Float]? {
        let t = u.type
        guard t.arrayLength == 0 else { return nil }
        switch t.scalar {
        case .int: return Array(repeating: 3, count: t.size)
        case .bool: return Array(repeating: 1, count: t.size)
        case .float where t.columns > 1:
            return (0..<t.columns * t.size).map { $0 % (t.size + 1) == 0 ? 1 : 0 }
        case .float: return Array(repeating: 0.5, count: t.size)
        default: return nil
        }
    }

    /// For a fragment shader with varyings beyond `textureCoordinate`: the first of `candidates`
    /// that declares exactly those (or with `exactly` false, all of them).
    static func vertexWriting(_ needed: Set<String>, among candidates: [String], in vertices: [String: String], exactly: Bool) -> String? {
        guard !needed.subtracting(["textureCoordinate"]).isEmpty else { return nil }
        let declared = candidates.compactMap { name in vertices[name].map { (name, varyings($0)) } }
        return declared.first { exactly ? $0.1 == needed : $0.1.isSuperset(of: needed) }?.0
    }

    /// The file's shader strings as its Objective-C preprocessor expands them (GPUImage's
    /// Levels and Median shaders use C macros), through `clang -E` (or `cpp`) on the file with its
    /// imports left out and the iOS branch chosen: (constant, text) pairs, and the preprocessed
    /// file (for `initPairs`).
    static func preprocessed(_ file: URL) -> (strings: [(String, String)], text: String)? {
        guard let raw = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let body = raw.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("#import") && !$0.hasPrefix("#include") }.joined(separator: "\n")
        let prelude = """
        #define TARGET_IPHONE_SIMULATOR 0
        #define TARGET_OS_IPHONE 1
        #define STRINGIZE(x) #x
        #define STRINGIZE2(x) STRINGIZE(x)
        #define SHADER_STRING(text) @ STRINGIZE2(text)

        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["cpp", "-P", "-w", "-x", "c", "-"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        input.fileHandleForWriting.write(Data((prelude + body).utf8))
        try? input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        var found: [(String, String)] = []
        var rest = Substring(text)
        // NSString *const kName = @ "…";
        while let eq = rest.range(of: "= @") {
            let name = String(rest[..<eq.lowerBound].reversed().drop(while: { $0 == " " || $0 == "\n" })
                .prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" }).reversed())
            rest = rest[eq.upperBound...].drop(while: { $0 == " " || $0 == "\n" })
            guard rest.first == "\"" else { continue }
            var literal = "", escaped = false
            var i = rest.index(after: rest.startIndex)
            while i < rest.endIndex {
                let c = rest[i]
                if escaped { literal.append(c == "n" ? "\n" : c); escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { break } else { literal.append(c) }
                i = rest.index(after: i)
            }
            rest = rest[i...]
            if name.hasPrefix("k") { found.append((name, literal + "\n")) }
        }
        return (found, text)
    }

    /// The names after `varying <type>` in a shader.
    static func varyings(_ shader: String) -> Set<String> {
        var names = Set<String>()
        for decl in shader.split(separator: ";") {
            let words = decl.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            if words.contains("varying"), let last = words.last, last != "varying" { names.insert(String(last)) }
        }
        return names
    }

    /// (vertex constant, fragment constant) of every `initWithVertexShaderFromString:kV
    /// fragmentShaderFromString:kF` (and `programForVertexShaderString:kV fragmentShaderString:kF`,
    /// a filter's second program) that names both.
    static func initPairs(in text: String) -> [(String, String)] {
        let words = text.split(whereSeparator: { " \n\t[]".contains($0) })
        func argument(_ w: Substring, after selector: String) -> Substring? {
            guard let r = w.range(of: selector) else { return nil }
            let a = w[r.upperBound...]
            return a.hasPrefix("k") ? a : nil
        }
        var pairs: [(String, String)] = []
        for (i, w) in words.enumerated() where i + 1 < words.count {
            guard let v = argument(w, after: "VertexShaderFromString:") ?? argument(w, after: "VertexShaderString:"),
                  let f = argument(words[i + 1], after: "ragmentShaderFromString:") ?? argument(words[i + 1], after: "ragmentShaderString:")
            else { continue }
            pairs.append((String(v), String(f)))
        }
        return pairs
    }
}
