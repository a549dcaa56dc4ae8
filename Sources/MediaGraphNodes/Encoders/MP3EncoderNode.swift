import MediaGraphCodecs
import MediaGraphCore

/// `mp3`: MP3 through libmp3lame, as ffmpeg's `-c:a libmp3lame -b:a 128k` (or `-q:a N`); float
/// planar in any chunking, re-chunked to the encoder's frames.
public final class MP3EncoderNode: AudioEncoderNode, RegisteredNode {
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

    public required init(setup: NodeSetup) throws {
        settings = MP3Settings(bitrate: setup.params[Self.bitrate], quality: setup.params[Self.quality])
        try super.init(setup: setup)
    }

    override public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio else { throw NodeFailure("expected raw audio, found \(inputs[0].format)") }
        try settings.validate(sampleRate: a.sampleRate, channels: a.channels)
        var decoded = a   // what decoding gives back: libavcodec's mp3float decoder yields planar float
        decoded.sampleFormat = .f32planar
        // the nominal bitrate (0 for VBR), as libavcodec states it: what mp3sink's Info frame is sized by
        return prepare(a, output: EncodedAudioFormat(codec: .mp3, raw: decoded,
                                                     coding: AudioCodingParameters(bitRate: Int64(settings.effectiveBitrate ?? 0) * 1000)))
    }

    override public func open(startPTS: Int64) throws -> any FloatAudioEncoder {
        try MP3Encoder(settings: settings, sampleRate: format.sampleRate, channels: format.channels, startPTS: startPTS)
    }

    override public func configuration(of encoder: any FloatAudioEncoder) throws -> CodecConfiguration? { .mp3 }
}
