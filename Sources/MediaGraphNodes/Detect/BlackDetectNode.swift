import MediaGraphCore
import MediaGraphKernels

/// `blackdetect`: finds stretches of black pictures at least a duration long, as ffmpeg 5.1's
/// `blackdetect` does, with its numbers: a pixel is black when its luma is at most
/// `pixel-threshold` of the way from black to white (limited range: 16 + 219·t, full range
/// 255·t, truncated; scaled for 10 bits), a picture is black when at least `picture-ratio` of
/// its pixels are, a stretch starts at its first black picture's time and ends at the next
/// picture's (or, at the end of the stream, at the last picture's, as ffmpeg). The frames pass
/// unchanged; the spans go to the notes and to `path` (`DetectedSpans`).
public final class BlackDetectNode: RegisteredNode, VideoNode {
    static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p, .gray, .yuv420p10, .yuv422p10, .yuv444p10]
    public static let typeInfo = NodeTypeInfo(
        name: "blackdetect",
        doc: "Finds black stretches: pictures at least 'picture-ratio' black for at least 'duration' seconds (ffmpeg's blackdetect, the same spans); the frames pass unchanged, the spans go to the run's notes and to 'path' as JSON.",
        category: .filter,
        inputs: [PortSpec("in", .video(formats), doc: "raw video (RGB is converted)")],
        outputs: [PortSpec("out", .video(formats), doc: "the same frames")],
        params: ParamSpec.list(durationParam, pictureRatioParam, pixelThresholdParam, pathParam))
    static let durationParam = Param<Double>("duration", 0...86400, default: 2, doc: "seconds a black stretch must last to be reported (ffmpeg's d)")
    static let pictureRatioParam = Param<Double>("picture-ratio", 0...1, default: 0.98, doc: "the share of a picture's pixels that must be black for it to count as black (ffmpeg's pic_th)")
    static let pixelThresholdParam = Param<Double>("pixel-threshold", 0...1, default: 0.10, doc: "a pixel is black when its luma is at most this far from black to white (ffmpeg's pix_th)")
    static let pathParam = DetectedSpans.pathParam("black stretches")

    let minSeconds: Double
    let pictureRatio: Double
    let pixelThreshold: Double
    let spans: DetectedSpans
    var threshold: Int = 0
    var highDepth = false
    var minTicks: Int64 = 0
    var timeBase = Rational(1, 1)
    var blackStart: Int64?
    var lastPTS: Int64 = 0
    var sawFrame = false

    public init(setup: NodeSetup) throws {
        let p = setup.params
        minSeconds = p[Self.durationParam]
        pictureRatio = p[Self.pictureRatioParam]
        pixelThreshold = p[Self.pixelThresholdParam]
        spans = DetectedSpans(path: p[Self.pathParam], kind: "black") { _, start, end, length in
            "black_start:\(start) black_end:\(end) black_duration:\(length)"
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        highDepth = v.pixelFormat.bitDepth > 8
        let maxValue = Double((1 << v.pixelFormat.bitDepth) - 1)
        let factor = Double(1 << (v.pixelFormat.bitDepth - 8))
        // ffmpeg's unsigned int from a double: truncated
        threshold = Int(v.range == .full ? pixelThreshold * maxValue : 16 * factor + pixelThreshold * 219 * factor)
        return [inputs[0].format]
    }

    public func start() throws { try spans.start() }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let pts = frame.pts
        if pts != BufferMetadata.noTime {
            if !sawFrame {
                timeBase = frame.timeBase
                // ffmpeg: seconds over the time base, truncated to whole ticks
                minTicks = Int64(minSeconds * Double(timeBase.den) / Double(timeBase.num))
                sawFrame = true
            }
            let planes = frame.planes
            let black = highDepth
                ? SamplesAtMost.count16(planes.data0, stride: planes.stride0, width: planes.width, height: planes.height, threshold: UInt16(clamping: threshold))
                : SamplesAtMost.count8(planes.data0, stride: planes.stride0, width: planes.width, height: planes.height, threshold: UInt8(clamping: threshold))
            let ratio = Double(black) / Double(planes.width * planes.height)
            if ratio >= pictureRatio {
                if blackStart == nil { blackStart = pts }
            } else if let start = blackStart {
                try report(start: start, end: pts)
                blackStart = nil
            }
            lastPTS = pts
        }
        try output.send(frame)
    }

    func report(start: Int64, end: Int64) throws {
        if end - start >= minTicks { try spans.record(start: start, end: end, timeBase: timeBase) }
    }

    public func finish(output: NodeOutput) throws {
        // ffmpeg 5.1 ends a stretch still open at the end at the last picture's time
        if let start = blackStart { try report(start: start, end: lastPTS) }
        blackStart = nil
        try spans.finish()
    }

    public func abort() { spans.abort() }

    public var runNotes: [String] { spans.notes }
}
