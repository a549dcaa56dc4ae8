import MediaGraphCore

/// `y4msink`: writes YUV4MPEG2 to a file (atomically) or stdout ("-").
public final class Y4MSink: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "y4msink",
        doc: "Writes YUV4MPEG2 to a file (appears only when complete) or standard output.",
        category: .sink,
        inputs: [PortSpec("in", .video([.yuv420p, .yuv422p, .yuv444p, .gray]), doc: "raw video; a stream with a display rotation is turned upright first (the file has no place for it; ffmpeg autorotates too)")],
        params: [pathParam.spec],
        inputShape: RotateNode.uprightInputs)
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output file, or \"-\" for standard output")

    let path: String
    var file: OutputFile?
    var format: VideoFormat!

    public init(setup: NodeSetup) throws {
        path = setup.params[Self.pathParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        format = inputs[0].format.video
        return []
    }

    public func start() throws {
        file = try OutputFile(path: path)
        try file!.write(Y4MHeader.format(format) + "\n")
    }

    static let frameLine = Array("FRAME\n".utf8)

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        try file!.write(Y4MSink.frameLine)
        try FrameIO.write(frame.planes, to: file!)
    }

    public func finish(output: NodeOutput) throws { try file?.commit() }
    public func abort() { file?.discard() }
}
