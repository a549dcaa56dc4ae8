import MediaGraphCore

/// H.264 through libavcodec's libx264 wrapper.
///
/// Packets are Annex B (start codes), with SPS and PPS in front of every key frame, exactly as
/// `ffmpeg -c:v libx264 -f h264` writes them; `configuration` holds the same SPS/PPS without
/// start codes for an avcC.
public final class H264Encoder: VideoEncoder {
    public let settings: H264Settings
    public let configuration: CodecConfiguration
    private let core: LibavVideoEncoder

    /// Checks the settings for a frame size without opening anything.
    public static func validate(settings: H264Settings, width: Int, height: Int) throws {
        try settings.validate(width: width, height: height)
    }

    public init(settings: H264Settings, width: Int, height: Int, timeBase: Rational, frameRate: Rational) throws {
        try settings.validate(width: width, height: height)
        self.settings = settings
        core = try LibavVideoEncoder(encoderName: "libx264", component: "h264", options: settings.libavOptions,
                                     width: width, height: height, timeBase: timeBase, frameRate: frameRate)
        let units = core.headerUnits
        configuration = .h264(H264Configuration(sps: units.filter { ($0.first ?? 0) & 0x1f == 7 },
                                                pps: units.filter { ($0.first ?? 0) & 0x1f == 8 }))
    }

    public func encode(_ frame: FramePlanes, pts: Int64) throws -> [EncodedPacket] {
        try core.encode(frame, pts: pts)
    }

    public func flush() throws -> [EncodedPacket] {
        try core.flush()
    }
}
