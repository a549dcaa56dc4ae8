/// Raw video pixel formats. All are 8 bits per component; planar YUV formats keep Y, U, V in
/// separate planes, packed RGB formats keep every component of a pixel together in one plane.
public enum PixelFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case yuv420p, yuv422p, yuv444p, rgba, bgra, gray

    public var description: String { rawValue }

    public var planeCount: Int {
        switch self {
        case .yuv420p, .yuv422p, .yuv444p: return 3
        case .rgba, .bgra, .gray: return 1
        }
    }

    public var isYUV: Bool { self == .yuv420p || self == .yuv422p || self == .yuv444p || self == .gray }
    public var isRGB: Bool { self == .rgba || self == .bgra }

    /// log2 of the horizontal and vertical chroma subsampling (0 for formats without chroma).
    public var chromaShift: (x: Int, y: Int) {
        switch self {
        case .yuv420p: return (1, 1)
        case .yuv422p: return (1, 0)
        default: return (0, 0)
        }
    }

    /// Bytes per pixel in the given plane.
    public func bytesPerPixel(plane: Int) -> Int {
        switch self {
        case .rgba, .bgra: return 4
        default: return 1
        }
    }

    /// Width in pixels and height in rows of a plane for a frame of the given size.
    /// Chroma sizes round up, as ffmpeg's AV_CEIL_RSHIFT does.
    public func planeSize(_ plane: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        if plane == 0 { return (width, height) }
        let s = chromaShift
        return ((width + (1 << s.x) - 1) >> s.x, (height + (1 << s.y) - 1) >> s.y)
    }

    /// Bytes of one tightly packed frame (the size of a frame in a raw or Y4M file).
    public func packedFrameSize(width: Int, height: Int) -> Int {
        var total = 0
        for p in 0..<planeCount {
            let s = planeSize(p, width: width, height: height)
            total += s.width * bytesPerPixel(plane: p) * s.height
        }
        return total
    }

    /// The libavutil name of the format (as `ffmpeg -pix_fmt` takes it).
    public var ffmpegName: String { rawValue }
}

/// Whether YUV samples use the limited (16-235/240, "tv") or the full (0-255, "pc") range.
public enum ColorRange: String, CaseIterable, Hashable, Sendable {
    case limited, full
}

/// The matrix between RGB and Y'CbCr.
public enum YCbCrMatrix: String, CaseIterable, Hashable, Sendable {
    case bt601, bt709
}
