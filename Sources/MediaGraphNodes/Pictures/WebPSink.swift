import MediaGraphCore
import MediaGraphCodecs

/// `webp`: writes an animated WebP (libwebp's WebPAnimEncoder), lossy or lossless, through an
/// output file that appears only when complete.
public final class WebPSink: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "webp",
        doc: "Writes an animated WebP (libwebp): lossy or lossless, quality, loop count, frame times in milliseconds. "
            + "The file is assembled at the end of the stream (memory grows with its compressed size).",
        category: .sink,
        inputs: [PortSpec("in", .video([.rgba, .bgra]), doc: "raw video (other formats get a visible convert)")],
        params: ParamSpec.list(pathParam, losslessParam, qualityParam, methodParam, loopParam),
        // an animated WebP has no display rotation: the frames are turned upright, as ffmpeg's autorotate does
        inputShape: RotateNode.uprightInputs)
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output .webp file")
    static let losslessParam = Param<Bool>("lossless", default: false, doc: "lossless (VP8L) instead of lossy (VP8) frames")
    static let qualityParam = Param<Double>("quality", 0...100, default: 75, doc: "lossy quality, or lossless effort")
    static let methodParam = Param<Int>("method", 0...6, default: 4, doc: "0 fastest ... 6 smallest")
    static let loopParam = Param<Int>("loop", 0...65535, default: 0, doc: "loop count: 0 forever")

    let path: String
    var settings = WebPAnimationSettings()
    var file: OutputFile?
    var encoder: WebPAnimationEncoder?
    var format: VideoFormat!
    var endTime = 0.0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        path = p[Self.pathParam]
        settings.lossless = p[Self.losslessParam]
        settings.quality = p[Self.qualityParam]
        settings.method = p[Self.methodParam]
        settings.loop = p[Self.loopParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        format = inputs[0].format.video
        let limit = WebPAnimationEncoder.maxSide
        guard format.width <= limit, format.height <= limit else {
            throw NodeFailure("a WebP is at most \(limit) pixels per side; the input is \(format.width)x\(format.height) (add a scale node)")
        }
        return []
    }

    public func start() throws {
        file = try OutputFile(path: path)
        do {
            encoder = try WebPAnimationEncoder(width: format.width, height: format.height, settings: settings)
        } catch let e as CodecError { throw NodeFailure(e.message) }
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let time = frame.seconds
        let duration = frame.durationSeconds(defaultRate: format.frameRate)
        endTime = max(endTime, time + duration)
        let planes = frame.planes
        do {
            try encoder!.add(planes.data0, stride: planes.stride0, bgra: planes.format == .bgra, time: time)
        } catch let e as CodecError { throw NodeFailure(e.message) }
    }

    public func finish(output: NodeOutput) throws {
        guard let encoder, let file else { return }
        if encoder.frames == 0 { throw NodeFailure("no frames reached the WebP sink: nothing to write to \(file.displayName)") }
        let bytes: [UInt8]
        do { bytes = try encoder.finish(endTime: endTime) } catch let e as CodecError { throw NodeFailure(e.message) }
        try file.write(bytes)
        try file.commit()
    }

    public func abort() { file?.discard() }
}
