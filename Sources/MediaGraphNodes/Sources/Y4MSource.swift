import MediaGraphCore

/// `y4msrc`: reads a YUV4MPEG2 file or stdin ("-"). Size, rate, aspect, chroma format and
/// siting and range come from the stream header (`Y4MReader`); a truncated last frame is an
/// error naming the frame and byte offset.
public final class Y4MSource: SourceNode, RegisteredNode, OnceReadableInput {
    public static let typeInfo = NodeTypeInfo(
        name: "y4msrc",
        doc: "Reads YUV4MPEG2 (4:2:0, 4:2:2, 4:4:4, mono; 8-bit) from a file or standard input.",
        category: .source,
        outputs: [PortSpec("out", .video([.yuv420p, .yuv422p, .yuv444p, .gray]), doc: "raw video")],
        params: [pathParam.spec])
    static let pathParam = Param<String>.requiredPath("path", role: .input, doc: "input file, or \"-\" for standard input")

    let path: String
    let stop: StopFlag
    var reader: Y4MReader?
    var format: VideoFormat

    public init(setup: NodeSetup) throws {
        path = setup.params[Self.pathParam]
        stop = setup.stop
        // standard input is read once, at run time (`readHeader`): its header decides the format;
        // until then (validate, dot) the format is provisional
        format = VideoFormat(pixelFormat: .yuv420p, width: 2, height: 2)
        if path != "-" { try readHeader() }
    }

    public func readHeader() throws {
        guard reader == nil else { return }
        let file = try InputFile(path: path)
        file.stop = stop
        let reader = try Y4MReader(file: file)
        self.reader = reader
        format = reader.format
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        guard let reader, let buffer = try reader.next() else { return false }
        try output.send(consume buffer)
        return true
    }
}
