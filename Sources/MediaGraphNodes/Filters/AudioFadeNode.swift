import MediaGraphCore

/// `afade`: fades the sound in from silence or out to silence over a span of time, as ffmpeg's
/// `afade`: start and duration in samples (rounded to nearest), each sample times the curve's
/// gain at `clamp((n − start) / length, 0, 1)` in double (reversed for a fade out; linear by
/// default), stored as float. Before the span a fade in is silent and a fade out untouched; after it, the
/// reverse. Planar float in and out (other formats get an inserted `resample`), in place when it
/// holds the only reference.
public final class AudioFadeNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "afade",
        doc: "Fades the sound in from silence or out to silence from 'start' for 'duration' seconds along a curve (ffmpeg's afade=t=in:st=…:d=…:curve=…, the same samples).",
        category: .filter,
        inputs: [PortSpec("in", .audio([.f32planar]), doc: "raw audio (other formats are converted)")],
        outputs: [PortSpec("out", .audio([.f32planar]), doc: "the faded audio")],
        params: ParamSpec.list(FadeNode.typeParam, startParam, durationParam, curveParam))
    static let startParam = Param<Double>("start", 0...1_000_000, default: 0, doc: "seconds on the stream's clock where the fade begins")
    static let durationParam = Param<Double>("duration", 0.001...1_000_000, default: 1, doc: "seconds the fade lasts")
    static let curveParam = AudioFadeCurve.param("curve", doc: "the gain's shape")

    let fadeIn: Bool
    let startSeconds: Double, lengthSeconds: Double
    let curve: AudioFadeCurve
    var start: Int64 = 0, length: Int64 = 1
    var format: AudioFormat!

    public init(setup: NodeSetup) throws {
        let p = setup.params
        fadeIn = p[FadeNode.typeParam] == "in"
        startSeconds = p[Self.startParam]
        lengthSeconds = p[Self.durationParam]
        curve = AudioFadeCurve(rawValue: p[Self.curveParam]) ?? .tri
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio, a.sampleFormat == .f32planar else { throw NodeFailure("expected planar float audio, found \(inputs[0].format)") }
        format = a
        // as libavutil's av_rescale of microseconds: to the nearest sample, halves away from zero
        let rate = Int64(a.sampleRate)
        let inSamples = { (seconds: Double) in MediaTime.rescale(Int64((seconds * 1_000_000).rounded()), timeBase: Rational(1, 1_000_000), to: rate) ?? 0 }
        start = inSamples(startSeconds)
        length = max(1, inSamples(lengthSeconds))
        return [inputs[0].format]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let n = buffer.sampleCount, channels = format.channels
        let cur = buffer.pts == SampleBuffer.noTime ? 0 : (MediaTime.rescale(buffer.pts, timeBase: buffer.timeBase, to: Int64(format.sampleRate)) ?? 0)
        // wholly after a fade in or before a fade out: unchanged
        if fadeIn ? start + length < cur : cur + Int64(n) < start { return try output.send(consume buffer) }
        var w = SampleBuffer.writable(consume buffer)
        var bytes = w.bytes
        w.bytes = []
        guard bytes.count >= n * channels * 4 else { throw NodeFailure("a buffer of \(n) samples × \(channels) channels holds only \(bytes.count) bytes") }
        let silent = fadeIn ? cur + Int64(n) < start : start + length < cur
        let (first, step): (Int64, Int64) = fadeIn ? (cur - start, 1) : (start + length - cur, -1)
        bytes.withUnsafeMutableBytes { raw in
            let f = raw.bindMemory(to: Float.self)
            if silent { f.update(repeating: 0); return }
            for i in 0..<n {
                let gain = curve.gain(first + Int64(i) * step, length)
                for c in 0..<channels { f[c * n + i] = Float(Double(f[c * n + i]) * gain) }
            }
        }
        w.bytes = bytes
        try output.send(consume w)
    }
}
