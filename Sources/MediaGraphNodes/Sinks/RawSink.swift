import MediaGraphCore

/// `rawsink`: writes frames packed without a header, as `ffmpeg -f rawvideo` reads them.
public final class RawSink: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "rawsink",
        doc: "Writes headerless raw video frames (ffmpeg -f rawvideo) to a file or standard output.",
        category: .sink,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video; a stream with a display rotation is turned upright first (the file has no place for it; ffmpeg autorotates too)")],
        params: [pathParam.spec],
        inputShape: RotateNode.uprightInputs)
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output file, or \"-\" for standard output")

    let path: String
    var file: OutputFile?

    public init(setup: NodeSetup) throws { path = setup.params[Self.pathParam] }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    public func start() throws { file = try OutputFile(path: path) }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        try FrameIO.write(frame.planes, to: file!)
    }

    public func finish(output: NodeOutput) throws { try file?.commit() }
    public func abort() { file?.discard() }
}
