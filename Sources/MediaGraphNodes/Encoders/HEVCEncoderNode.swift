import MediaGraphCodecs
import MediaGraphCore

/// `hevc`: HEVC through libavcodec's libx265.
public final class HEVCEncoderNode: VideoEncoderNode, RegisteredNode {
    public static let typeInfo = encoderInfo("hevc", "HEVC encoder (libx265 through libavcodec): Main from yuv420p, Main 10 from yuv420p10le; the input's colour and aspect in the VUI; packets in Annex B with VPS/SPS/PPS as codec configuration.", codec: .hevc, pixelFormats: HEVCEncoder.pixelFormats, params: ParamSpec.list(preset, crf, bitrate, keyint, bframes, threads, x265Params))
    static let preset = Param<String>("preset", oneOf: HEVCSettings.presets, default: "medium", doc: "x265 speed/quality preset")
    static let crf = Param<Double?>("crf", 0...51, doc: "constant rate factor (default 28 when no bitrate)")
    static let bitrate = Param<Int?>("bitrate", 1...1_000_000, doc: "average bitrate in kbit/s (instead of crf)")
    static let keyint = Param<Int?>("keyint", 1...10000, doc: "maximum GOP length in frames")
    static let bframes = Param<Int?>("bframes", 0...16, doc: "maximum consecutive B-frames")
    static let threads = Param<Int>("threads", 0...64, default: 0, doc: "encoder threads (0 = x265 decides)")
    static let x265Params = Param<String?>("x265-params", doc: "passed to x265 as is: key=value:key=value")

    let settings: HEVCSettings

    public required init(setup: NodeSetup) throws {
        let p = setup.params
        settings = HEVCSettings(preset: p[Self.preset], crf: p[Self.crf], bitrate: p[Self.bitrate],
                                keyint: p[Self.keyint], bframes: p[Self.bframes], threads: p[Self.threads],
                                x265Params: p[Self.x265Params])
        try super.init(setup: setup)
    }

    override public var codec: Codec { .hevc }
    override public func validate(format: VideoFormat) throws {
        try HEVCEncoder.validate(settings: settings, format: format)
        try HEVCEncoder.checkLibraryParams(settings: settings, format: format)
    }
    override public func open(format: VideoFormat, timeBase: Rational) throws -> any VideoEncoder {
        try HEVCEncoder(settings: settings, format: format, timeBase: timeBase)
    }
}
