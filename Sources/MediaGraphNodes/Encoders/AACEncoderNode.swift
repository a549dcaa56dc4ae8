import MediaGraphCodecs
import MediaGraphCore

/// `aac`: AAC-LC through libavcodec's native encoder; float planar in any chunking, re-chunked to
/// 1024-sample frames.
public final class AACEncoderNode: AudioEncoderNode, RegisteredNode {
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

    public required init(setup: NodeSetup) throws {
        settings = AACSettings(bitrate: setup.params[Self.bitrate])
        try super.init(setup: setup)
    }

    override public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio else { throw NodeFailure("expected raw audio, found \(inputs[0].format)") }
        try AACEncoder.validate(settings: settings, sampleRate: a.sampleRate, channels: a.channels, layout: a.channelLayout)
        var decoded = a   // what decoding gives back: libavcodec's AAC decoder yields planar float
        decoded.sampleFormat = .f32planar
        return prepare(a, output: EncodedAudioFormat(codec: .aac, raw: decoded))
    }

    override public func open(startPTS: Int64) throws -> any FloatAudioEncoder {
        try AACEncoder(settings: settings, sampleRate: format.sampleRate, channels: format.channels, layout: format.channelLayout, startPTS: startPTS)
    }

    override public func configuration(of encoder: any FloatAudioEncoder) throws -> CodecConfiguration? { (encoder as? AACEncoder)?.configuration }
}
