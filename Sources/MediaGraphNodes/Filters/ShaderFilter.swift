import Foundation
import MediaGraphCore
import MediaGraphShader

/// `shader`: a GLSL ES 1.00 fragment shader (GPUImage style) compiled to a CPU kernel when the
/// graph is validated; uniforms come from the graph.
public final class ShaderFilter: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "shader", doc: "Runs a GLSL ES 1.00 fragment shader (GPUImage style) on the CPU, compiled to SIMD row kernels.",
        category: .filter,
        inputs: [PortSpec("in", .video([.rgba]), doc: "rgba video (converted upstream when needed)")],
        outputs: [PortSpec("out", .video([.rgba]), doc: "rgba video, alpha from gl_FragColor.a")],
        params: ParamSpec.list(fileParam, sourceParam, uniformsParam, KernelFilter.threadsParam))
    static let fileParam = Param<String?>.path("file", role: .input, doc: "shader source file (.glsl)")
    static let sourceParam = Param<String?>("source", doc: "shader source inline (instead of file)")
    static let uniformsParam = Param<JSONValue?>(
        spec: .json("uniforms", default: .object([], nil), doc: "uniform values: numbers, booleans, arrays (vectors; matrices as columns or flat column-major)")) { $0[$1] }

    let kernel: ShaderKernel
    let threads: Int
    public let validationWarnings: [String]

    public init(setup: NodeSetup) throws {
        let p = setup.params
        let bytes: [UInt8], name: String
        switch (p[Self.fileParam], p[Self.sourceParam]) {
        case (let path?, nil):
            bytes = try ShaderSourceFile.read(path)
            name = path
        case (nil, let s?):
            bytes = Array(s.utf8)
            name = "\(setup.id).source"
        case (.some, .some):
            throw NodeFailure("params 'file' and 'source': give one, not both")
        case (nil, nil):
            throw NodeFailure("param 'file' or 'source': the shader is missing")
        }
        let program = try ShaderProgram(bytes: bytes, fileName: name)
        if program.inputCount > 1 {
            // The compiler and ShaderKernel take N inputs; the node gets its extra ports with the
            // engine's multi-input synchronisation.
            let textures = program.textureNames.enumerated().compactMap { k, n in n.map { "'\($0)' (input \(k + 1))" } }
            throw NodeFailure("shader \(name) samples \(textures.joined(separator: ", ")), but the shader node has one input, 'in' (rgba video): shaders of several input textures need a multi-input node, not available yet")
        }
        var values: [String: ShaderUniformValue] = [:]
        let uniforms = p[Self.uniformsParam] ?? .object([], nil)
        guard let members = uniforms.objectMembers else {
            throw NodeFailure("param 'uniforms': expected an object mapping uniform names to values, found \(uniforms.typeName)")
        }
        for (key, value) in members {
            guard let v = ShaderFilter.uniformValue(value) else {
                throw NodeFailure("param 'uniforms': uniform '\(key)': expected a number, a boolean or an array of them (arrays nested at most 2 deep), found \(value.typeName) \(value.brief)")
            }
            values[key] = v
        }
        let bound = try program.bind(uniforms: values)
        validationWarnings = bound.warnings
        kernel = ShaderKernel(program: bound)
        threads = p[KernelFilter.threadsParam]
    }

    /// A uniform value from JSON: numbers, bools and arrays of them nested at most 2 deep (matrix
    /// columns, array elements); nil for anything else.
    static func uniformValue(_ v: JSONValue, depth: Int = 0) -> ShaderUniformValue? {
        switch v {
        case .number(let n, _): return .number(n)
        case .bool(let b, _): return .bool(b)
        case .array(let a, _):
            guard depth < 2 else { return nil }
            var items: [ShaderUniformValue] = []
            for x in a {
                guard let item = uniformValue(x, depth: depth + 1) else { return nil }
                items.append(item)
            }
            return .array(items)
        default: return nil
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let kernel = self.kernel, threads = self.threads
        if kernel.runsInPlace {
            // A colour map reads only the pixel it writes: in place when the frame is unshared,
            // as the built-in filters do.
            try output.sendTransformed(consume frame) { src, dst, _ in
                try kernel.run(source: src, destination: dst, threads: threads)
            }
            return
        }
        // any other shader may sample anywhere in its input, so it writes a separate frame
        var out = WritableBuffer(frame: frame.format, timeBase: frame.timeBase)
        out.copyMetadata(from: frame.buffer)
        try kernel.run(source: frame.planes, destination: out.planes!, threads: threads)
        try output.send(consume out)
    }
}
