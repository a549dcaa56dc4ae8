import MediaGraphCore

/// An HLS master playlist (RFC 8216 section 4.3.4), as text: the audio renditions
/// (`#EXT-X-MEDIA:TYPE=AUDIO`, one group) and one `#EXT-X-STREAM-INF` per video variant, each
/// followed by its media playlist's URI, in the order given.
public struct HLSMasterPlaylist: Sendable, Equatable {
    /// One variant stream: a video media playlist, played with the audio group if there is one.
    public struct Variant: Sendable, Equatable {
        public var uri: String
        /// Peak segment bit rate, bits/s, the audio group's largest included.
        public var bandwidth: Int
        /// Average segment bit rate, bits/s, likewise.
        public var averageBandwidth: Int?
        /// RFC 6381 codec strings of the video and of the audio it plays with.
        public var codecs: [String]
        public var width: Int?
        public var height: Int?
        public var frameRate: Rational?

        public init(uri: String, bandwidth: Int, averageBandwidth: Int? = nil, codecs: [String] = [],
                    width: Int? = nil, height: Int? = nil, frameRate: Rational? = nil) {
            self.uri = uri
            self.bandwidth = bandwidth
            self.averageBandwidth = averageBandwidth
            self.codecs = codecs
            self.width = width
            self.height = height
            self.frameRate = frameRate
        }
    }

    /// One audio rendition of the group every variant refers to.
    public struct AudioRendition: Sendable, Equatable {
        public var uri: String
        /// Unique in the group; what a player shows in its audio menu.
        public var name: String
        /// RFC 5646 tag (an ISO 639 code is one).
        public var language: String?
        /// `DEFAULT=YES`: played when the user has not chosen (one per group).
        public var isDefault: Bool

        public init(uri: String, name: String, language: String? = nil, isDefault: Bool) {
            self.uri = uri
            self.name = name
            self.language = language
            self.isDefault = isDefault
        }
    }

    /// The GROUP-ID of the audio renditions, the AUDIO attribute of every variant.
    public static let audioGroup = "audio"

    public var variants: [Variant] = []
    public var audio: [AudioRendition] = []
    /// `#EXT-X-INDEPENDENT-SEGMENTS`: every media playlist's segments start with a key frame.
    public var independentSegments = false
    /// `#EXT-X-VERSION`: that of the media playlists (7 with fMP4 segments, 3 with MPEG-TS ones).
    public var version = 7

    public init() {}

    /// The playlist file. `version` as its media playlists state (RFC 8216 4.3.1.2: the version
    /// is that of the playlist "and its associated media"; fMP4 media playlists need 6, ffmpeg
    /// writes 7 in both, and 3 in both with MPEG-TS); the master's own tags need no more than 1.
    public var text: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(version)"]
        if independentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        for a in audio {
            var attributes = ["TYPE=AUDIO", "GROUP-ID=\(Self.quoted(Self.audioGroup))", "NAME=\(Self.quoted(a.name))"]
            if let language = a.language { attributes.append("LANGUAGE=\(Self.quoted(language))") }
            attributes += ["DEFAULT=\(a.isDefault ? "YES" : "NO")", "AUTOSELECT=YES", "URI=\(Self.quoted(a.uri))"]
            lines.append("#EXT-X-MEDIA:" + attributes.joined(separator: ","))
        }
        for v in variants {
            var attributes = ["BANDWIDTH=\(v.bandwidth)"]
            if let average = v.averageBandwidth { attributes.append("AVERAGE-BANDWIDTH=\(average)") }
            if !v.codecs.isEmpty { attributes.append("CODECS=\(Self.quoted(v.codecs.joined(separator: ",")))") }
            if let w = v.width, let h = v.height, w > 0, h > 0 { attributes.append("RESOLUTION=\(w)x\(h)") }
            if let r = v.frameRate, r.num > 0, r.den > 0 { attributes.append("FRAME-RATE=\(Self.threeDecimals(r))") }
            if !audio.isEmpty { attributes.append("AUDIO=\(Self.quoted(Self.audioGroup))") }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append(v.uri)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A quoted-string attribute value; callers give no `"` or line break (names are checked
    /// with `HLSPlaylist.unusableCharacter`, languages with `isQuotable`).
    static func quoted(_ s: String) -> String { "\"" + s + "\"" }

    /// Whether a text can stand in a quoted-string attribute (RFC 8216 4.2: no `"`, CR or LF).
    public static func isQuotable(_ s: String) -> Bool {
        !s.unicodeScalars.contains { $0 == "\"" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// A frame rate with three decimals (RFC 8216 FRAME-RATE: "rounded to three decimal
    /// places"), from the fraction, without floating point: 30000/1001 is 29.970.
    static func threeDecimals(_ r: Rational) -> String {
        let thousandths = (r.num * 2000 + r.den) / (2 * r.den)
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
