import MediaGraphCore

/// HEVC through libavcodec's libx265. Packets are Annex B with VPS/SPS/PPS in front of every key
/// frame; `configuration` holds them without start codes for an hvcC. yuv420p10le input is
/// encoded in Main 10.
public final class HEVCEncoder: VideoEncoder {
    public static let pixelFormats: [PixelFormat] = [.yuv420p, .yuv420p10]

    public let settings: HEVCSettings
    public let configuration: CodecConfiguration
    private let core: LibavVideoEncoder

    public static func validate(settings: HEVCSettings, width: Int, height: Int) throws {
        try settings.validate(width: width, height: height)
    }

    /// Checks the settings for an input format without opening anything.
    public static func validate(settings: HEVCSettings, format: VideoFormat) throws {
        try settings.validate(width: format.width, height: format.height, pixelFormat: format.pixelFormat)
    }

    /// Whether libx265 takes the `x265-params` given (only the library can check them): opens an
    /// encoder for `format` and closes it again, when there are any, so a bad entry is a
    /// validation error naming the param rather than a failed run.
    public static func checkLibraryParams(settings: HEVCSettings, format: VideoFormat) throws {
        guard let params = settings.x265Params, !params.isEmpty else { return }
        var trial = settings
        trial.threads = 1
        do {
            _ = try HEVCEncoder(settings: trial, format: format, timeBase: format.timeBase)
        } catch let e as CodecError where e.kind == .openFailed {
            throw CodecError(.invalidSetting, component: "hevc", param: "x265-params", message: e.message)
        }
    }

    public init(settings: HEVCSettings, format: VideoFormat, timeBase: Rational) throws {
        try Self.validate(settings: settings, format: format)
        self.settings = settings
        core = try LibavVideoEncoder(encoderName: "libx265", component: "hevc", options: settings.libavOptions(width: format.width),
                                     format: format, timeBase: timeBase, frameRate: format.frameRate)
        let all = core.headerUnits
        func units(_ type: UInt8) -> [[UInt8]] { all.filter { (($0.first ?? 0) >> 1) & 0x3f == type } }
        configuration = .hevc(HEVCConfiguration(vps: units(32), sps: units(33), pps: units(34)))
    }

    public func encode(_ frame: FramePlanes, pts: Int64, duration: Int64) throws -> [EncodedPacket] {
        try core.encode(frame, pts: pts, duration: duration)
    }

    public func flush() throws -> [EncodedPacket] {
        try core.flush()
    }
}
