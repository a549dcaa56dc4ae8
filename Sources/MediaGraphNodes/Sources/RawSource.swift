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
            .int("width", 1...MediaLimits.maxDimension, required: true, doc: "frame width"),
            .int("height", 1...MediaLimits.maxDimension, required: true, doc: "frame height (width × height at most 2^26 pixels)"),
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
        let pf = PixelFormat(rawValue: p.string("format", default: "yuv420p")) ?? .yuv420p
        let width = p.int("width") ?? 0, height = p.int("height") ?? 0
        // The params' ranges bound each side; the area needs a check of its own.
        if let problem = MediaLimits.frameSizeProblem(width: width, height: height) {
            throw NodeFailure("params 'width' and 'height': \(problem)")
        }
        let rate = p.rational("rate") ?? Rational(25, 1)
        if let problem = MediaLimits.rateProblem("frame rate", num: rate.num, den: rate.den) {
            throw NodeFailure("param 'rate': \(problem)")
        }
        format = VideoFormat(pixelFormat: pf, width: width, height: height, frameRate: rate,
                             range: p.string("range").flatMap(ColorRange.init(rawValue:)),
                             sampleAspect: Rational(0, 1))   // unknown, as ffmpeg's rawvideo demuxer has it
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
