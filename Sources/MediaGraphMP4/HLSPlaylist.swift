import MediaGraphCore

/// An HLS media playlist (RFC 8216) of fragmented-MP4 segments (with an initialization
/// segment) or MPEG-TS segments (without one), as text.
public struct HLSPlaylist: Sendable, Equatable {
    /// `#EXT-X-PLAYLIST-TYPE`: VOD is complete when first written; EVENT grows by appending.
    public enum Kind: String, Sendable, CaseIterable {
        case vod, event
    }

    public struct Segment: Sendable, Equatable {
        public var uri: String
        public var duration: MediaTime
        /// Starts with a key frame on every video track (`#EXT-X-INDEPENDENT-SEGMENTS` needs all).
        public var independent: Bool
        /// The segment file's size, for the bit rates a master playlist states (0: not known).
        public var bytes: Int

        public init(uri: String, duration: MediaTime, independent: Bool, bytes: Int = 0) {
            self.uri = uri
            self.duration = duration
            self.independent = independent
            self.bytes = bytes
        }
    }

    public var kind: Kind
    /// The initialization segment's URI (`#EXT-X-MAP`); nil for MPEG-TS segments.
    public var mapURI: String?
    public var segments: [Segment] = []
    /// `#EXT-X-ENDLIST`: no segment will be added.
    public var ended = false

    public init(kind: Kind, mapURI: String?) {
        self.kind = kind
        self.mapURI = mapURI
    }

    /// `#EXT-X-TARGETDURATION`: the longest segment in whole seconds, rounded up (RFC 8216
    /// 4.3.3.1 asks only that each duration rounded to the nearest be no more; ffmpeg rounds up).
    public var targetDuration: Int64 {
        segments.map { s in
            let d = s.duration
            return d.timescale > 0 ? (d.value + d.timescale - 1) / d.timescale : 0
        }.max() ?? 0
    }

    /// The playlist file. Version 7 with fMP4 segments: EXT-X-MAP in a playlist without
    /// I-frames-only needs 6 (RFC 8216 section 7), and ffmpeg writes 7 for fMP4 segments, which
    /// players expect; 3 with MPEG-TS segments (decimal #EXTINF durations), as ffmpeg writes.
    public var text: String {
        var lines = ["#EXTM3U", mapURI == nil ? "#EXT-X-VERSION:3" : "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(targetDuration)", "#EXT-X-MEDIA-SEQUENCE:0"]
        lines.append("#EXT-X-PLAYLIST-TYPE:\(kind == .vod ? "VOD" : "EVENT")")
        if segments.allSatisfy(\.independent) { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let mapURI { lines.append("#EXT-X-MAP:URI=\"\(mapURI)\"") }
        for s in segments {
            lines.append("#EXTINF:\(Self.decimal(s.duration)),")
            lines.append(s.uri)
        }
        if ended { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds with six decimals, as ffmpeg writes #EXTINF (no locale, no Foundation).
    static func decimal(_ t: MediaTime) -> String {
        let micro = Int64((t.seconds * 1_000_000).rounded())
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// The first character of a file name that cannot stand in the playlist as its URI, if any.
    /// Names are written as they are, as ffmpeg writes them (ffmpeg's HLS reader opens a local
    /// URI literally, without decoding %20; a browser resolving the relative URI encodes a space
    /// itself), so these are refused instead: `"` ends the quoted #EXT-X-MAP URI, `#` `?` `%` `\`
    /// change what a URI means, control characters break lines, and `/` leaves the folder.
    public static func unusableCharacter(inFileName name: String) -> Character? {
        name.first { c in
            "\"#?%\\/".contains(c) || c.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        }
    }
}
