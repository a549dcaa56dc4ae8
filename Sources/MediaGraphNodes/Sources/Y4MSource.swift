import MediaGraphCore

/// `y4msrc`: reads a YUV4MPEG2 file or stdin ("-"). Size, rate, aspect and chroma format come
/// from the stream header; a truncated last frame is an error naming the frame and byte offset.
public final class Y4MSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "y4msrc",
        doc: "Reads YUV4MPEG2 (4:2:0, 4:2:2, 4:4:4, mono; 8-bit) from a file or standard input.",
        category: .source,
        outputs: [PortSpec("out", .video([.yuv420p, .yuv422p, .yuv444p, .gray]), doc: "raw video")],
        params: [.path("path", role: .input, required: true, doc: "input file, or \"-\" for standard input")])

    let file: InputFile?
    let format: VideoFormat
    var index = 0

    public init(setup: NodeSetup) throws {
        let path = setup.params.path("path")!
        if path == "-" && setup.dryRun {
            // validating only: standard input is not read; its header decides the format at run time
            file = nil
            format = VideoFormat(pixelFormat: .yuv420p, width: 2, height: 2)
            return
        }
        let file = try InputFile(path: path)
        self.file = file
        file.stop = setup.stop
        guard let line = try file.readLine(limit: 4096) else {
            throw NodeFailure("\(file.displayName) is empty: expected a YUV4MPEG2 header")
        }
        let h = try Y4MHeader.parse(line, source: file.displayName)
        if h.pixelFormat.chromaShift.x > 0 && h.width % 2 != 0 || h.pixelFormat.chromaShift.y > 0 && h.height % 2 != 0 {
            // chroma planes round up; supported as ffmpeg does
        }
        format = VideoFormat(pixelFormat: h.pixelFormat, width: h.width, height: h.height, frameRate: h.rate,
                             range: h.range, sampleAspect: h.aspect)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        guard let file else { return false }
        let at = file.offset
        guard let line = try file.readLine(limit: 1024) else { return false }
        guard line.count >= 5, String(decoding: line.prefix(5), as: UTF8.self) == "FRAME" else {
            throw NodeFailure("\(file.displayName): frame \(index) at byte \(at): expected \"FRAME\", found \"\(String(decoding: line.prefix(16), as: UTF8.self))\"")
        }
        let buffer = try FrameIO.readFrame(file, format: format, index: index)
        index += 1
        try output.send(consume buffer)
        return true
    }
}
