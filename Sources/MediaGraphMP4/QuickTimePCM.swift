import MediaGraphCore

/// Uncompressed sound in a QuickTime movie: which sample description ffmpeg's mov muxer writes
/// for each libavcodec PCM codec (16-bit and 8-bit in a version 0 description; wider samples
/// in version 1, with a `wave` atom that states the byte order; at rates above 65535 Hz, which
/// the older ones cannot state, `lpcm` in version 2 with Core Audio's format flags), and how big
/// one sample frame (every channel's sample at one instant) is. In the sample table a PCM sample is one
/// such frame, of constant size, lasting one tick of the sample rate.
public struct QuickTimePCM: Hashable, Sendable {
    public let codec: Codec
    /// The sample description's type (`sowt`, `twos`, `in24`, …).
    public let fourCC: String
    public let bytesPerSample: Int
    public let littleEndian: Bool
    public let isFloat: Bool

    /// Version 1 sound descriptions carry the sizes of the samples (QuickTime File Format,
    /// "Sound Sample Description (Version 1)"); ffmpeg writes them for samples wider than 16 bits.
    var version1: Bool { bytesPerSample > 2 }

    /// The PCM codecs a .mov takes, as ffmpeg's mov muxer tags them.
    public static let all: [QuickTimePCM] = [
        .init("pcm_s16le", "sowt", 2, true), .init("pcm_s16be", "twos", 2, false),
        .init("pcm_s24le", "in24", 3, true), .init("pcm_s24be", "in24", 3, false),
        .init("pcm_s32le", "in32", 4, true), .init("pcm_s32be", "in32", 4, false),
        .init("pcm_f32le", "fl32", 4, true), .init("pcm_f32be", "fl32", 4, false),
        .init("pcm_f64le", "fl64", 8, true), .init("pcm_f64be", "fl64", 8, false),
        .init("pcm_u8", "raw ", 1, false),
    ]

    private init(_ name: String, _ fourCC: String, _ bytes: Int, _ littleEndian: Bool) {
        codec = Codec(name, kind: .audio)
        self.fourCC = fourCC
        bytesPerSample = bytes
        self.littleEndian = littleEndian
        isFloat = name.hasPrefix("pcm_f")
    }

    /// Whether a sound description of version 2 is needed: its rate is a 64-bit float, where
    /// versions 0 and 1 hold a 16.16 fixed-point rate.
    static func needsVersion2(sampleRate: Int) -> Bool { sampleRate > 0xFFFF }

    /// Core Audio's LPCM format flags (AudioStreamBasicDescription) that a version 2
    /// description states: float 1, big-endian 2, signed integer 4, packed 8.
    var formatFlags: UInt32 {
        var flags: UInt32 = 8
        if isFloat { flags |= 1 } else if codec.rawValue != "pcm_u8" { flags |= 4 }
        if !littleEndian && bytesPerSample > 1 { flags |= 2 }
        return flags
    }

    /// The description of a PCM codec; nil for any other codec.
    public init?(_ codec: Codec) {
        guard let c = Self.all.first(where: { $0.codec.rawValue == codec.rawValue }) else { return nil }
        self = c
    }
}

/// The sample description types of ProRes in a QuickTime movie, one per profile (proxy, LT,
/// standard, HQ, 4444, 4444 XQ).
public enum ProResTags {
    public static let all = ["apco", "apcs", "apcn", "apch", "ap4h", "ap4x"]
}

extension MP4Muxer {
    /// The compressed codecs a QuickTime movie is written with (besides PCM sound).
    static let quickTimeCodecs: [Codec] = [.h264, .hevc, .prores, .aac]
}
