import MediaGraphCore

/// Apple ProRes through libavcodec's prores_ks: every frame a key frame, 10-bit 4:2:2 or 4:4:4
/// input. The packets are prores_ks's frames as they are; ProRes has no codec-private data, and
/// its profile is named only by the container's four-character code (`codecTag`).
public final class ProResEncoder: VideoEncoder {
    public static let pixelFormats: [PixelFormat] = [.yuv422p10, .yuv444p10]

    public let settings: ProResSettings
    public let configuration: CodecConfiguration = .other(.prores, extradata: [])
    /// The QuickTime code of the profile the frames are coded in (`apch` …).
    public let codecTag: String
    private let core: LibavVideoEncoder

    /// Checks the settings for an input format without opening anything.
    public static func validate(settings: ProResSettings, format: VideoFormat) throws {
        try settings.validate(width: format.width, height: format.height, pixelFormat: format.pixelFormat)
    }

    public init(settings: ProResSettings, format: VideoFormat, timeBase: Rational) throws {
        try Self.validate(settings: settings, format: format)
        self.settings = settings
        codecTag = settings.resolvedProfile(for: format.pixelFormat).fourCC
        core = try LibavVideoEncoder(encoderName: "prores_ks", component: "prores", options: settings.libavOptions(pixelFormat: format.pixelFormat),
                                     format: format, timeBase: timeBase, frameRate: format.frameRate,
                                     pixelFormats: Self.pixelFormats, parameterSets: false, borrowsPlanes: false)
    }

    public func encode(_ frame: FramePlanes, pts: Int64, duration: Int64) throws -> [EncodedPacket] {
        try core.encode(frame, pts: pts, duration: duration)
    }

    public func flush() throws -> [EncodedPacket] {
        try core.flush()
    }
}
