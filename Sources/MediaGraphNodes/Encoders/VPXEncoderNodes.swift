import MediaGraphCodecs
import MediaGraphCore

/// Params shared by the VP8 and VP9 nodes.
enum VPXParams {
    static let bitrate = Param<Int?>("bitrate", 1...1_000_000, doc: "target bitrate in kbit/s")
    static let cqLevel = Param<Int?>("cq-level", 0...63, doc: "constant quality level (with bitrate as a cap, or alone)")
    static let deadline = Param<String>("deadline", oneOf: VPXSettings.deadlines, default: "good", doc: "encoding deadline")
    static let cpuUsed = Param<Int>("cpu-used", -16...16, default: 1, doc: "speed: higher is faster")
    static let keyint = Param<Int?>("keyint", 1...10000, doc: "maximum distance between key frames")
    static let threads = Param<Int>("threads", 0...64, default: 0, doc: "encoder threads (0 = cores)")
    static let lagInFrames = Param<Int?>("lag-in-frames", 0...25, doc: "frames of look-ahead")
    // VP9 only
    static let rowMT = Param<Bool>("row-mt", default: true, doc: "row-based multithreading")
    static let tileColumns = Param<Int?>("tile-columns", 0...6, doc: "log2 of tile columns")
    static let profile = Param<Int?>("profile", 0...2, doc: "VP9 profile: 0 (8-bit 4:2:0) or 2 (10-bit 4:2:0); default: from the input")

    static func specs(vp9: Bool) -> [ParamSpec] {
        ParamSpec.list(bitrate, cqLevel, deadline, cpuUsed, keyint, threads, lagInFrames)
            + (vp9 ? ParamSpec.list(rowMT, tileColumns, profile) : [])
    }

    static func settings(_ p: ParamValues, vp9: Bool) -> VPXSettings {
        VPXSettings(bitrate: p[bitrate], cqLevel: p[cqLevel], deadline: p[deadline],
                    cpuUsed: p[cpuUsed], keyint: p[keyint], threads: p[threads],
                    lagInFrames: p[lagInFrames], rowMT: vp9 ? p[rowMT] : nil,
                    tileColumns: vp9 ? p[tileColumns] : nil, profile: vp9 ? p[profile] : nil)
    }
}

/// `vp8`: VP8 through libvpx.
public final class VP8EncoderNode: VideoEncoderNode, RegisteredNode {
    public static let typeInfo = encoderInfo("vp8", "VP8 encoder (libvpx).", codec: .vp8, params: VPXParams.specs(vp9: false))
    let settings: VPXSettings
    public required init(setup: NodeSetup) throws {
        settings = VPXParams.settings(setup.params, vp9: false)
        try super.init(setup: setup)
    }
    override public var codec: Codec { .vp8 }
    override public func validate(format: VideoFormat) throws { try VP8Encoder.validate(settings: settings, format: format) }
    override public func open(format: VideoFormat, timeBase: Rational) throws -> any VideoEncoder {
        try VP8Encoder(settings: settings, format: format, timeBase: timeBase)
    }
}

/// `vp9`: VP9 through libvpx, profile 0 or (10-bit input) 2.
public final class VP9EncoderNode: VideoEncoderNode, RegisteredNode {
    public static let typeInfo = encoderInfo("vp9", "VP9 encoder (libvpx): profile 0 from yuv420p, profile 2 from yuv420p10le; the input's colour space and range in the bitstream.", codec: .vp9, pixelFormats: VP9Encoder.pixelFormats, params: VPXParams.specs(vp9: true))
    let settings: VPXSettings
    public required init(setup: NodeSetup) throws {
        settings = VPXParams.settings(setup.params, vp9: true)
        try super.init(setup: setup)
    }
    override public var codec: Codec { .vp9 }
    override public func validate(format: VideoFormat) throws { try VP9Encoder.validate(settings: settings, format: format) }
    override public func open(format: VideoFormat, timeBase: Rational) throws -> any VideoEncoder {
        try VP9Encoder(settings: settings, format: format, timeBase: timeBase)
    }
}
