import MediaGraphCodecs
import MediaGraphCore

/// Params shared by the VP8 and VP9 nodes.
enum VPXParams {
    static func specs(vp9: Bool) -> [ParamSpec] {
        var s: [ParamSpec] = [
            .int("bitrate", 1...1_000_000, doc: "target bitrate in kbit/s"),
            .int("cq-level", 0...63, doc: "constant quality level (with bitrate as a cap, or alone)"),
            .choice("deadline", VPXSettings.deadlines, default: "good", doc: "encoding deadline"),
            .int("cpu-used", -16...16, default: 1, doc: "speed: higher is faster"),
            .int("keyint", 1...10000, doc: "maximum distance between key frames"),
            .int("threads", 0...64, default: 0, doc: "encoder threads (0 = cores)"),
            .int("lag-in-frames", 0...25, doc: "frames of look-ahead"),
        ]
        if vp9 {
            s += [.bool("row-mt", default: true, doc: "row-based multithreading"),
                  .int("tile-columns", 0...6, doc: "log2 of tile columns"),
                  .int("profile", 0...2, doc: "VP9 profile: 0 (8-bit 4:2:0) or 2 (10-bit 4:2:0); default: from the input")]
        }
        return s
    }

    static func settings(_ p: ParamValues, vp9: Bool) -> VPXSettings {
        VPXSettings(bitrate: p.int("bitrate"), cqLevel: p.int("cq-level"), deadline: p.string("deadline", default: "good"),
                    cpuUsed: p.int("cpu-used", default: 1), keyint: p.int("keyint"), threads: p.int("threads", default: 0),
                    lagInFrames: p.int("lag-in-frames"), rowMT: vp9 ? p.bool("row-mt", default: true) : nil,
                    tileColumns: vp9 ? p.int("tile-columns") : nil, profile: vp9 ? p.int("profile") : nil)
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
