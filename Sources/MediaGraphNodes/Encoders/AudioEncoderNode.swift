import MediaGraphCodecs
import MediaGraphCore

/// The shared base of the audio encoder nodes (`aac`, `mp3`, `opus`): float samples in any
/// chunking, packets out stamped in 1/sampleRate with the codec configuration a muxer needs.
/// Times are kept by `AudioTimeline` (holes become silence, overlaps are left out); the encoder
/// opens at the first buffer, whose pts starts the stream. Subclasses check their settings and
/// say what decoding gives back in `configure`, then call `prepare`.
open class AudioEncoderNode: MediaNode {
    var format: AudioFormat!
    var outputFormat: EncodedAudioFormat!
    var encoder: (any FloatAudioEncoder)?
    var configuration: CodecConfiguration?
    var timeline: AudioTimeline!
    /// Zeros for the gaps `timeline` finds; made at the first gap.
    var silenceBlock: [Float] = []

    public required init(setup: NodeSetup) throws {}

    /// Opens the encoder with the stream's first sample at `startPTS`.
    open func open(startPTS: Int64) throws -> any FloatAudioEncoder { throw NodeFailure("no encoder") }
    /// The configuration every packet carries, once `encoder` is open.
    open func configuration(of encoder: any FloatAudioEncoder) throws -> CodecConfiguration? { nil }

    open func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }

    /// Notes the input and output formats (from `configure`).
    func prepare(_ input: AudioFormat, output: EncodedAudioFormat) -> [MediaFormat] {
        format = input
        outputFormat = output
        timeline = AudioTimeline(sampleRate: input.sampleRate)
        return [.encodedAudio(output)]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let n = buffer.sampleCount
        let (silence, skip) = timeline.place(pts: buffer.pts, timeBase: buffer.timeBase, count: n)
        if encoder == nil {
            let e = try open(startPTS: (timeline.nextSample ?? 0) - Int64(n))
            encoder = e
            configuration = try configuration(of: e)
        }
        if silence > 0 { try encodeSilence(silence, output: output) }
        guard skip < n, let encoder else { return }
        let channels = format.channels
        let packets: [EncodedPacket] = try buffer.bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: Float.self)
            // planar: channel after channel, n samples each; interleaved: sample after sample
            let first = encoder.takesInterleaved ? base + skip * channels : base + skip
            return try encoder.encode(floats: first, count: n - skip, planeStride: n)
        }
        try emit(packets, output: output)
    }

    /// Encodes `count` samples of silence (a gap in the input's times), a block at a time.
    private func encodeSilence(_ count: Int64, output: NodeOutput) throws {
        guard let encoder else { return }
        let block = 4096
        // planar encoders read the one block for every channel (stride 0)
        if silenceBlock.isEmpty { silenceBlock = [Float](repeating: 0, count: block * (encoder.takesInterleaved ? format.channels : 1)) }
        var left = count
        try silenceBlock.withUnsafeBufferPointer { zeros in
            while left > 0 {
                let n = Int(min(left, Int64(block)))
                try emit(encoder.encode(floats: zeros.baseAddress!, count: n, planeStride: 0), output: output)
                left -= Int64(n)
            }
        }
    }

    public var runWarnings: [String] { timeline.warnings }

    public func finish(output: NodeOutput) throws {
        guard let encoder else { return }
        try emit(encoder.flush(), output: output)
    }

    private func emit(_ packets: [EncodedPacket], output: NodeOutput) throws {
        for p in packets {
            let b = SampleBuffer(bytes: p.data, format: .encodedAudio(outputFormat), pts: p.pts, dts: p.dts, duration: p.duration,
                                 timeBase: Rational(1, Int64(format.sampleRate)), flags: .keyFrame,
                                 codecConfiguration: configuration)
            try output.send(consume b)
        }
    }
}
