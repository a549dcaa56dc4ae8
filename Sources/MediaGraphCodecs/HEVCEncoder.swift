import MediaGraphCore

/// HEVC through libavcodec's libx265 wrapper. Packets are Annex B with VPS/SPS/PPS in front of
/// every key frame; `configuration` holds them without start codes for an hvcC.
public final class HEVCEncoder: VideoEncoder {
    public let settings: HEVCSettings
    public let configuration: CodecConfiguration
    private let core: LibavVideoEncoder

    public static func validate(settings: HEVCSettings, width: Int, height: Int) throws {
        try settings.validate(width: width, height: height)
    }

    public init(settings: HEVCSettings, width: Int, height: Int, timeBase: Rational, frameRate: Rational) throws {
        try settings.validate(width: width, height: height)
        self.settings = settings
        core = try LibavVideoEncoder(encoderName: "libx265", component: "hevc", options: settings.libavOptions,
                                     width: width, height: height, timeBase: timeBase, frameRate: frameRate)
        let all = core.headerUnits
        func units(_ type: UInt8) -> [[UInt8]] { all.filter { (($0.first ?? 0) >> 1) & 0x3f == type } }
        configuration = .hevc(HEVCConfiguration(vps: units(32), sps: units(33), pps: units(34)))
    }

    public func encode(_ frame: FramePlanes, pts: Int64) throws -> [EncodedPacket] {
        try core.encode(frame, pts: pts)
    }

    public func flush() throws -> [EncodedPacket] {
        try core.flush()
    }
}
