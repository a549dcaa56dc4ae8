import MediaGraphCore

/// `fps`: constant frame rate by dropping and repeating frames, as ffmpeg's `fps` filter (the
/// default `round=near`, `eof_action=round`). Each frame's time is rounded to the nearest output
/// tick; output tick n shows the latest frame whose rounded time is at or before n, from the first
/// frame's tick to the rounded end of the last frame. A repeated frame is a copy (a frame's memory
/// belongs to one buffer); its last showing passes the frame itself on.
public final class FrameRateNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "fps",
        doc: "Converts video to a constant frame rate by dropping and repeating frames (ffmpeg's fps filter, rounding to the nearest frame time).",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video, any frame rate (variable too)")],
        outputs: [PortSpec("out", .anyVideo, doc: "the frames at 'rate', time base 1/rate")],
        params: ParamSpec.list(rateParam))
    static let rateParam = Param<Rational?>.rational("rate", required: true, doc: "output frames per second (\"30\", \"30000/1001\", \"29.97\")")

    let rate: Rational
    var output: VideoFormat!
    /// The input time base in output ticks (input ticks × scale = output ticks).
    var scale = Rational(1, 1)
    /// The frame waiting to be shown, its rounded tick, and its end in input ticks.
    var held: SampleBuffer?
    var heldEnd: Int64?
    /// The next output tick (nil before the first frame).
    var next: Int64?
    var nominalInputDuration: Int64 = 0
    private(set) var repeated = 0, dropped = 0

    public init(setup: NodeSetup) throws {
        guard let r = setup.params[Self.rateParam], r.num > 0, r.den > 0 else { throw NodeFailure("param 'rate': must be more than 0") }
        rate = r
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard var v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        let tb = v.timeBase
        // output ticks per input tick: timeBase × rate, both small rationals
        let (num, o1) = tb.num.multipliedReportingOverflow(by: rate.num)
        let (den, o2) = tb.den.multipliedReportingOverflow(by: rate.den)
        guard !o1, !o2, num > 0, den > 0 else { throw NodeFailure("the input time base \(tb) and 'rate' \(rate) are too far apart to convert between") }
        scale = Rational(num, den)
        // input ticks per frame, for a last frame that does not say how long it lasts
        if v.frameRate.num > 0 {
            let ticks = Double(tb.den) * Double(v.frameRate.den) / (Double(tb.num) * Double(v.frameRate.num))
            nominalInputDuration = ticks.isFinite && ticks < 1e15 ? max(1, Int64(ticks.rounded())) : 0
        }
        v.frameRate = rate
        v.timeBase = Rational(rate.den, rate.num)
        output = v
        return [.video(v)]
    }

    /// Input ticks as output ticks, rounded to nearest (halves away from zero, as libavutil's
    /// AV_ROUND_NEAR_INF); nil when it does not fit.
    func tick(_ t: Int64) -> Int64? { MediaTime.rescale(t, timeBase: scale, to: 1) }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        // a frame without a time cannot be placed; ffmpeg drops those before the first too
        guard buffer.pts != SampleBuffer.noTime, let t = tick(buffer.pts) else { dropped += 1; return }
        let end = buffer.duration > 0 ? buffer.pts &+ buffer.duration : buffer.pts &+ nominalInputDuration
        if next == nil { next = t }
        try show(until: t, output: output)
        if held != nil { dropped += 1 }
        held = buffer
        heldEnd = end
    }

    /// Sends the held frame at every tick before `limit`; the last showing passes it on.
    private func show(until limit: Int64, output: NodeOutput) throws {
        guard var n = next, n < limit, held != nil else { return }
        while n + 1 < limit {
            var copy = held!.writableCopy()
            Self.stamp(&copy.metadata, n, output: self.output)
            try output.send(consume copy)
            repeated += 1
            n += 1
        }
        let frame = held.take()!
        try output.send(SampleBuffer.restamped(consume frame) { Self.stamp(&$0, n, output: self.output) })
        next = n + 1
    }

    static func stamp(_ m: inout BufferMetadata, _ n: Int64, output: VideoFormat) {
        m.format = .video(output)
        m.pts = n
        m.dts = n
        m.duration = 1
        m.timeBase = output.timeBase
    }

    public func finish(output: NodeOutput) throws {
        guard let end = heldEnd, let limit = tick(end) else { return }
        try show(until: limit, output: output)
        if held != nil { dropped += 1; held = nil }
    }

    public var runNotes: [String] {
        repeated == 0 && dropped == 0 ? [] : ["\(repeated) frame\(repeated == 1 ? "" : "s") repeated, \(dropped) dropped to make \(rate) frames per second"]
    }
}
