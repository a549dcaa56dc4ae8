import MediaGraphCodecs
import MediaGraphCore

/// `aac`: AAC-LC through libavcodec's native encoder; float planar in any chunking, re-chunked to
/// 1024-sample frames.
public final class AACEncoderNode: RegisteredNode {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
            name: "aac", doc: "AAC-LC encoder (libavcodec's native aac); takes float planar audio in any chunking.",
            category: .encoder,
            inputs: [PortSpec("in", .audio([.f32planar]), doc: "raw audio at one of AAC's sample rates (7350…96000 Hz; another is resampled to the nearest)")],
            outputs: [PortSpec("out", .encodedAudio([.aac]), doc: "AAC packets (raw, AudioSpecificConfig as configuration)")],
            params: ParamSpec.list(bitrate, profile))
        // a rate AAC cannot signal (192 kHz) gets a visible resample to the nearest one it can,
        // the rate ffmpeg's negotiation picks for its aac encoder
        info.inputShape = { _, format in
            guard let a = format.audio, !AACSettings.sampleRates.contains(a.sampleRate) else { return nil }
            return FormatShape(sampleRate: AACSettings.nearestSampleRate(to: a.sampleRate))
        }
        return info
    }()
    static let bitrate = Param<Int>("bitrate", 8...512, default: 128, doc: "bitrate in kbit/s")
    static let profile = Param<String>("profile", oneOf: ["lc"], default: "lc", doc: "AAC profile (LC)")

    let settings: AACSettings
    var format: AudioFormat!
    var outputFormat: EncodedAudioFormat!
    var encoder: AACEncoder?
    var started = false
    var pointers: [UnsafePointer<Float>] = []
    var timeline: AudioTimeline!
    /// Zeros for the gaps `timeline` finds; made at the first gap.
    var silenceBlock: [Float] = []

    public init(setup: NodeSetup) throws {
        settings = AACSettings(bitrate: setup.params[Self.bitrate])
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio else { throw NodeFailure("expected raw audio, found \(inputs[0].format)") }
        try AACEncoder.validate(settings: settings, sampleRate: a.sampleRate, channels: a.channels, layout: a.channelLayout)
        format = a
        timeline = AudioTimeline(sampleRate: a.sampleRate)
        var decoded = a   // what decoding gives back: libavcodec's AAC decoder yields planar float
        decoded.sampleFormat = .f32planar
        outputFormat = EncodedAudioFormat(codec: .aac, raw: decoded)
        return [.encodedAudio(outputFormat)]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let n = buffer.sampleCount
        let (silence, skip) = timeline.place(pts: buffer.pts, timeBase: buffer.timeBase, count: n)
        if encoder == nil {
            // the first buffer's pts (in samples) starts the stream
            encoder = try AACEncoder(settings: settings, sampleRate: format.sampleRate, channels: format.channels,
                                     layout: format.channelLayout, startPTS: (timeline.nextSample ?? 0) - Int64(n))
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
                                 codecConfiguration: encoder?.configuration)
            try output.send(consume b)
        }
    }
}
