import MediaGraphCore
import MediaGraphShader

/// A gl-transitions shader (`vec4 transition(vec2 uv)` with `getFromColor`, `getToColor`,
/// `progress`) compiled once with its own uniforms bound, `progress` left live: what the
/// `transition` node and `concat`'s transitions run.
struct TransitionProgram {
    let kernel: ShaderKernel
    let warnings: [String]

    /// Compiles `text` (named `name` in messages) with `uniforms` (a JSON object; `progress` is
    /// the caller's); `uniformsParam` names that param in errors.
    init(text: String, name: String, uniforms: JSONValue, uniformsParam: String) throws {
        guard text.utf8.count <= ShaderLimits.sourceBytes else {
            throw NodeFailure("transition \(name): \(text.utf8.count) bytes; a shader has at most \(ShaderLimits.sourceBytes)")
        }
        let program = try ShaderProgram(transition: text, fileName: name)
        if program.inputCount > 2 {
            let extra = program.textureNames.dropFirst(2).compactMap { $0 }.map { "'\($0)'" }.joined(separator: ", ")
            throw NodeFailure("transition \(name) samples \(extra) besides the two clips; a transition has two inputs, 'from' and 'to'")
        }
        guard let members = uniforms.objectMembers else {
            throw NodeFailure("param '\(uniformsParam)': expected an object mapping uniform names to values, found \(uniforms.typeName)")
        }
        var values: [String: ShaderUniformValue] = [:]
        for (key, value) in members {
            guard key != "progress" else { throw NodeFailure("param '\(uniformsParam)': 'progress' is set by the node per frame") }
            guard let v = ShaderFilter.uniformValue(value) else {
                throw NodeFailure("param '\(uniformsParam)': uniform '\(key)': expected a number, a boolean or an array of them (arrays nested at most 2 deep), found \(value.typeName) \(value.brief)")
            }
            values[key] = v
        }
        values["progress"] = .number(0)
        let bound = try program.bind(uniforms: values, live: ["progress"])
        warnings = bound.warnings
        kernel = ShaderKernel(program: bound)
    }

    /// The shader text and its name for messages: from a file, inline source, or the built-in
    /// cross-fade when neither is given.
    static func text(file: String?, source: String?, inline: String, fileParam: String, sourceParam: String) throws -> (text: String, name: String) {
        switch (file, source) {
        case (let path?, nil): return (String(decoding: try ShaderSourceFile.read(path), as: UTF8.self), path)
        case (nil, let s?): return (s, inline)
        case (.some, .some): throw NodeFailure("params '\(fileParam)' and '\(sourceParam)': give one, not both")
        case (nil, nil): return (fade, "fade (built in)")
        }
    }

    /// A cross-fade, when no shader is given.
    static let fade = "vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }"
}
