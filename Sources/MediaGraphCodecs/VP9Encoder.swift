import MediaGraphCore

/// VP9 through libvpx: profile 0 from yuv420p, profile 2 from yuv420p10le. Packets are VP9
/// frames; a hidden alternate reference travels inside a superframe with the next shown frame,
/// so there is one packet per input frame and pts = dts. The input's colour space and range go
/// into the bitstream and, with primaries and transfer, into the vpcC description.
public final class VP9Encoder: VideoEncoder {
    public static let pixelFormats: [PixelFormat] = [.yuv420p, .yuv420p10]

    public let settings: VPXSettings
    public let configuration: CodecConfiguration
    private let core: VPXEncoderCore

    public static func validate(settings: VPXSettings, width: Int, height: Int) throws {
        try settings.validate(vp9: true, width: width, height: height)
    }

    /// Checks the settings for an input format without opening anything.
    public static func validate(settings: VPXSettings, format: VideoFormat) throws {
        try settings.validate(vp9: true, width: format.width, height: format.height, pixelFormat: format.pixelFormat)
    }

    public init(settings: VPXSettings, format: VideoFormat, timeBase: Rational) throws {
        self.settings = settings
        core = try VPXEncoderCore(vp9: true, settings: settings, format: format, timeBase: timeBase)
        configuration = .vpx(VPXEncoderCore.configuration(vp9: true, profile: core.profile, format: format))
    }

    public func encode(_ frame: FramePlanes, pts: Int64, duration: Int64) throws -> [EncodedPacket] { try core.encode(frame, pts: pts, duration: duration) }
    public func flush() throws -> [EncodedPacket] { try core.flush() }
}
