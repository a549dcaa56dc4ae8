import MediaGraphCodecs
import MediaGraphCore
import MediaGraphMP4

/// `opus`: Opus through libopus (as `ffmpeg -c:a libopus`); interleaved float in any chunking,
/// re-chunked to 20 ms frames. Its packets go into `mp4` (Opus in ISOBMFF: `dOps`).
public final class OpusEncoderNode: RegisteredNode {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
            name: "opus", doc: "Opus encoder (libopus through libavcodec, as ffmpeg -c:a libopus); takes float audio in any chunking.",
            category: .encoder,
            inputs: [PortSpec("in", .audio([.f32]), doc: "raw audio at 48, 24, 16, 12 or 8 kHz (another rate is resampled to the nearest, 44.1 kHz to 48 kHz)")],
            outputs: [PortSpec("out", .encodedAudio([.opus]), doc: "Opus packets (OpusHead as configuration)")],
            params: ParamSpec.list(bitrate, application))
        // a rate libopus does not code gets a visible resample, as ffmpeg's negotiation inserts
        info.inputShape = { _, format in
            guard let a = format.audio, !OpusSettings.sampleRates.contains(a.sampleRate) else { return nil }
            return FormatShape(sampleRate: OpusSettings.nearestSampleRate(to: a.sampleRate))
        }
        return info
    }()
    static let bitrate = Param<Int?>("bitrate", 1...2048, doc: "bitrate in kbit/s (default: ffmpeg's, 64 for mono, 96 for stereo)")
    static let application = Param<String>("application", oneOf: OpusSettings.applications, default: "audio",
                                           doc: "what libopus tunes for: audio (music), voip (speech) or lowdelay")

    let settings: OpusSettings
    var format: AudioFormat!
    var outputFormat: EncodedAudioFormat!
    var encoder: OpusEncoder?
    var configuration: CodecConfiguration?
    var timeline: AudioTimeline!
    /// Zeros for the gaps `timeline` finds; made at the first gap.
    var silenceBlock: [Float] = []

    public init(setup: NodeSetup) throws {
        settings = OpusSettings(bitrate: setup.params[Self.bitrate], application: setup.params[Self.application])
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio else { throw NodeFailure("expected raw audio, found \(inputs[0].format)") }
        try OpusEncoder.validate(settings: settings, sampleRate: a.sampleRate, channels: a.channels, layout: a.channelLayout)
        format = a
        timeline = AudioTimeline(sampleRate: a.sampleRate)
        var decoded = a   // what decoding gives back: libavcodec's Opus decoder yields float at 48 kHz
        decoded.sampleFormat = .f32
        decoded.sampleRate = 48000
        outputFormat = EncodedAudioFormat(codec: .opus, raw: decoded)
        return [.encodedAudio(outputFormat)]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let n = buffer.sampleCount
        let (silence, skip) = timeline.place(pts: buffer.pts, timeBase: buffer.timeBase, count: n)
        if encoder == nil {
            // the first buffer's pts (in samples) starts the stream
            let e = try OpusEncoder(settings: settings, sampleRate: format.sampleRate, channels: format.channels,
                                    layout: format.channelLayout, startPTS: (timeline.nextSample ?? 0) - Int64(n))
            encoder = e
            configuration = .opus(try CodecConfigurationRecords.opusHead(e.header))
        }
        if silence > 0 { try encodeSilence(silence, output: output) }
        guard skip < n else { return }
        let packets: [EncodedPacket] = try buffer.bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: Float.self)
            return try encoder!.encode(interleaved: base + skip * format.channels, count: n - skip)
        }
        try emit(packets, output: output)
    }

    /// Encodes `count` samples of silence (a gap in the input's times), a block at a time.
    private func encodeSilence(_ count: Int64, output: NodeOutput) throws {
        if silenceBlock.isEmpty { silenceBlock = [Float](repeating: 0, count: 4096 * format.channels) }
        var left = count
        try silenceBlock.withUnsafeBufferPointer { zeros in
            while left > 0 {
                let n = Int(min(left, 4096))
                try emit(encoder!.encode(interleaved: zeros.baseAddress!, count: n), output: output)
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
