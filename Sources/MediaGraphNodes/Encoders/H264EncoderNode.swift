import MediaGraphCodecs
import MediaGraphCore

/// `h264`: H.264 through libavcodec's libx264.
public final class H264EncoderNode: VideoEncoderNode, RegisteredNode {
    public static let typeInfo = encoderInfo("h264", "H.264 encoder (libx264 through libavcodec): High from yuv420p, High 10 from yuv420p10le; the input's colour and aspect in the VUI; packets in Annex B with SPS/PPS as codec configuration.", codec: .h264, pixelFormats: H264Encoder.pixelFormats, params: [
        .choice("preset", H264Settings.presets, default: "medium", doc: "x264 speed/quality preset"),
        .choice("tune", H264Settings.tunes, doc: "x264 tuning"),
        .choice("profile", H264Settings.profiles, doc: "H.264 profile (high10 for 10-bit input)"),
        .choice("level", H264Settings.levels, doc: "H.264 level"),
        .double("crf", 0...51, doc: "constant rate factor (default 23 when no bitrate)"),
        .int("bitrate", 1...1_000_000, doc: "average bitrate in kbit/s (instead of crf)"),
        .int("maxrate", 1...1_000_000, doc: "VBV maximum rate in kbit/s"),
        .int("bufsize", 1...1_000_000, doc: "VBV buffer size in kbit"),
        .int("keyint", 1...10000, doc: "maximum GOP length in frames"),
        .int("min-keyint", 1...10000, doc: "minimum GOP length in frames"),
        .int("bframes", 0...16, doc: "maximum consecutive B-frames"),
        .int("refs", 1...16, doc: "reference frames"),
        .int("threads", 0...64, default: 0, doc: "encoder threads (0 = x264 decides)"),
        .string("x264-params", doc: "passed to x264 as is: key=value:key=value"),
    ])

    let settings: H264Settings

    public required init(setup: NodeSetup) throws {
        let p = setup.params
        settings = H264Settings(preset: p.string("preset", default: "medium"), tune: p.string("tune"), profile: p.string("profile"),
                                level: p.string("level"), crf: p.double("crf"), bitrate: p.int("bitrate"), maxrate: p.int("maxrate"),
                                bufsize: p.int("bufsize"), keyint: p.int("keyint"), minKeyint: p.int("min-keyint"),
                                bframes: p.int("bframes"), refs: p.int("refs"), threads: p.int("threads", default: 0),
                                x264Params: p.string("x264-params"))
        try super.init(setup: setup)
    }

    override public var codec: Codec { .h264 }
    override public func validate(format: VideoFormat) throws { try H264Encoder.validate(settings: settings, format: format) }
    override public func open(format: VideoFormat, timeBase: Rational) throws -> any VideoEncoder {
        try H264Encoder(settings: settings, format: format, timeBase: timeBase)
    }
}
