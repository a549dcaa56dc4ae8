/// A compression format, named as libavcodec names it (`avcodec_get_name`: "h264", "opus",
/// "pcm_s16le", …). Open-ended: a file may hold any codec libavcodec knows, and such a stream
/// can still be decoded or copied into a sink that takes it; the constants below are the ones
/// MediaGraph's own nodes name.
public struct Codec: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        case video, audio, subtitle, data
    }

    /// libavcodec's name of the codec.
    public let rawValue: String
    public let kind: Kind

    public init(_ name: String, kind: Kind) {
        self.rawValue = name
        self.kind = kind
    }

    /// A codec MediaGraph knows by name (nil for any other).
    public init?(rawValue: String) {
        guard let c = Codec.known.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = c
    }

    public var isVideo: Bool { kind == .video }
    public var description: String { rawValue }

    // video
    public static let h264 = Codec("h264", kind: .video)
    public static let hevc = Codec("hevc", kind: .video)
    public static let vp8 = Codec("vp8", kind: .video)
    public static let vp9 = Codec("vp9", kind: .video)
    public static let av1 = Codec("av1", kind: .video)
    public static let mpeg4 = Codec("mpeg4", kind: .video)
    public static let mpeg2video = Codec("mpeg2video", kind: .video)
    public static let mjpeg = Codec("mjpeg", kind: .video)
    public static let prores = Codec("prores", kind: .video)
    // audio
    public static let aac = Codec("aac", kind: .audio)
    public static let opus = Codec("opus", kind: .audio)
    public static let mp3 = Codec("mp3", kind: .audio)
    public static let flac = Codec("flac", kind: .audio)
    public static let vorbis = Codec("vorbis", kind: .audio)
    public static let ac3 = Codec("ac3", kind: .audio)
    public static let eac3 = Codec("eac3", kind: .audio)

    /// The codecs MediaGraph's nodes name.
    public static let known: [Codec] = [.h264, .hevc, .vp8, .vp9, .av1, .mpeg4, .mpeg2video, .mjpeg, .prores,
                                        .aac, .opus, .mp3, .flac, .vorbis, .ac3, .eac3,
                                        .subrip, .ass, .ssa, .webvtt, .movText]
}
