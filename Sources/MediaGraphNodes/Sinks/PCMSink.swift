import MediaGraphCore

/// `pcmsink`: writes raw audio samples without a header, interleaved, as `ffmpeg -f f32le` (or
/// s16le, …) reads them. Planar audio is made interleaved by an inserted `resample`.
public final class PCMSink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "pcmsink",
        doc: "Writes headerless interleaved raw audio (ffmpeg -f f32le, s16le, …) to a file or standard output.",
        category: .sink,
        inputs: [PortSpec("in", .audio([.f32, .s16, .s32, .f64, .u8]), doc: "raw interleaved audio (planar is converted)")],
        params: [pathParam.spec])
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output file, or \"-\" for standard output")

    let path: String
    var file: OutputFile?

    public init(setup: NodeSetup) throws { path = setup.params[Self.pathParam] }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    public func start() throws { file = try OutputFile(path: path) }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        try buffer.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return }
            try file!.write(base, count: raw.count)
        }
    }

    public func finish(output: NodeOutput) throws { try file?.commit() }
    public func abort() { file?.discard() }
}
