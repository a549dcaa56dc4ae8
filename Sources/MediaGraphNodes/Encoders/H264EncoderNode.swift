import MediaGraphCodecs
import MediaGraphCore

/// `h264`: H.264 through libavcodec's libx264.
public final class H264EncoderNode: VideoEncoderNode, RegisteredNode {
    public static let typeInfo = encoderInfo("h264", "H.264 encoder (libx264 through libavcodec): High from yuv420p, High 10 from yuv420p10le; the input's colour and aspect in the VUI; packets in Annex B with SPS/PPS as codec configuration.", codec: .h264, pixelFormats: H264Encoder.pixelFormats, params: ParamSpec.list(
        preset, tune, profile, level, crf, bitrate, maxrate, bufsize, keyint, minKeyint, bframes, refs, threads, x264Params))
    static let preset = Param<String>("preset", oneOf: H264Settings.presets, default: "medium", doc: "x264 speed/quality preset")
    static let tune = Param<String?>("tune", oneOf: H264Settings.tunes, doc: "x264 tuning")
    static let profile = Param<String?>("profile", oneOf: H264Settings.profiles, doc: "H.264 profile (high10 for 10-bit input)")
    static let level = Param<String?>("level", oneOf: H264Settings.levels, doc: "H.264 level")
    static let crf = Param<Double?>("crf", 0...51, doc: "constant rate factor (default 23 when no bitrate)")
    static let bitrate = Param<Int?>("bitrate", 1...1_000_000, doc: "average bitrate in kbit/s (instead of crf)")
    static let maxrate = Param<Int?>("maxrate", 1...1_000_000, doc: "VBV maximum rate in kbit/s")
    static let bufsize = Param<Int?>("bufsize", 1...1_000_000, doc: "VBV buffer size in kbit")
    static let keyint = Param<Int?>("keyint", 1...10000, doc: "maximum GOP length in frames")
    static let minKeyint = Param<Int?>("min-keyint", 1...10000, doc: "minimum GOP length in frames")
    static let bframes = Param<Int?>("bframes", 0...16, doc: "maximum consecutive B-frames")
    static let refs = Param<Int?>("refs", 1...16, doc: "reference frames")
    static let threads = Param<Int>("threads", 0...64, default: 0, doc: "encoder threads (0 = x264 decides)")
    static let x264Params = Param<String?>("x264-params", doc: "passed to x264 as is: key=value:key=value")

    let settings: H264Settings

    public required init(setup: NodeSetup) throws {
        let p = setup.params
        settings = H264Settings(preset: p[Self.preset], tune: p[Self.tune], profile: p[Self.profile],
                                level: p[Self.level], crf: p[Self.crf], bitrate: p[Self.bitrate], maxrate: p[Self.maxrate],
                                bufsize: p[Self.bufsize], keyint: p[Self.keyint], minKeyint: p[Self.minKeyint],
                                bframes: p[Self.bframes], refs: p[Self.refs], threads: p[Self.threads],
                                x264Params: p[Self.x264Params])
        try super.init(setup: setup)
    }

    override public var codec: Codec { .h264 }
    override public func validate(format: VideoFormat) throws {
        try H264Encoder.validate(settings: settings, format: format)
        try H264Encoder.checkLibraryParams(settings: settings, format: format)
    }
    override public func open(format: VideoFormat, timeBase: Rational) throws -> any VideoEncoder {
        try H264Encoder(settings: settings, format: format, timeBase: timeBase)
    }
}
