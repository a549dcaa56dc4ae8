import MediaGraphCore

/// VP8 through libvpx. Packets are raw VP8 frames (as IVF and WebM hold them), one per input
/// frame, pts = dts (VP8 does not reorder).
public final class VP8Encoder: VideoEncoder {
    public let settings: VPXSettings
    public let configuration: CodecConfiguration
    private let core: VPXEncoderCore

    public static func validate(settings: VPXSettings, width: Int, height: Int) throws {
        try settings.validate(vp9: false, width: width, height: height)
    }

    /// Checks the settings for an input format without opening anything.
    public static func validate(settings: VPXSettings, format: VideoFormat) throws {
        try settings.validate(vp9: false, width: format.width, height: format.height, pixelFormat: format.pixelFormat)
    }

    public init(settings: VPXSettings, format: VideoFormat, timeBase: Rational) throws {
        self.settings = settings
        core = try VPXEncoderCore(vp9: false, settings: settings, format: format, timeBase: timeBase)
        configuration = .vpx(VPXConfiguration(codec: .vp8, profile: 0,
                                               level: VPXEncoderCore.level(width: format.width, height: format.height,
                                                                           frameRate: format.frameRate)))
    }

    public func encode(_ frame: FramePlanes, pts: Int64, duration: Int64) throws -> [EncodedPacket] { try core.encode(frame, pts: pts, duration: duration) }
    public func flush() throws -> [EncodedPacket] { try core.flush() }
}
