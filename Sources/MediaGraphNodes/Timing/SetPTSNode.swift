import MediaGraphCore

/// `setpts`: each video frame's presentation time from an ffmpeg expression (ffmpeg 5.1's
/// `setpts`, see `PTSExpression`): `PTS/2` plays twice as fast, `PTS-STARTPTS` starts at zero,
/// `N/(25*TB)` makes 25 frames a second. Pictures pass unchanged.
///
/// A frame's duration is where the next frame now starts (ffmpeg leaves durations as they were,
/// so `PTS/2` would keep full-length frames); the last frame ends where the expression puts the
/// input's end, evaluated as ffmpeg does at the end of the stream (`N` the frame count, `PTS`
/// the end). So the frame is held until the next one arrives. Times that no muxer can take are
/// errors naming the frame (`PTSCheck`).
public final class SetPTSNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "setpts",
        doc: "Sets each video frame's time from an expression, as ffmpeg's setpts: \"PTS/2\" doubles the speed, \"PTS-STARTPTS\" starts at zero, \"N/(25*TB)\" makes 25 frames a second; durations follow.",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video")],
        outputs: [PortSpec("out", .anyVideo, doc: "the same frames at their new times, in the input's time base")],
        params: ParamSpec.list(exprParam))
    static let exprParam = ExpressionParam.with("expr", default: "PTS", doc: "the new time in ticks of TB: an expression of PTS, N, STARTPTS, T, STARTT, PREV_INPTS, PREV_INT, PREV_OUTPTS, PREV_OUTT, TB, FRAME_RATE (FR), INTERLACED, POS, RTCTIME, RTCSTART (ffmpeg's setpts variables; truncated to a tick)")

    var expr: PTSExpression
    var timeBase = Rational(1, 1)
    /// Input ticks of a frame that does not say how long it lasts.
    var nominal: Int64 = 1
    /// The frame waiting for the next one's time (its duration), with its new time.
    var held: SampleBuffer?
    var heldPTS: Int64 = 0
    /// Where the last input frame ended, in input ticks.
    var inputEnd: Int64 = BufferMetadata.noTime

    public init(setup: NodeSetup) throws {
        expr = try PTSExpression(setup.params[Self.exprParam], param: "expr", audio: false)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard var v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        timeBase = v.timeBase
        expr.configure(timeBase: v.timeBase, frameRate: v.frameRate, sampleRate: nil)
        if v.frameRate.num > 0, v.frameRate.den > 0 {
            let ticks = Double(v.timeBase.den) * Double(v.frameRate.den) / (Double(v.timeBase.num) * Double(v.frameRate.num))
            nominal = ticks.isFinite && ticks < 1e15 ? max(1, Int64(ticks.rounded())) : 1
        }
        v.frameRate = Self.nominalRate(expr, input: v.frameRate, ticks: nominal)
        return [.video(v)]
    }

    /// The frame rate the expression makes of two frames at the input's nominal rate from time
    /// zero (a nominal rate for encoders; frames keep their own times): the input's when that
    /// does not give a later second frame.
    static func nominalRate(_ e: PTSExpression, input: Rational, ticks: Int64) -> Rational {
        var e = e
        guard input.num > 0, input.den > 0, let a = PTSExpression.ticks(e.evaluate(pts: 0, interlaced: false, samples: 0)) else { return input }
        e.advance(inPTS: 0, outPTS: a, samples: 0)
        guard let b = PTSExpression.ticks(e.evaluate(pts: ticks, interlaced: false, samples: 0)), b > a else { return input }
        let (num, o1) = input.num.multipliedReportingOverflow(by: ticks)
        let (den, o2) = input.den.multipliedReportingOverflow(by: b - a)
        return o1 || o2 ? input : Rational(num, den)
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        var pts = buffer.pts, length = buffer.duration
        if buffer.timeBase != timeBase, pts != BufferMetadata.noTime {
            // a buffer tick in ours: its time base over ours
            let b = buffer.timeBase, scale = Rational(b.num * timeBase.den, b.den * timeBase.num)
            pts = MediaTime.rescale(pts, timeBase: scale, to: 1) ?? BufferMetadata.noTime
            length = MediaTime.rescale(length, timeBase: scale, to: 1) ?? 0
        }
        let d = expr.evaluate(pts: pts, interlaced: buffer.flags.contains(.interlaced), samples: 0)
        let out = try PTSCheck.output(d, frame: expr.frames, inPTS: pts, previous: held == nil ? nil : heldPTS,
                                      strictlyLater: true, timeBase: timeBase, expression: expr.expression)
        expr.advance(inPTS: pts, outPTS: out, samples: 0)
        if pts != BufferMetadata.noTime { inputEnd = pts &+ (length > 0 ? length : nominal) }
        try sendHeld(until: out, output: output)
        let tb = timeBase
        held = SampleBuffer.restamped(consume buffer) { m in
            m.pts = out; m.dts = out; m.timeBase = tb
            m.duration = length
        }
        heldPTS = out
    }

    /// Sends the held frame, lasting until `end` (its own duration when `end` is not later).
    private func sendHeld(until end: Int64, output: NodeOutput) throws {
        guard let frame = held.take() else { return }
        let start = heldPTS
        try output.send(SampleBuffer.restamped(frame) { m in if end > start { m.duration = end - start } })
    }

    public func finish(output: NodeOutput) throws {
        guard held != nil else { return }
        // ffmpeg's end-of-stream evaluation: PTS at the input's end, N after the last frame
        let end = inputEnd == BufferMetadata.noTime ? nil : PTSExpression.ticks(expr.evaluateEnd(pts: inputEnd))
        try sendHeld(until: end ?? heldPTS, output: output)
    }
}
