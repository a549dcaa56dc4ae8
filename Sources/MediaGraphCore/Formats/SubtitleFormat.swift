/// Format of encoded text subtitles: each packet is one cue (its text as the codec stores it:
/// SubRip or WebVTT text, an ASS event line without its times), shown from its pts for its
/// duration. Only text codecs flow on edges (`SubtitleFormat.textCodecs`); bitmap subtitles
/// (DVD, PGS) are listed by `probe` but get no port.
public struct SubtitleFormat: Hashable, Sendable, CustomStringConvertible {
    public var codec: Codec
    /// Time base of the packets' pts and duration.
    public var timeBase: Rational
    /// Codec-private data as the container stored it: the ASS/SSA header (script info and
    /// styles), a WebVTT file header; empty for SubRip and mov_text without one.
    public var extradata: [UInt8]
    /// Language, title and the file's tags, as for video and audio.
    public var tags: StreamTags
    /// The container marks the track to be shown when the player chooses by itself.
    public var isDefault: Bool
    /// The track is forced: shown even when subtitles are off (foreign-language lines).
    public var isForced: Bool

    public init(codec: Codec, timeBase: Rational, extradata: [UInt8] = [], tags: StreamTags = StreamTags(),
                isDefault: Bool = false, isForced: Bool = false) {
        self.codec = codec
        self.timeBase = timeBase
        self.extradata = extradata
        self.tags = tags
        self.isDefault = isDefault
        self.isForced = isForced
    }

    public var description: String {
        var s = "subtitle/\(codec)"
        if let l = tags.language { s += " [\(l)]" }
        if isDefault { s += " default" }
        if isForced { s += " forced" }
        return s
    }

    /// The text codecs that flow on edges, by libavcodec's names.
    public static let textCodecs: [Codec] = [.subrip, .ass, .ssa, .webvtt, .movText]
}

extension Codec {
    // text subtitles (libavcodec's names)
    public static let subrip = Codec("subrip", kind: .subtitle)
    public static let ass = Codec("ass", kind: .subtitle)
    public static let ssa = Codec("ssa", kind: .subtitle)
    public static let webvtt = Codec("webvtt", kind: .subtitle)
    public static let movText = Codec("mov_text", kind: .subtitle)
}

/// What a WebVTT cue carries besides its text: its identifier (the line before the times) and
/// its settings (what follows the times: "align:start line:0"), as libavformat gives them
/// apart from the packet (AV_PKT_DATA_WEBVTT_IDENTIFIER / _SETTINGS). Empty when absent.
public struct WebVTTCueExtras: Hashable, Sendable {
    public var identifier: [UInt8]
    public var settings: [UInt8]

    public init(identifier: [UInt8] = [], settings: [UInt8] = []) {
        self.identifier = identifier
        self.settings = settings
    }

    public var isEmpty: Bool { identifier.isEmpty && settings.isEmpty }
}
