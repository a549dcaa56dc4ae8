import MediaGraphCore

/// `fade`: fades the picture in from black or out to black over a span of time, with ffmpeg
/// 5.1's `fade` arithmetic (time based, `st` and `d`): start and duration rounded to ticks of the
/// stream's time base, a 16-bit factor per frame `(pts − start) · 65535 / duration` truncated;
/// Y' moves toward black (16 in limited range, 0 in full), Cb and Cr toward 128, every byte of
/// packed RGB toward 0 (alpha too, as ffmpeg: a fade to transparent black), each rounded as
/// ffmpeg rounds. Before the span a fade in is black and a fade out untouched; after it, the
/// reverse. In place when the frame is not shared.
public final class FadeNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "fade",
        doc: "Fades the picture in from black or out to black from 'start' for 'duration' seconds (ffmpeg's fade=t=in:st=…:d=…, the same bytes).",
        category: .filter,
        inputs: [PortSpec("in", .video([.yuv420p, .yuv422p, .yuv444p, .rgba, .bgra]), doc: "raw video")],
        outputs: [PortSpec("out", .video([.yuv420p, .yuv422p, .yuv444p, .rgba, .bgra]), doc: "the faded frames (in place when possible)")],
        params: ParamSpec.list(typeParam, startParam, durationParam))
    static let typeParam = Param<String>("type", oneOf: ["in", "out"], default: "in", doc: "in: from black; out: to black")
    static let startParam = Param<Double>("start", 0...1_000_000, default: 0, doc: "seconds on the stream's clock where the fade begins")
    static let durationParam = Param<Double>("duration", 0.001...1_000_000, default: 1, doc: "seconds the fade lasts")

    let fadeIn: Bool
    /// Start and length in microseconds, as ffmpeg holds them.
    let start: Int64, length: Int64
    var blackLevel: Int32 = 0
    var isRGB = false

    public init(setup: NodeSetup) throws {
        let p = setup.params
        fadeIn = p[Self.typeParam] == "in"
        start = Int64((p[Self.startParam] * 1_000_000).rounded())
        length = Int64((p[Self.durationParam] * 1_000_000).rounded())
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        isRGB = v.pixelFormat.isRGB
        // limited-range Y' is black at 16; full range (a JPEG's) and RGB at 0
        blackLevel = !isRGB && v.range != .full ? 16 : 0
        return [inputs[0].format]
    }

    /// The frame's 16-bit factor: 0 is black, 65535 the picture. As ffmpeg 5.1: `start` and
    /// `duration` rounded to the nearest tick of the stream's time base, then
    /// `(pts − start) · 65535 / duration` in whole ticks, truncated.
    func factor(pts: Int64, timeBase: Rational) -> Int32 {
        // microseconds as ticks: µs · den / (num · 10⁶), to nearest
        let ticksPerMicrosecond = Rational(timeBase.den, timeBase.num * 1_000_000)
        let s = MediaTime.rescale(start, timeBase: ticksPerMicrosecond, to: 1) ?? 0
        let d = max(1, MediaTime.rescale(length, timeBase: ticksPerMicrosecond, to: 1) ?? 1)
        var f: Int64 = 0
        if pts != SampleBuffer.noTime && pts >= s { f = pts - s > d ? 65535 : (pts - s) * 65535 / d }
        let clipped = Int32(max(0, min(65535, f)))
        return fadeIn ? clipped : 65535 - clipped
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let f = factor(pts: frame.pts, timeBase: frame.timeBase)
        guard f < 65535 else { return try output.send(consume frame) }
        let black = blackLevel, rgb = isRGB
        try output.sendTransformed(consume frame) { src, dst, _ in
            if rgb {
                // every byte toward 0, alpha too: ffmpeg 5.1 fades packed RGB to transparent black
                Self.scale(plane: 0, src, dst, factor: f, level: 0, add: 32768)
            } else {
                Self.scale(plane: 0, src, dst, factor: f, level: black, add: (black << 16) + 32768)
                // ffmpeg adds 8421367 to chroma, not 128.5·65536 = 8421376 as its comment says
                Self.scale(plane: 1, src, dst, factor: f, level: 128, add: 8_421_367)
                Self.scale(plane: 2, src, dst, factor: f, level: 128, add: 8_421_367)
            }
        }
    }

    /// x' = ((x − level)·f + add) >> 16 on every byte of a plane.
    static func scale(plane p: Int, _ src: FramePlanes, _ dst: FramePlanes, factor f: Int32, level: Int32, add: Int32) {
        let w = src.rowBytes(p), h = src.planeSize(p).height
        for y in 0..<h {
            let s = src.data(p) + y * src.stride(p), d = dst.data(p) + y * dst.stride(p)
            for x in 0..<w { d[x] = UInt8(truncatingIfNeeded: ((Int32(s[x]) - level) * f + add) >> 16) }
        }
    }
}
