import Foundation
import MediaGraphCore
import MediaGraphShader

/// `shader`: a GLSL ES 1.00 fragment shader (GPUImage style) compiled to a CPU kernel when the
/// graph is validated; uniforms come from the graph.
public final class ShaderFilter: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "shader", doc: "Runs a GLSL ES 1.00 fragment shader (GPUImage style) on the CPU, compiled to SIMD row kernels.",
        category: .filter,
        inputs: [PortSpec("in", .video([.rgba]), doc: "rgba video (converted upstream when needed)")],
        outputs: [PortSpec("out", .video([.rgba]), doc: "rgba video, alpha from gl_FragColor.a")],
        params: [.path("file", role: .input, doc: "shader source file (.glsl)"),
                 .string("source", doc: "shader source inline (instead of file)"),
                 .json("uniforms", default: .object([], nil), doc: "uniform values: numbers, booleans, arrays (vectors; matrices as columns or flat column-major)"),
                 .int("threads", 0...256, default: 0, doc: "threads for the row bands (0 = all cores)")])

    let kernel: ShaderKernel
    let threads: Int
    public let validationWarnings: [String]

    public init(setup: NodeSetup) throws {
        let p = setup.params
        let text: String, name: String
        switch (p.path("file"), p.string("source")) {
        case (let path?, nil):
            guard let data = FileManager.default.contents(atPath: path), let s = String(data: data, encoding: .utf8) else {
                throw NodeFailure("param 'file': cannot read shader '\(path)'")
            }
            text = s
            name = path
        case (nil, let s?):
            text = s
            name = "\(setup.id).source"
        case (.some, .some):
            throw NodeFailure("params 'file' and 'source': give one, not both")
        case (nil, nil):
            throw NodeFailure("param 'file' or 'source': the shader is missing")
        }
        let program = try ShaderProgram(source: text, fileName: name)
        var values: [String: ShaderUniformValue] = [:]
        guard let members = p["uniforms"]?.objectMembers else {
            throw NodeFailure("param 'uniforms': expected an object mapping uniform names to values, found \(p["uniforms"]?.typeName ?? "nothing")")
        }
        for (key, value) in members {
            guard let v = ShaderFilter.uniformValue(value) else {
                throw NodeFailure("param 'uniforms': uniform '\(key)': expected a number, boolean or array of them, found \(value.typeName) \(value.brief)")
            }
            values[key] = v
        }
        let bound = try program.bind(uniforms: values)
        validationWarnings = bound.warnings
        kernel = ShaderKernel(program: bound)
        threads = p.int("threads", default: 0)
    }

    static func uniformValue(_ v: JSONValue) -> ShaderUniformValue? {
        switch v {
        case .number(let n, _): return .number(n)
        case .bool(let b, _): return .bool(b)
        case .array(let a, _):
            let items = a.compactMap(uniformValue)
            return items.count == a.count ? .array(items) : nil
        default: return nil
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let kernel = self.kernel, threads = self.threads
        if kernel.runsInPlace {
            // A colour map reads only the pixel it writes: in place when the frame is unshared,
            // as the built-in filters do.
            try output.sendTransformed(consume buffer) { src, dst, _ in
                try kernel.run(source: src, destination: dst, threads: threads)
            }
            return
        }
        // any other shader may sample anywhere in its input, so it writes a separate frame
        guard let format = buffer.videoFormat, let src = buffer.planes else { return }
        let out = SampleBuffer.makeFrame(format, timeBase: buffer.timeBase)
        out.copyMetadata(from: buffer)
        try kernel.run(source: src, destination: out.planes!, threads: threads)
        try output.send(consume out)
    }
}
