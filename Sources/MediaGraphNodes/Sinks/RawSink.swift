import MediaGraphCore

/// `rawsink`: writes frames packed without a header, as `ffmpeg -f rawvideo` reads them.
public final class RawSink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "rawsink",
        doc: "Writes headerless raw video frames (ffmpeg -f rawvideo) to a file or standard output.",
        category: .sink,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video")],
        params: [.path("path", role: .output, required: true, doc: "output file, or \"-\" for standard output")])

    let path: String
    var file: OutputFile?

    public init(setup: NodeSetup) throws { path = setup.params.path("path")! }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    public func start() throws { file = try OutputFile(path: path) }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        try FrameIO.write(buffer.planes!, to: file!)
    }

    public func finish(output: NodeOutput) throws { try file?.commit() }
    public func abort() { file?.discard() }
}
