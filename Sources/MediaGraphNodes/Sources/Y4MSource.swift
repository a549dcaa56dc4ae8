import MediaGraphCore

/// `y4msrc`: reads a YUV4MPEG2 file or stdin ("-"). Size, rate, aspect, chroma format and
/// siting and range come from the stream header (`Y4MReader`); a truncated last frame is an
/// error naming the frame and byte offset.
public final class Y4MSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "y4msrc",
        doc: "Reads YUV4MPEG2 (4:2:0, 4:2:2, 4:4:4, mono; 8-bit) from a file or standard input.",
        category: .source,
        outputs: [PortSpec("out", .video([.yuv420p, .yuv422p, .yuv444p, .gray]), doc: "raw video")],
        params: [.path("path", role: .input, required: true, doc: "input file, or \"-\" for standard input")])

    let reader: Y4MReader?
    let format: VideoFormat

    public init(setup: NodeSetup) throws {
        let path = setup.params.path("path")!
        if path == "-" && setup.dryRun {
            // validating only: standard input is not read; its header decides the format at run time
            reader = nil
            format = VideoFormat(pixelFormat: .yuv420p, width: 2, height: 2)
            return
        }
        let file = try InputFile(path: path)
        file.stop = setup.stop
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
