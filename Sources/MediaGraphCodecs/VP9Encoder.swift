import MediaGraphCore

/// VP9 through libvpx, profile 0. Packets are VP9 frames; a hidden alternate reference travels
/// inside a superframe with the next shown frame, so there is one packet per input frame and
/// pts = dts.
public final class VP9Encoder: VideoEncoder {
    public let settings: VPXSettings
    public let configuration: CodecConfiguration
    private let core: VPXEncoderCore

    public static func validate(settings: VPXSettings, width: Int, height: Int) throws {
        try settings.validate(vp9: true, width: width, height: height)
    }

    public init(settings: VPXSettings, width: Int, height: Int, timeBase: Rational, frameRate: Rational) throws {
        self.settings = settings
        core = try VPXEncoderCore(vp9: true, settings: settings, width: width, height: height,
                                  timeBase: timeBase, frameRate: frameRate)
        configuration = .vpx(VPXConfiguration(codec: .vp9, profile: UInt8(settings.profile),
                                               level: VPXEncoderCore.level(width: width, height: height, frameRate: frameRate)))
    }

    public func encode(_ frame: FramePlanes, pts: Int64) throws -> [EncodedPacket] { try core.encode(frame, pts: pts) }
    public func flush() throws -> [EncodedPacket] { try core.flush() }
}
