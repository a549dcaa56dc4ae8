import MediaGraphCore

/// An HLS media playlist (RFC 8216) of fragmented-MP4 segments (with an initialization
/// segment) or MPEG-TS segments (without one), as text.
public struct HLSPlaylist: Sendable, Equatable {
    /// `#EXT-X-PLAYLIST-TYPE`: VOD is complete when first written; EVENT grows by appending;
    /// a live playlist has no type and lists a sliding window of the latest segments
    /// (`HLSLiveWindow`).
    public enum Kind: String, Sendable, CaseIterable {
        case vod, event, live

        /// Whether the playlist is rewritten after every segment (a player can follow the run).
        public var growsWhileRunning: Bool { self != .vod }
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
    /// Every segment written, listed or not.
    public var segments: [Segment] = []
    /// `#EXT-X-ENDLIST`: no segment will be added.
    public var ended = false
    /// A live playlist's window (ignored for VOD and EVENT, which list every segment, as
    /// ffmpeg's hls_playlist_type forces hls_list_size 0).
    public var window: HLSLiveWindow
    /// `#EXT-X-PROGRAM-DATE-TIME` after each #EXTINF (ffmpeg's `-hls_flags program_date_time`):
    /// the wall-clock start of segment 0, seconds since 1970; each segment's is it plus the
    /// durations of the segments before, listed or not. Nil: no such tag.
    public var programDateTime: Double?

    public init(kind: Kind, mapURI: String?, window: HLSLiveWindow = HLSLiveWindow()) {
        self.kind = kind
        self.mapURI = mapURI
        self.window = kind == .live ? window : HLSLiveWindow()
    }

    /// `#EXT-X-MEDIA-SEQUENCE`: the number of the first segment listed.
    public var mediaSequence: Int { window.unlisted(of: segments.count) }

    /// The segments the playlist lists.
    public var listed: ArraySlice<Segment> { segments.dropFirst(mediaSequence) }

    /// `#EXT-X-TARGETDURATION`: the longest listed segment in whole seconds, rounded to the
    /// nearest, ties to even — ffmpeg's `lrint` (hlsenc.c), and what RFC 8216 4.3.3.1 asks: each
    /// duration rounded to the nearest integer is no more (2.005333 s gives 2, 2.6 s gives 3).
    /// At least 1 where ffmpeg writes 0 (segments of half a second or less), which would have a
    /// player reload the playlist without pause.
    public var targetDuration: Int64 {
        guard let longest = listed.map({ s -> Int64 in
            let d = s.duration
            guard d.timescale > 0, d.value > 0 else { return 0 }
            let whole = d.value / d.timescale, twice = 2 * (d.value % d.timescale)
            return twice > d.timescale || (twice == d.timescale && whole % 2 == 1) ? whole + 1 : whole
        }).max() else { return 0 }
        return max(1, longest)
    }

    /// The playlist file. Version 7 with fMP4 segments: EXT-X-MAP in a playlist without
    /// I-frames-only needs 6 (RFC 8216 section 7), and ffmpeg writes 7 for fMP4 segments, which
    /// players expect; 3 with MPEG-TS segments (decimal #EXTINF durations), as ffmpeg writes.
    public var text: String {
        var lines = ["#EXTM3U", mapURI == nil ? "#EXT-X-VERSION:3" : "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(targetDuration)", "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)"]
        switch kind {
        case .vod: lines.append("#EXT-X-PLAYLIST-TYPE:VOD")
        case .event: lines.append("#EXT-X-PLAYLIST-TYPE:EVENT")
        case .live: break
        }
        if listed.allSatisfy(\.independent) { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let mapURI { lines.append("#EXT-X-MAP:URI=\"\(mapURI)\"") }
        var clock = programDateTime.map { start in segments.prefix(mediaSequence).reduce(start) { $0 + $1.duration.seconds } }
        for s in listed {
            lines.append("#EXTINF:\(Self.decimal(s.duration)),")
            if let t = clock {
                lines.append(HLSProgramDateTime.line(t))
                clock = t + s.duration.seconds
            }
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
