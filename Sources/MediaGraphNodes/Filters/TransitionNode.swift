import MediaGraphCore
import MediaGraphShader

/// `transition`: a gl-transitions shader (`vec4 transition(vec2 uv)` with `getFromColor`,
/// `getToColor`, `progress`) from one input to the other over `duration` seconds from `offset`.
/// `progress` runs 0→1 per output frame as a uniform the kernel reads each frame: the shader is
/// compiled once.
public final class TransitionNode: RegisteredNode, SynchronizedVideoNode {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
        name: "transition", doc: "A gl-transitions shader between two inputs: 'from' until 'offset', 'to' after 'offset' + 'duration', the shader in between (progress 0→1). Docs/shaders.md.",
        category: .filter,
        inputs: [PortSpec("from", .video([.rgba]), doc: "rgba video shown before the transition (its frames give the output times)"),
                 PortSpec("to", .video([.rgba]), doc: "rgba video shown after it")],
        outputs: [PortSpec("out", .video([.rgba]), doc: "rgba video of the 'from' input's size")],
        params: ParamSpec.list([fileParam, sourceParam, uniformsParam, durationParam, offsetParam, KernelFilter.threadsParam] + SyncParams.all))
        // both clips upright, as ffmpeg autorotates its inputs
        info.matchedInputs = [.videoUpright]
        return info
    }()
    static let fileParam = Param<String?>.path("file", role: .input, doc: "gl-transitions shader file (.glsl); default: a cross-fade")
    static let sourceParam = Param<String?>("source", doc: "the transition's source inline (instead of file)")
    static let uniformsParam = Param<JSONValue?>(
        spec: .json("uniforms", default: .object([], nil), doc: "the transition's own uniforms (progress and ratio are set by the node)")) { $0[$1] }
    static let durationParam = Param<Double>("duration", 0.001...86_400, default: 1, doc: "seconds the transition lasts")
    static let offsetParam = Param<Double>("offset", 0...1_000_000, default: 0, doc: "seconds (output time) at which the transition starts; unless 'offsets' is given, 'to' starts there too")

    let kernel: ShaderKernel
    let threads: Int
    let duration: Double
    let offset: Double
    public let syncPolicy: SyncPolicy
    public let validationWarnings: [String]
    var outFormat: VideoFormat?
    var inputFormats: [VideoFormat] = []
    var blanks: [SampleBuffer?] = [nil, nil]
    var sources: [FramePlanes] = []

    public init(setup: NodeSetup) throws {
        let p = setup.params
        let (text, name) = try TransitionProgram.text(file: p[Self.fileParam], source: p[Self.sourceParam], inline: "\(setup.id).source",
                                                      fileParam: "file", sourceParam: "source")
        let program = try TransitionProgram(text: text, name: name, uniforms: p[Self.uniformsParam] ?? .object([], nil), uniformsParam: "uniforms")
        validationWarnings = program.warnings
        kernel = program.kernel
        threads = p[KernelFilter.threadsParam]
        duration = p[Self.durationParam]
        offset = p[Self.offsetParam]
        var policy = SyncPolicy(params: p)
        if policy.offsets.isEmpty { policy.offsets = [0, offset] }
        syncPolicy = policy
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        let ordered = SyncInputOrder.ordered(inputs, in: Self.typeInfo)
        inputFormats = []
        for i in ordered {
            guard let v = i.format.video else { throw NodeFailure("input '\(i.port)': expected rgba video, found \(i.format)") }
            inputFormats.append(v)
        }
        guard inputFormats.count == 2 else { throw NodeFailure("the transition node takes two inputs, 'from' and 'to'; connected: \(ordered.map(\.port))") }
        var out = inputFormats[0]
        out.timeBase = try VideoSynchronizer(formats: inputFormats, names: ordered.map(\.port), policy: syncPolicy).timeBase
        outFormat = out
        sources = inputFormats.map { _ in FramePlanes(format: .rgba, width: 1, height: 1, data0: ShaderFilter.placeholder, stride0: 4) }
        return [.video(out)]
    }

    public func process(synced: borrowing SyncedFrames, output: NodeOutput) throws {
        guard let outFormat else { throw NodeFailure("transition: not configured") }
        let t = Double(synced.pts) * Double(synced.timeBase.num) / Double(synced.timeBase.den)
        let progress = min(max((t - offset) / duration, 0), 1)
        if t < offset, synced.has(0), var from = synced.takeFirst() {
            // before the transition: the first input as it is (no copy when unshared)
            from.metadata.format = .video(outFormat)
            return try output.send(consume from)
        }
        if progress >= 1, let to = synced.buffer(1), let f = to.videoFormat, f.width == outFormat.width, f.height == outFormat.height {
            // after it: the second input, copied (it may be shown again at the next output time)
            var w = to.writableCopy()
            synced.stamp(&w.metadata)
            w.metadata.format = .video(outFormat)
            return try output.send(consume w)
        }
        try kernel.setUniform("progress", Float(progress))
        let out = synced.newFrame(outFormat)
        try ShaderFilter.run(kernel, synced: synced, into: out.planes!, sources: &sources, blanks: &blanks, formats: inputFormats, threads: threads)
        try output.send(consume out)
    }
}
