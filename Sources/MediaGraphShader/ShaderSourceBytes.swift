/// Shader source as bytes (a file's contents, a fuzzer's input): the size limit and UTF-8 are
/// checked here, with the place of the first problem, before the text is compiled.
extension ShaderProgram {
    /// Compiles shader source given as bytes. Throws `ShaderCompileError` when the bytes are
    /// more than `ShaderLimits.sourceBytes`, are not UTF-8 (naming the line:column and byte
    /// offset of the first bad byte), or do not compile.
    public convenience init(bytes: [UInt8], fileName: String) throws {
        if bytes.count > ShaderLimits.sourceBytes {
            // Only what the limit allows is decoded; the lexer reports the limit and its place.
            try self.init(source: String(decoding: bytes.prefix(ShaderLimits.sourceBytes + 1), as: UTF8.self), fileName: fileName)
            return
        }
        if let bad = ShaderProgram.firstInvalidUTF8(bytes) {
            let text = String(decoding: bytes, as: UTF8.self)
            var line = 1, lineStart = 0
            for i in 0..<bad where bytes[i] == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
            let at = ShaderSourceLocation(line: line, column: bad - lineStart + 1)
            throw ShaderCompileError(fileName: fileName, source: text, diagnostics: [
                ShaderDiagnostic(severity: .error, location: at, message: "invalid UTF-8 at byte offset \(bad)")])
        }
        try self.init(source: String(decoding: bytes, as: UTF8.self), fileName: fileName)
    }

    /// The whole shader front end on untrusted input, for tools and fuzzers: bytes to a program
    /// bound to `uniforms`, ready for `ShaderKernel`, or an error (`ShaderCompileError`,
    /// `ShaderBindError`). Bounded in time, memory and stack on any input (`ShaderLimits`).
    public static func compile(bytes: [UInt8], fileName: String = "shader.glsl",
                               uniforms: [String: ShaderUniformValue] = [:]) throws -> BoundShaderProgram {
        try ShaderProgram(bytes: bytes, fileName: fileName).bind(uniforms: uniforms)
    }

    /// Offset of the first byte that does not belong to a valid UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }
}
