import MediaGraphCore

/// `areverse`: plays the sound backwards, as ffmpeg's `areverse`. Every buffer is held until the
/// input ends, then sent last first with its samples reversed, laid end to end from the first
/// buffer's time (as ffmpeg's: a gap in the input is not kept). Held bytes count against
/// `max-memory`, as `reverse`'s frames do.
public final class AudioReverseNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "areverse",
        doc: "Plays the sound backwards (ffmpeg's areverse, the same samples at the same times): the whole clip is held until it ends, within 'max-memory'; trim long inputs first (filesrc start/duration).",
        category: .filter,
        inputs: [PortSpec("in", .audio([.f32planar]), doc: "raw audio (other formats are converted)")],
        outputs: [PortSpec("out", .audio([.f32planar]), doc: "the samples last first, from the input's first time")],
        params: ParamSpec.list(ReverseNode.maxMemoryParam))

    let limit: Int
    var format: AudioFormat!
    var buffers: [SampleBuffer] = []
    var held = 0
    /// The first buffer's time in samples (the output starts there).
    var start: Int64?

    public init(setup: NodeSetup) throws {
        limit = setup.params[ReverseNode.maxMemoryParam] << 20
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio, a.sampleFormat == .f32planar else { throw NodeFailure("expected planar float audio, found \(inputs[0].format)") }
        format = a
        return [inputs[0].format]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let bytes = buffer.byteCount
        try ReverseNode.checkRoom(held: held, adding: bytes, limit: limit, what: "the buffer of sample \(held / 4 / format.channels)",
                                  at: buffer.presentationTime)
        if start == nil, buffer.pts != BufferMetadata.noTime {
            start = MediaTime.rescale(buffer.pts, timeBase: buffer.timeBase, to: Int64(format.sampleRate))
        }
        held += bytes
        buffers.append(buffer)
    }

    public func finish(output: NodeOutput) throws {
        var pts = start ?? 0
        let channels = format.channels, timeBase = Rational(1, Int64(format.sampleRate))
        while let buffer = buffers.popLast() {
            let n = buffer.sampleCount
            var w = SampleBuffer.writable(buffer)
            var bytes = w.bytes
            w.bytes = []
            guard bytes.count >= n * channels * 4 else { throw NodeFailure("a buffer of \(n) samples × \(channels) channels holds only \(bytes.count) bytes") }
            bytes.withUnsafeMutableBytes { raw in
                let f = raw.bindMemory(to: Float.self)
                for c in 0..<channels { f[(c * n)..<((c + 1) * n)].reverse() }
            }
            w.bytes = bytes
            let at = pts
            try output.send(SampleBuffer.restamped(w.freeze()) { m in
                m.pts = at; m.dts = at; m.duration = Int64(n); m.timeBase = timeBase
            })
            pts += Int64(n)
        }
        held = 0
    }

    public func abort() {
        buffers = []
    }
}
