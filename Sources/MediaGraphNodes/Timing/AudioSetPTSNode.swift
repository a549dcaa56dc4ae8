import MediaGraphCore

/// `asetpts`: each audio buffer's presentation time from an ffmpeg expression (ffmpeg 5.1's
/// `asetpts`, see `PTSExpression`): `N/SR/TB` lays the samples end to end from zero,
/// `PTS-STARTPTS` starts at zero. Samples and their durations pass unchanged (a buffer plays at
/// the sample rate wherever it starts).
///
/// TB is 1/sample rate, as ffmpeg's audio filters have it: buffers in another time base are
/// rescaled into it. A time that goes back, or before zero, or NAN, is an error (`PTSCheck`).
public final class AudioSetPTSNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "asetpts",
        doc: "Sets each audio buffer's time from an expression, as ffmpeg's asetpts: \"N/SR/TB\" lays the samples end to end from zero, \"PTS-STARTPTS\" starts at zero.",
        category: .filter,
        inputs: [PortSpec("in", .audio(SampleFormat.allCases), doc: "raw audio")],
        outputs: [PortSpec("out", .audio(SampleFormat.allCases), doc: "the same samples at their new times, time base 1/sample rate")],
        params: ParamSpec.list(exprParam))
    static let exprParam = ExpressionParam.with("expr", default: "PTS", doc: "the new time in ticks of TB (1/sample rate): an expression of PTS, N (samples before this buffer), NB_CONSUMED_SAMPLES, NB_SAMPLES (S), SAMPLE_RATE (SR), STARTPTS, STARTT, T, PREV_INPTS, PREV_INT, PREV_OUTPTS, PREV_OUTT, TB, POS, RTCTIME, RTCSTART (ffmpeg's asetpts variables; truncated to a tick)")

    var expr: PTSExpression
    var timeBase = Rational(1, 1)
    var previous: Int64?

    public init(setup: NodeSetup) throws {
        expr = try PTSExpression(setup.params[Self.exprParam], param: "expr", audio: true)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio else { throw NodeFailure("expected raw audio, found \(inputs[0].format)") }
        timeBase = Rational(1, Int64(a.sampleRate))
        expr.configure(timeBase: timeBase, frameRate: nil, sampleRate: a.sampleRate)
        return inputs.map(\.format)
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        var pts = buffer.pts, length = buffer.duration
        if buffer.timeBase != timeBase {
            if pts != BufferMetadata.noTime { pts = MediaTime.rescale(pts, timeBase: buffer.timeBase, to: timeBase.den) ?? BufferMetadata.noTime }
            length = Int64(buffer.sampleCount)
        }
        let samples = buffer.sampleCount
        let d = expr.evaluate(pts: pts, interlaced: false, samples: samples)
        let out = try PTSCheck.output(d, frame: expr.frames, inPTS: pts, previous: previous,
                                      strictlyLater: false, timeBase: timeBase, expression: expr.expression)
        expr.advance(inPTS: pts, outPTS: out, samples: samples)
        previous = out
        let tb = timeBase
        try output.send(SampleBuffer.restamped(consume buffer) { m in
            m.pts = out; m.dts = out; m.timeBase = tb; m.duration = length
        })
    }
}
