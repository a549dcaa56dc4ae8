import Foundation
import MediaGraphCore
import MediaGraphShader

/// `shader`: a GLSL ES 1.00 fragment shader (GPUImage style) compiled to a CPU kernel when the
/// graph is validated; uniforms come from the graph. A shader that samples `inputImageTexture2`,
/// `3`, … takes one input per texture (`in`, `in1`, `in2`, …), aligned by time by the engine's
/// synchroniser (Docs/multi-input.md).
public final class ShaderFilter: RegisteredNode, SynchronizedVideoNode {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
            name: "shader", doc: "Runs a GLSL ES 1.00 fragment shader (GPUImage style) on the CPU, compiled to SIMD row kernels; inputImageTexture2, 3, … come from inputs in1, in2, ….",
            category: .filter,
            inputs: [PortSpec("in", .video([.rgba]), doc: "rgba video (converted upstream when needed): in is inputImageTexture, in1 inputImageTexture2, in2 inputImageTexture3, …; with two or more, each is turned upright first", repeatable: true)],
            outputs: [PortSpec("out", .video([.rgba]), doc: "rgba video of the first input's size, alpha from gl_FragColor.a")],
            params: ParamSpec.list([fileParam, sourceParam, uniformsParam, KernelFilter.threadsParam] + SyncParams.all))
        // textures of several inputs meet in one picture: each upright, as ffmpeg autorotates
        info.matchedInputs = [.videoUpright]
        return info
    }()
    static let fileParam = Param<String?>.path("file", role: .input, doc: "shader source file (.glsl)")
    static let sourceParam = Param<String?>("source", doc: "shader source inline (instead of file)")
    static let uniformsParam = Param<JSONValue?>(
        spec: .json("uniforms", default: .object([], nil), doc: "uniform values: numbers, booleans, arrays (vectors; matrices as columns or flat column-major)")) { $0[$1] }

    let kernel: ShaderKernel
    let threads: Int
    public let validationWarnings: [String]
    public let syncPolicy: SyncPolicy
    /// Input textures the shader samples (1 for a one-input shader).
    let textureCount: Int
    var outFormat: VideoFormat?
    /// Per input (input order): its configured format, and a transparent black frame it shows
    /// while it has none (not started yet, or ended and hidden); made on first need.
    var inputFormats: [VideoFormat] = []
    var blanks: [SampleBuffer?] = []
    /// The planes handed to the kernel, reused from frame to frame.
    var sources: [FramePlanes] = []

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
        textureCount = program.inputCount
        try Self.checkPorts(setup.connectedInputs, program: program, node: setup.id)
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
        syncPolicy = SyncPolicy(params: p)
    }

    /// Port name of input `k` (input order): in, in1, in2, ….
    static func port(_ k: Int) -> String { k == 0 ? "in" : "in\(k)" }

    /// Every texture the shader samples has its input connected, and no input is left over:
    /// otherwise an error naming the node, the port and the shader.
    static func checkPorts(_ connected: [String], program: ShaderProgram, node: String) throws {
        // a node built by hand (tests) lists no connections
        guard !connected.isEmpty else { return }
        let names = program.textureNames
        for k in 0..<program.inputCount where !connected.contains(port(k)) {
            let texture = k < names.count ? names[k].map { "'\($0)'" } ?? "texture \(k + 1)" : "texture \(k + 1)"
            throw NodeFailure("shader \(program.fileName) samples \(texture) (input \(k + 1)), but input '\(port(k))' of node '\(node)' is not connected; connect rgba video to \(node).\(port(k))")
        }
        let used = Set((0..<program.inputCount).map(port))
        if let extra = connected.first(where: { !used.contains($0) }) {
            let textures = names.compactMap { $0 }.map { "'\($0)'" }.joined(separator: ", ")
            throw NodeFailure("input '\(extra)' of node '\(node)' is connected, but shader \(program.fileName) samples \(program.inputCount) input texture\(program.inputCount == 1 ? "" : "s")\(textures.isEmpty ? "" : " (\(textures))"), fed by \((0..<program.inputCount).map { "'\(port($0))'" }.joined(separator: ", "))")
        }
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

    /// The compiled shader with its uniform values (for composing point-wise shaders:
    /// `BoundShaderProgram.isPointwise`, `BoundShaderProgram.composing`).
    public var boundProgram: BoundShaderProgram { kernel.program }

    public var synchronizesInputs: Bool { textureCount > 1 }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard textureCount > 1 else { return [inputs[0].format] }
        let ordered = SyncInputOrder.ordered(inputs, in: Self.typeInfo)
        inputFormats = []
        for i in ordered {
            guard let v = i.format.video else { throw NodeFailure("input '\(i.port)': expected rgba video, found \(i.format)") }
            inputFormats.append(v)
        }
        var out = inputFormats[0]
        out.timeBase = try VideoSynchronizer(formats: inputFormats, names: ordered.map(\.port), policy: syncPolicy).timeBase
        outFormat = out
        blanks = Array(repeating: nil, count: inputFormats.count)
        sources = inputFormats.map { _ in FramePlanes(format: .rgba, width: 1, height: 1, data0: Self.placeholder, stride0: 4) }
        return [.video(out)]
    }

    /// Stands in for a plane pointer until a frame's is set (never read).
    nonisolated(unsafe) static let placeholder = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)

    /// One input: frames one by one, as any filter.
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let format = buffer.format
        guard let frame = VideoFrame(consume buffer) else {
            throw NodeFailure("input \(input) takes raw video, got \(format)")
        }
        let kernel = self.kernel, threads = self.threads
        if kernel.runsInPlace {
            // A colour map or other point-wise shader reads only the pixel it writes: in place
            // when the frame is unshared, as the built-in filters do.
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

    /// Several inputs: one output frame per set of synchronised frames.
    public func process(synced: borrowing SyncedFrames, output: NodeOutput) throws {
        guard let outFormat else { throw NodeFailure("shader: not configured") }
        let out = synced.newFrame(outFormat)
        try ShaderFilter.run(kernel, synced: synced, into: out.planes!, sources: &sources, blanks: &blanks, formats: inputFormats, threads: threads)
        try output.send(consume out)
    }

    /// Runs `kernel` on the frames of `synced` (a transparent black frame for an input without
    /// one) into `destination`.
    static func run(_ kernel: ShaderKernel, synced: borrowing SyncedFrames, into destination: FramePlanes, sources: inout [FramePlanes],
                    blanks: inout [SampleBuffer?], formats: [VideoFormat], threads: Int) throws {
        for k in 0..<synced.count {
            if let p = synced.planes(k) {
                sources[k] = p
            } else {
                if blanks[k] == nil {
                    // transparent black: the pool's frame zeroed
                    let w = WritableBuffer(frame: formats[k])
                    let planes = w.planes!
                    for y in 0..<planes.height { (planes.data0 + y * planes.stride0).update(repeating: 0, count: planes.width * 4) }
                    blanks[k] = w.freeze()
                }
                sources[k] = blanks[k]!.planes!
            }
        }
        try kernel.run(sources: sources, destination: destination, threads: threads)
    }
}
