import MediaGraphShaderTiles

/// The two stages a shader may have. A fragment stage is what the filter runs for every pixel;
/// an optional vertex stage (GPUImage's Sharpen, MotionBlur: a vertex shader that only computes
/// extra texture coordinates) runs for every pixel too, before it, and its varyings are what the
/// fragment stage reads. A GPU interpolates varyings linearly between the vertices of the
/// full-frame quad, so for a vertex stage whose varyings are affine in its attributes (offsets,
/// scales, uniforms) evaluating it at each pixel gives exactly the interpolated value.
enum ShaderStage { case vertex, fragment }

extension Lowering {
    /// gl_Position and gl_PointSize: written by a vertex shader, ignored (the filter's quad covers
    /// the frame).
    func declareVertexOutputs() {
        for (name, type) in [("gl_Position", ShaderType.vec(4)), ("gl_PointSize", ShaderType.float)] {
            let v = Variable(name: name, type: type, ids: Array(repeating: b.constant(0), count: type.componentCount),
                             storage: .local, location: ShaderSourceLocation(line: 1, column: 1))
            v.isGlobal = true
            scopes[0][name] = v
        }
    }

    /// The vertex attributes of the filter's full-frame quad at each pixel: `position` (clip
    /// space, −1...1, y = −1 at the first row as GPUImage's vertices have it) and
    /// `inputTextureCoordinate` (and `inputTextureCoordinate2`, ... for further inputs: the same
    /// coordinates), each (x, y, 0, 1) cut to the declared size.
    func declareAttribute(_ d: VarDeclarator, type: ShaderType) {
        let u = b.source(.coordX), v = b.source(.coordY)
        let xy: [Int32]
        if d.name == "position" {
            let two = b.constant(2), one = b.constant(1)
            xy = [b.emit(.sub, b.emit(.mul, u, two), one), b.emit(.sub, b.emit(.mul, v, two), one)]
        } else if d.name == "inputTextureCoordinate" || Lowering.inputCoordinate(d.name.replacingOccurrences(of: "inputTextureCoordinate", with: "textureCoordinate")) != nil {
            xy = [u, v]
        } else {
            error(d.location, "unknown attribute '\(d.name.clipped())': the filter's quad has 'position' and 'inputTextureCoordinate' (inputTextureCoordinate2, ... for further inputs)")
            declarePlaceholder(d.name, type: type, at: d.location)
            return
        }
        guard !type.isArray, type.scalar == .float, (2...4).contains(type.size), type.isVector else {
            error(d.location, "attribute '\(d.name)' must be a vec2, vec3 or vec4, found \(type)")
            declarePlaceholder(d.name, type: type, at: d.location)
            return
        }
        let all = xy + [b.constant(0), b.constant(1)]
        if d.initializer != nil { error(d.location, "attribute '\(d.name)' cannot have an initializer") }
        scopes[0][d.name] = Variable(name: d.name, type: type, ids: Array(all.prefix(type.size)), storage: .varying,
                                     location: d.location)
    }

    /// A varying the vertex stage writes: a global it may assign (0 until it does).
    func declareVertexVarying(_ d: VarDeclarator, type: ShaderType) {
        if d.initializer != nil { error(d.location, "varying '\(d.name)' cannot have an initializer") }
        guard type.scalar == .float else {
            error(d.location, "varying '\(d.name)' must be a float, vector or matrix of floats, found \(type)")
            declarePlaceholder(d.name, type: type, at: d.location)
            return
        }
        b.charge(type.componentCount)
        let v = Variable(name: d.name, type: type, ids: Array(repeating: b.constant(0), count: type.componentCount),
                         storage: .local, location: d.location)
        v.isGlobal = true
        scopes[0][d.name] = v
    }

    /// Every varying of a vertex stage with the values its main left in it.
    var varyingsWritten: [String: Variable] {
        var out: [String: Variable] = [:]
        for (name, v) in scopes[0] where v.storage == .local && v.isGlobal && !name.hasPrefix("gl_") {
            out[name] = v
        }
        return out
    }

    /// A fragment varying the vertex stage writes: read-only here, with the vertex stage's values.
    func linkVarying(_ d: VarDeclarator, type: ShaderType) {
        guard let written = vertexVaryings[d.name] else { return }
        if d.initializer != nil { error(d.location, "varying '\(d.name)' cannot have an initializer") }
        guard written.type == type else {
            error(d.location, "varying '\(d.name)' is \(type) here but \(written.type) in the vertex stage")
            declarePlaceholder(d.name, type: type, at: d.location)
            return
        }
        scopes[0][d.name] = Variable(name: d.name, type: type, ids: written.ids, storage: .varying, location: d.location)
    }
}

/// One file holding both stages: the lines from `#pragma vertex` to `#pragma fragment` (or the
/// end) are the vertex stage, the rest the fragment stage. Each stage keeps every line of the
/// file (the other stage's lines blanked), so line:column in errors are those of the file.
enum ShaderSections {
    static func split(_ source: String) -> (fragment: String, vertex: String?) {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        func marker(_ line: Substring) -> String? {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard words.count == 2, words[0] == "#pragma", words[1] == "vertex" || words[1] == "fragment" else { return nil }
            return String(words[1])
        }
        guard lines.contains(where: { marker($0) == "vertex" }) else { return (source, nil) }
        var fragment: [Substring] = [], vertex: [Substring] = []
        var inVertex = false
        for line in lines {
            if let m = marker(line) { inVertex = m == "vertex" }
            fragment.append(inVertex ? "" : line)
            vertex.append(inVertex ? line : "")
        }
        return (fragment.joined(separator: "\n"), vertex.joined(separator: "\n"))
    }
}
