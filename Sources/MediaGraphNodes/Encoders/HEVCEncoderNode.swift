import MediaGraphCodecs
import MediaGraphCore

/// `hevc`: HEVC through libavcodec's libx265.
public final class HEVCEncoderNode: VideoEncoderNode, RegisteredNode {
    public static let typeInfo = encoderInfo("hevc", "HEVC encoder (libx265 through libavcodec): Main from yuv420p, Main 10 from yuv420p10le; the input's colour and aspect in the VUI; packets in Annex B with VPS/SPS/PPS as codec configuration.", codec: .hevc, pixelFormats: HEVCEncoder.pixelFormats, params: [
        .choice("preset", HEVCSettings.presets, default: "medium", doc: "x265 speed/quality preset"),
        .double("crf", 0...51, doc: "constant rate factor (default 28 when no bitrate)"),
        .int("bitrate", 1...1_000_000, doc: "average bitrate in kbit/s (instead of crf)"),
        .int("keyint", 1...10000, doc: "maximum GOP length in frames"),
        .int("bframes", 0...16, doc: "maximum consecutive B-frames"),
        .int("threads", 0...64, default: 0, doc: "encoder threads (0 = x265 decides)"),
        .string("x265-params", doc: "passed to x265 as is: key=value:key=value"),
    ])

    let settings: HEVCSettings

    public required init(setup: NodeSetup) throws {
        let p = setup.params
        settings = HEVCSettings(preset: p.string("preset", default: "medium"), crf: p.double("crf"), bitrate: p.int("bitrate"),
                                keyint: p.int("keyint"), bframes: p.int("bframes"), threads: p.int("threads", default: 0),
                                x265Params: p.string("x265-params"))
        try super.init(setup: setup)
    }

    override public var codec: Codec { .hevc }
    override public func validate(format: VideoFormat) throws { try HEVCEncoder.validate(settings: settings, format: format) }
    override public func open(format: VideoFormat, timeBase: Rational) throws -> any VideoEncoder {
        try HEVCEncoder(settings: settings, format: format, timeBase: timeBase)
    }
}
