/// Colour description of video, as H.264/HEVC VUI, VP9, AV1, the MP4 `colr` box and libavutil
/// all signal it. The code points are those of ITU-T H.273 (ISO/IEC 23091-2), so they pass
/// between containers, codecs and libav without translation tables. Every property has an
/// `unspecified` value: a stream that says nothing keeps saying nothing (a filter or converter
/// interprets unspecified as the common default where it must compute with it).

/// Whether YUV samples use the limited (16-235/240, "tv") or the full (0-255, "pc") range.
/// Unspecified YUV is computed with as limited; RGB is always full.
public enum ColorRange: String, CaseIterable, Hashable, Sendable {
    case limited, full, unspecified

    /// The ranges a user may ask for (a param's choices).
    public static let choices: [ColorRange] = [.limited, .full]
}

/// The matrix between R'G'B' and Y'CbCr (H.273 MatrixCoefficients). `bt601` is BT.601-7 525/625
/// (code 6, SMPTE 170M; code 5, BT.470BG, reads as it too).
public enum YCbCrMatrix: String, CaseIterable, Hashable, Sendable {
    case rgb, bt709, unspecified, fcc, bt470bg, bt601, smpte240m, ycgco, bt2020nc, bt2020c

    /// The H.273 code point.
    public var code: Int {
        switch self {
        case .rgb: return 0
        case .bt709: return 1
        case .unspecified: return 2
        case .fcc: return 4
        case .bt470bg: return 5
        case .bt601: return 6
        case .smpte240m: return 7
        case .ycgco: return 8
        case .bt2020nc: return 9
        case .bt2020c: return 10
        }
    }

    /// The matrix of an H.273 code point (unknown codes read as unspecified).
    public init(code: Int) {
        self = YCbCrMatrix.allCases.first { $0.code == code } ?? .unspecified
    }

    /// The matrices a user may ask a converter for.
    public static let choices: [YCbCrMatrix] = [.bt601, .bt709, .bt2020nc, .smpte240m, .fcc, .bt470bg]
}

/// H.273 ColourPrimaries code points.
public enum ColorPrimaries: String, CaseIterable, Hashable, Sendable {
    case bt709, unspecified, bt470m, bt470bg, smpte170m, smpte240m, film, bt2020, smpte428, smpte431, smpte432, ebu3213

    public var code: Int {
        switch self {
        case .bt709: return 1
        case .unspecified: return 2
        case .bt470m: return 4
        case .bt470bg: return 5
        case .smpte170m: return 6
        case .smpte240m: return 7
        case .film: return 8
        case .bt2020: return 9
        case .smpte428: return 10
        case .smpte431: return 11
        case .smpte432: return 12
        case .ebu3213: return 22
        }
    }

    public init(code: Int) {
        self = ColorPrimaries.allCases.first { $0.code == code } ?? .unspecified
    }
}

/// H.273 TransferCharacteristics code points.
public enum TransferCharacteristic: String, CaseIterable, Hashable, Sendable {
    case bt709, unspecified, gamma22, gamma28, smpte170m, smpte240m, linear, log100, log316
    case iec61966_2_4 = "iec61966-2-4", bt1361e, iec61966_2_1 = "iec61966-2-1", bt2020_10 = "bt2020-10"
    case bt2020_12 = "bt2020-12", smpte2084, smpte428, aribStdB67 = "arib-std-b67"

    public var code: Int {
        switch self {
        case .bt709: return 1
        case .unspecified: return 2
        case .gamma22: return 4
        case .gamma28: return 5
        case .smpte170m: return 6
        case .smpte240m: return 7
        case .linear: return 8
        case .log100: return 9
        case .log316: return 10
        case .iec61966_2_4: return 11
        case .bt1361e: return 12
        case .iec61966_2_1: return 13
        case .bt2020_10: return 14
        case .bt2020_12: return 15
        case .smpte2084: return 16
        case .smpte428: return 17
        case .aribStdB67: return 18
        }
    }

    public init(code: Int) {
        self = TransferCharacteristic.allCases.first { $0.code == code } ?? .unspecified
    }
}

/// Where chroma samples sit relative to luma (libavutil's AVChromaLocation numbering; H.264/HEVC
/// chroma_sample_loc_type is this value minus one).
public enum ChromaLocation: String, CaseIterable, Hashable, Sendable {
    case unspecified, left, center, topleft, top, bottomleft, bottom

    /// libavutil's AVChromaLocation value.
    public var code: Int {
        switch self {
        case .unspecified: return 0
        case .left: return 1
        case .center: return 2
        case .topleft: return 3
        case .top: return 4
        case .bottomleft: return 5
        case .bottom: return 6
        }
    }

    public init(code: Int) {
        self = ChromaLocation.allCases.first { $0.code == code } ?? .unspecified
    }
}

/// Primaries, transfer and chroma siting of a video stream (matrix and range sit on the formats
/// themselves because converters compute with them).
public struct VideoColor: Hashable, Sendable, CustomStringConvertible {
    public var primaries: ColorPrimaries
    public var transfer: TransferCharacteristic
    public var chromaLocation: ChromaLocation

    public init(primaries: ColorPrimaries = .unspecified, transfer: TransferCharacteristic = .unspecified,
                chromaLocation: ChromaLocation = .unspecified) {
        self.primaries = primaries
        self.transfer = transfer
        self.chromaLocation = chromaLocation
    }

    /// Nothing signalled.
    public static let unspecified = VideoColor()

    public var description: String {
        var parts: [String] = []
        if primaries != .unspecified { parts.append("primaries \(primaries.rawValue)") }
        if transfer != .unspecified { parts.append("transfer \(transfer.rawValue)") }
        if chromaLocation != .unspecified { parts.append("chroma \(chromaLocation.rawValue)") }
        return parts.joined(separator: " ")
    }
}

/// What a stream says about itself beyond its samples: language, title, creation time. Travels
/// with the formats from a source through filters and encoders to the muxer.
public struct StreamTags: Hashable, Sendable {
    /// ISO 639-2/T three-letter language code ("eng"), nil when unknown or "und".
    public var language: String?
    public var title: String?
    /// Seconds since 1970-01-01 UTC.
    public var creationTime: Int64?
    /// The tags of the whole file the stream came from (title, artist, …, as libavformat names
    /// and orders them): a muxer writing one file from it keeps those it can write, as ffmpeg does.
    public var movie: TagList
    /// The chapters of the file the stream came from, on the stream's own time line (a trimmed
    /// source moves and cuts them): a muxer writes them as ffmpeg's default -map_chapters does.
    public var chapters: [Chapter]

    public init(language: String? = nil, title: String? = nil, creationTime: Int64? = nil, movie: TagList = [:],
                chapters: [Chapter] = []) {
        self.language = language
        self.title = title
        self.creationTime = creationTime
        self.movie = movie
        self.chapters = chapters
    }
}
