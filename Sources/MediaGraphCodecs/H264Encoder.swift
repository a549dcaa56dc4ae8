import MediaGraphCore

/// H.264 through libavcodec's libx264.
///
/// Packets are Annex B (start codes), with SPS and PPS in front of every key frame, exactly as
/// `ffmpeg -c:v libx264 -f h264` writes them; `configuration` holds the same SPS/PPS without
/// start codes for an avcC. yuv420p10le input is encoded in High 10 (this libx264 does both
/// bit depths).
public final class H264Encoder: VideoEncoder {
    public static let pixelFormats: [PixelFormat] = [.yuv420p, .yuv420p10]

    public let settings: H264Settings
    public let configuration: CodecConfiguration
    private let core: LibavVideoEncoder

    /// Checks the settings for a frame size without opening anything.
    public static func validate(settings: H264Settings, width: Int, height: Int) throws {
        try settings.validate(width: width, height: height)
    }

    /// Checks the settings for an input format without opening anything.
    public static func validate(settings: H264Settings, format: VideoFormat) throws {
        try settings.validate(width: format.width, height: format.height, pixelFormat: format.pixelFormat)
    }

    /// Whether libx264 takes the `x264-params` given (its own option names and values, which
    /// only the library can check): opens an encoder for `format` and closes it again, when there
    /// are any, so a bad entry is a validation error naming the param rather than a failed run.
    public static func checkLibraryParams(settings: H264Settings, format: VideoFormat) throws {
        guard let params = settings.x264Params, !params.isEmpty else { return }
        var trial = settings
        trial.threads = 1
        do {
            _ = try H264Encoder(settings: trial, format: format, timeBase: format.timeBase)
        } catch let e as CodecError where e.kind == .openFailed {
            throw CodecError(.invalidSetting, component: "h264", param: "x264-params", message: e.message)
        }
    }

    public init(settings: H264Settings, format: VideoFormat, timeBase: Rational) throws {
        try Self.validate(settings: settings, format: format)
        self.settings = settings
        core = try LibavVideoEncoder(encoderName: "libx264", component: "h264", options: settings.libavOptions,
                                     format: format, timeBase: timeBase, frameRate: format.frameRate)
        let units = core.headerUnits
        var c = H264Configuration(sps: units.filter { ($0.first ?? 0) & 0x1f == 7 },
                                  pps: units.filter { ($0.first ?? 0) & 0x1f == 8 })
        c.framing = .annexB
        configuration = .h264(c)
    }

    public func encode(_ frame: FramePlanes, pts: Int64, duration: Int64) throws -> [EncodedPacket] {
        try core.encode(frame, pts: pts, duration: duration)
    }

    public func flush() throws -> [EncodedPacket] {
        try core.flush()
    }
}
