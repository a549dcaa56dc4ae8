import MediaGraphCodecs
import MediaGraphCore

/// `atempo`: plays audio faster or slower without changing its pitch, as ffmpeg's `atempo`
/// (WSOLA, `AudioTempo`): the same float samples. Planar float in and out (other formats get an
/// inserted `resample`). Output times run on from the first input buffer's, one sample at a time,
/// as ffmpeg stamps them; a tempo of exactly 1 passes the buffers through untouched.
public final class AudioTempoNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "atempo",
        doc: "Changes the speed of the sound without changing its pitch: 'tempo' 2 plays it twice as fast in half the time (ffmpeg's atempo=2, the same samples); pair with setpts on the video.",
        category: .filter,
        inputs: [PortSpec("in", .audio([.f32planar]), doc: "raw audio (other formats are converted)")],
        outputs: [PortSpec("out", .audio([.f32planar]), doc: "the audio at the new tempo")],
        params: ParamSpec.list(tempoParam))
    static let tempoParam = Param<Double>("tempo", AudioTempo.tempoRange, default: 1,
                                          doc: "speed factor: above 1 faster and shorter, below 1 slower and longer")

    let tempo: Double
    var format: AudioFormat!
    var engine: AudioTempo?
    /// The first input buffer's time in samples, and the samples sent since.
    var anchor: Int64?
    var produced: Int64 = 0
    // reused from buffer to buffer
    var interleaved: [Float] = []
    var finished: [Float] = []

    public init(setup: NodeSetup) throws {
        tempo = setup.params[Self.tempoParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio, a.sampleFormat == .f32planar else { throw NodeFailure("expected planar float audio, found \(inputs[0].format)") }
        format = a
        if tempo != 1 {
            do { engine = try AudioTempo(tempo: tempo, sampleRate: a.sampleRate, channels: a.channels) } catch let e as CodecError { throw NodeFailure(e.message) }
        }
        return [inputs[0].format]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard let engine else { return try output.send(consume buffer) }
        let n = buffer.sampleCount, channels = format.channels
        if anchor == nil {
            anchor = buffer.pts == SampleBuffer.noTime ? 0 : (MediaTime.rescale(buffer.pts, timeBase: buffer.timeBase, to: Int64(format.sampleRate)) ?? 0)
        }
        let bytes = buffer.bytes
        guard bytes.count >= n * channels * 4 else { throw NodeFailure("a buffer of \(n) samples × \(channels) channels holds only \(bytes.count) bytes") }
        if interleaved.count < n * channels { interleaved = [Float](repeating: 0, count: n * channels) }
        finished.removeAll(keepingCapacity: true)
        interleaved.withUnsafeMutableBufferPointer { frames in
            let out = frames.baseAddress!
            bytes.withUnsafeBytes { raw in
                let planes = raw.baseAddress!.assumingMemoryBound(to: Float.self)
                for c in 0..<channels {
                    let plane = planes + c * n
                    for i in 0..<n { out[i * channels + c] = plane[i] }
                }
            }
            engine.process(out, frames: n, into: &finished)
        }
        try emit(output: output)
    }

    public func finish(output: NodeOutput) throws {
        guard let engine, anchor != nil else { return }
        finished.removeAll(keepingCapacity: true)
        engine.finish(into: &finished)
        try emit(output: output)
    }

    /// Sends what the engine finished as one planar buffer.
    private func emit(output: NodeOutput) throws {
        let channels = format.channels, n = finished.count / channels
        guard n > 0, let anchor else { return }
        var bytes = [UInt8](repeating: 0, count: n * channels * 4)
        bytes.withUnsafeMutableBytes { raw in
            let planes = raw.baseAddress!.assumingMemoryBound(to: Float.self)
            finished.withUnsafeBufferPointer { f in
                let frames = f.baseAddress!
                for c in 0..<channels {
                    let plane = planes + c * n
                    for i in 0..<n { plane[i] = frames[i * channels + c] }
                }
            }
        }
        let b = SampleBuffer(bytes: bytes, format: .audio(format), pts: anchor + produced, duration: Int64(n),
                             timeBase: Rational(1, Int64(format.sampleRate)), flags: .keyFrame, sampleCount: n)
        produced += Int64(n)
        try output.send(consume b)
    }
}
