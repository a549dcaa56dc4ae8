import MediaGraphCore

/// What a track says about itself beyond its samples, written into the moov: language (mdhd),
/// creation time (mvhd, tkhd, mdhd) and, for video, the colour description (`colr` nclx), the
/// sample aspect ratio (`pasp`, and the display width in tkhd) and the display rotation (the
/// tkhd matrix). Everything unknown is left out, so a stream that says nothing keeps saying
/// nothing.
public struct MP4TrackMetadata: Sendable, Equatable {
    /// ISO 639-2/T code ("eng"); nil or anything that is not three letters a–z is written "und".
    public var language: String?
    /// Seconds since 1970-01-01 UTC.
    public var creationTime: Int64?
    /// H.273 code points and the full-range flag, as `colr` (nclx) stores them; nil: no `colr`.
    public var colour: MP4Colour?
    /// Width : height of a sample (pixel); nil, or a ratio with a zero term, is unknown (no
    /// `pasp`; 1:1 writes none either).
    public var sampleAspect: Rational?
    /// Clockwise display rotation in degrees (0, 90, 180, 270); nil is 0. The muxer's
    /// `MP4MuxerOptions.rotation`, when set, overrides it.
    public var rotation: Int?
    /// The matrix also mirrors (`VideoFormat.mirrored`): its second row is negated.
    public var mirrored: Bool

    public init(language: String? = nil, creationTime: Int64? = nil, colour: MP4Colour? = nil,
                sampleAspect: Rational? = nil, rotation: Int? = nil, mirrored: Bool = false) {
        self.language = language
        self.creationTime = creationTime
        self.colour = colour
        self.sampleAspect = sampleAspect
        self.rotation = rotation
        self.mirrored = mirrored
    }

    /// What a raw video format says: colour when any of range, matrix, primaries and transfer is
    /// specified, aspect, rotation, language and creation time.
    public init(video f: VideoFormat) {
        self.init(language: f.tags.language, creationTime: f.tags.creationTime, colour: MP4Colour(f),
                  sampleAspect: f.sampleAspect, rotation: f.rotation, mirrored: f.mirrored)
    }

    /// What a raw audio format says: language and creation time.
    public init(audio f: AudioFormat) {
        self.init(language: f.tags.language, creationTime: f.tags.creationTime)
    }

    /// The aspect ratio when it is known and not square.
    var nonSquareAspect: Rational? {
        guard let a = sampleAspect, a.num > 0, a.den > 0, a.num != a.den else { return nil }
        return a
    }

    /// mdhd's language in a QuickTime movie, as ffmpeg's mov muxer writes it: a Macintosh
    /// language code for the languages that have one (the QuickTime File Format's table; the
    /// common ones are here), 0x7FFF (unspecified) for "und" or none, else the ISO code packed
    /// as in MP4, which QuickTime also reads.
    var quickTimeLanguage: UInt16 {
        guard let language, language != "und" else { return 0x7FFF }
        if let mac = Self.macintoshLanguages.firstIndex(of: language) { return UInt16(mac) }
        return packedLanguage
    }

    /// Macintosh language codes 0…23 (QuickTime File Format, "Language Code Values"), by ISO 639-2/T code.
    static let macintoshLanguages = ["eng", "fra", "deu", "ita", "nld", "swe", "spa", "dan", "por", "nor", "heb", "jpn",
                                     "ara", "fin", "ell", "isl", "mlt", "tur", "hrv", "zho", "urd", "hin", "tha", "kor"]

    /// mdhd's language: three 5-bit letters (each minus 0x60), "und" when unknown.
    var packedLanguage: UInt16 {
        let letters = Array((language ?? "und").utf8)
        let code = letters.count == 3 && letters.allSatisfy({ (0x61...0x7A).contains($0) }) ? letters : Array("und".utf8)
        return code.reduce(0) { $0 << 5 | UInt16($1 - 0x60) }
    }
}

/// The `colr` box of type nclx (ISO/IEC 14496-12 12.1.5): H.273 code points, 2 = unspecified.
public struct MP4Colour: Sendable, Equatable {
    public var primaries: Int
    public var transfer: Int
    public var matrix: Int
    public var fullRange: Bool

    public init(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool) {
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.fullRange = fullRange
    }

    /// The colour a raw video format specifies; nil when it specifies none of range, matrix,
    /// primaries and transfer.
    public init?(_ f: VideoFormat) {
        guard f.range != .unspecified || f.matrix != .unspecified || f.color.primaries != .unspecified
                || f.color.transfer != .unspecified else { return nil }
        self.init(primaries: f.color.primaries.code, transfer: f.color.transfer.code, matrix: f.matrix.code,
                  fullRange: f.range == .full)
    }
}
