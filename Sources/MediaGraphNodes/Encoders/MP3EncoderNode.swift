import MediaGraphCodecs
import MediaGraphCore

/// `mp3`: MP3 through libmp3lame, as ffmpeg's `-c:a libmp3lame -b:a 128k` (or `-q:a N`); float
/// planar in any chunking, re-chunked to the encoder's frames.
public final class MP3EncoderNode: RegisteredNode {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
            name: "mp3", doc: "MP3 encoder (libmp3lame through libavcodec): constant bitrate, or VBR with 'quality'; mono or stereo.",
            category: .encoder,
            inputs: [PortSpec("in", .audio([.f32planar]), doc: "mono or stereo raw audio at 8000…48000 Hz (another rate is resampled to the nearest MP3 codes)")],
            outputs: [PortSpec("out", .encodedAudio([.mp3]), doc: "MP3 packets, one frame each")],
            params: ParamSpec.list(bitrate, quality))
        // a rate MP3 cannot code (96 kHz) gets a visible resample to the nearest one it can, as
        // ffmpeg's format negotiation picks for libmp3lame
        info.inputShape = { _, format in
            guard let a = format.audio, !MP3Settings.sampleRates.contains(a.sampleRate) else { return nil }
            return FormatShape(sampleRate: MP3Settings.nearestSampleRate(to: a.sampleRate))
        }
        return info
    }()
    static let bitrate = Param<Int?>("bitrate", 8...320, doc: "constant bitrate in kbit/s, as ffmpeg's -b:a (default 128 unless 'quality' is set)")
    static let quality = Param<Int?>("quality", 0...9, doc: "variable bitrate quality, as ffmpeg's -q:a: 0 best … 9 smallest (instead of 'bitrate')")

    let settings: MP3Settings
    var format: AudioFormat!
    var outputFormat: EncodedAudioFormat!
    var encoder: MP3Encoder?
    var pointers: [UnsafePointer<Float>] = []
    var timeline: AudioTimeline!
    /// Zeros for the gaps `timeline` finds; made at the first gap.
    var silenceBlock: [Float] = []

    public init(setup: NodeSetup) throws {
        settings = MP3Settings(bitrate: setup.params[Self.bitrate], quality: setup.params[Self.quality])
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio else { throw NodeFailure("expected raw audio, found \(inputs[0].format)") }
        try settings.validate(sampleRate: a.sampleRate, channels: a.channels)
        format = a
        timeline = AudioTimeline(sampleRate: a.sampleRate)
        var decoded = a   // what decoding gives back: libavcodec's mp3float decoder yields planar float
        decoded.sampleFormat = .f32planar
        // the nominal bitrate (0 for VBR), as libavcodec states it: what mp3sink's Info frame is sized by
        outputFormat = EncodedAudioFormat(codec: .mp3, raw: decoded,
                                          coding: AudioCodingParameters(bitRate: Int64(settings.effectiveBitrate ?? 0) * 1000))
        return [.encodedAudio(outputFormat)]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let n = buffer.sampleCount
        let (silence, skip) = timeline.place(pts: buffer.pts, timeBase: buffer.timeBase, count: n)
        if encoder == nil {
            // the first buffer's pts (in samples) starts the stream
            encoder = try MP3Encoder(settings: settings, sampleRate: format.sampleRate, channels: format.channels,
                                     startPTS: (timeline.nextSample ?? 0) - Int64(n))
        }
        if silence > 0 { try encodeSilence(silence, output: output) }
        guard skip < n else { return }
        let packets: [EncodedPacket] = try buffer.bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: Float.self)
            pointers.removeAll(keepingCapacity: true)
            for c in 0..<format.channels { pointers.append(UnsafePointer(base + c * n + skip)) }
            return try encoder!.encode(pointers, count: n - skip)
        }
        try emit(packets, output: output)
    }

    /// Encodes `count` samples of silence (a gap in the input's times), a block at a time.
    private func encodeSilence(_ count: Int64, output: NodeOutput) throws {
        if silenceBlock.isEmpty { silenceBlock = [Float](repeating: 0, count: 4096) }
        var left = count
        try silenceBlock.withUnsafeBufferPointer { zeros in
            let planes = [UnsafePointer<Float>](repeating: zeros.baseAddress!, count: format.channels)
            while left > 0 {
                let n = Int(min(left, Int64(zeros.count)))
                try emit(encoder!.encode(planes, count: n), output: output)
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
                                 codecConfiguration: .mp3)
            try output.send(consume b)
        }
    }
}
