import MediaGraphCore

/// The picture file formats MediaGraph writes (and reads back as image sequences).
public enum StillImageFormat: String, CaseIterable, Hashable, Sendable {
    case png, jpeg, webp

    /// The format a file name's extension names (`.png`, `.jpg`/`.jpeg`, `.webp`; any case),
    /// or nil.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// libavcodec's encoder for the format.
    var encoderName: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "mjpeg"
        case .webp: return "libwebp"
        }
    }

    /// The usual file extension.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}

/// How a still picture is encoded. Ranges are checked by `StillImageEncoder`.
public struct StillImageSettings: Hashable, Sendable {
    public var format: StillImageFormat
    /// 1…100, higher is better (JPEG, lossy WebP): JPEG maps it to libavcodec's qscale
    /// (`qscale = round(31 - (quality - 1) * 30 / 99)`, so 100 is ffmpeg's `-q:v 1` and 1 is
    /// `-q:v 31`); WebP passes it to libwebp as is.
    public var quality: Int
    /// WebP only: lossless instead of lossy.
    public var lossless: Bool
    /// JPEG only: chroma at full resolution (yuvj444p) instead of halved both ways (yuvj420p).
    public var fullChroma: Bool
    /// Effort spent on smaller files: PNG's zlib level 0…9, WebP's method 0…6 (clamped); JPEG
    /// ignores it. nil: the library's default.
    public var effort: Int?
    /// The picture's size (nil: the frame's); the frame is scaled with libswscale (bicubic).
    public var width: Int?
    public var height: Int?

    public init(format: StillImageFormat, quality: Int = 90, lossless: Bool = false, fullChroma: Bool = false,
                effort: Int? = nil, width: Int? = nil, height: Int? = nil) {
        self.format = format
        self.quality = quality
        self.lossless = lossless
        self.fullChroma = fullChroma
        self.effort = effort
        self.width = width
        self.height = height
    }

    /// The accepted range of `quality`.
    public static let qualityRange = 1...100
    /// The accepted range of `effort`.
    public static let effortRange = 0...9

    /// JPEG's qscale for `quality` (see `quality`).
    public static func jpegQScale(quality: Int) -> Int {
        let q = Swift.min(Swift.max(quality, 1), 100)
        return Int((31 - Double(q - 1) * 30 / 99).rounded())
    }
}
