import MediaGraphCodecs
import MediaGraphCore
import MediaGraphMP4

/// `opus`: Opus through libopus (as `ffmpeg -c:a libopus`); interleaved float in any chunking,
/// re-chunked to 20 ms frames. Its packets go into `mp4` (Opus in ISOBMFF: `dOps`).
public final class OpusEncoderNode: AudioEncoderNode, RegisteredNode {
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

    public required init(setup: NodeSetup) throws {
        settings = OpusSettings(bitrate: setup.params[Self.bitrate], application: setup.params[Self.application])
        try super.init(setup: setup)
    }

    override public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio else { throw NodeFailure("expected raw audio, found \(inputs[0].format)") }
        try OpusEncoder.validate(settings: settings, sampleRate: a.sampleRate, channels: a.channels, layout: a.channelLayout)
        var decoded = a   // what decoding gives back: libavcodec's Opus decoder yields float at 48 kHz
        decoded.sampleFormat = .f32
        decoded.sampleRate = 48000
        return prepare(a, output: EncodedAudioFormat(codec: .opus, raw: decoded))
    }

    override public func open(startPTS: Int64) throws -> any FloatAudioEncoder {
        try OpusEncoder(settings: settings, sampleRate: format.sampleRate, channels: format.channels, layout: format.channelLayout, startPTS: startPTS)
    }

    override public func configuration(of encoder: any FloatAudioEncoder) throws -> CodecConfiguration? {
        guard let opus = encoder as? OpusEncoder else { return nil }
        return .opus(try CodecConfigurationRecords.opusHead(opus.header))
    }
}
