import MediaGraphCore

/// An HLS media playlist of fragmented-MP4 segments (RFC 8216), as text.
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
    }

    public var kind: Kind
    /// The initialization segment's URI (`#EXT-X-MAP`).
    public var mapURI: String
    public var segments: [Segment] = []
    /// `#EXT-X-ENDLIST`: no segment will be added.
    public var ended = false

    public init(kind: Kind, mapURI: String) {
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

    /// The playlist file. Version 7: EXT-X-MAP in a playlist without I-frames-only needs 6
    /// (RFC 8216 section 7), and ffmpeg writes 7 for fMP4 segments, which players expect.
    public var text: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(targetDuration)", "#EXT-X-MEDIA-SEQUENCE:0"]
        lines.append("#EXT-X-PLAYLIST-TYPE:\(kind == .vod ? "VOD" : "EVENT")")
        if segments.allSatisfy(\.independent) { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        lines.append("#EXT-X-MAP:URI=\"\(mapURI)\"")
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

    /// A file name as a URI relative to the playlist: RFC 3986 unreserved characters as they
    /// are, every other byte percent-encoded (so a quote or a space cannot break a tag).
    public static func uri(forFileName name: String) -> String {
        var out = ""
        for b in name.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(b >> 4)])
                out.unicodeScalars.append(hex[Int(b & 15)])
            }
        }
        return out
    }
}
