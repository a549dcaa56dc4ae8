import MediaGraphCore

/// `rawsrc`: headerless raw frames (as `ffmpeg -f rawvideo` writes them) from a file or stdin.
public final class RawSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "rawsrc",
        doc: "Reads headerless raw video frames (ffmpeg -f rawvideo) in any supported pixel format.",
        category: .source,
        outputs: [PortSpec("out", .anyVideo, doc: "raw video")],
        params: [
            .path("path", role: .input, required: true, doc: "input file, or \"-\" for standard input"),
            .int("width", 1...32768, required: true, doc: "frame width"),
            .int("height", 1...32768, required: true, doc: "frame height"),
            .choice("format", PixelFormat.allCases.map(\.rawValue), default: "yuv420p", doc: "pixel format"),
            .rational("rate", default: "25/1", doc: "frame rate"),
            .choice("range", ["limited", "full"], doc: "YUV range (default: limited for YUV, full for RGB)"),
        ])

    let file: InputFile
    let format: VideoFormat
    let frameBytes: Int
    var index = 0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        let pf = PixelFormat(rawValue: p.string("format", default: "yuv420p"))!
        format = VideoFormat(pixelFormat: pf, width: p.int("width")!, height: p.int("height")!,
                             frameRate: p.rational("rate") ?? Rational(25, 1),
                             range: p.string("range").flatMap(ColorRange.init(rawValue:)))
        frameBytes = pf.packedFrameSize(width: format.width, height: format.height)
        file = try InputFile(path: p.path("path")!)
        file.stop = setup.stop
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        if try file.isAtEnd() { return false }
        let buffer = try FrameIO.readFrame(file, format: format, index: index,
                                           hint: " (\(format.pixelFormat) \(format.width)x\(format.height) is \(frameBytes) bytes a frame; wrong size or format?)")
        index += 1
        try output.send(consume buffer)
        return true
    }
}
