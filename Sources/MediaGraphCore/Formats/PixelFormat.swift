/// Raw video pixel formats. Planar YUV formats keep Y, U, V in separate planes, packed RGB
/// formats keep every component of a pixel together in one plane. The 8-bit formats are what the
/// kernels and shaders take; the 10-bit ones (each sample in the low bits of a little-endian
/// 16-bit word, as libavutil's `…p10le`) are what HEVC Main 10, VP9 profile 2 and ProRes decode
/// to and what x265 and libvpx encode from. The raw value is libavutil's name.
public enum PixelFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case yuv420p, yuv422p, yuv444p, rgba, bgra, gray
    case yuv420p10 = "yuv420p10le", yuv422p10 = "yuv422p10le", yuv444p10 = "yuv444p10le"

    public var description: String { rawValue }

    /// The formats with 8 bits per component (what pixel kernels and shaders work on).
    public static let eightBit: [PixelFormat] = allCases.filter { $0.bitDepth == 8 }

    public var planeCount: Int {
        switch self {
        case .yuv420p, .yuv422p, .yuv444p, .yuv420p10, .yuv422p10, .yuv444p10: return 3
        case .rgba, .bgra, .gray: return 1
        }
    }

    public var isYUV: Bool { !isRGB }
    public var isRGB: Bool { self == .rgba || self == .bgra }

    /// Significant bits per component.
    public var bitDepth: Int {
        switch self {
        case .yuv420p10, .yuv422p10, .yuv444p10: return 10
        default: return 8
        }
    }

    /// Bytes that hold one component sample (1, or 2 for the high-bit-depth formats).
    public var bytesPerSample: Int { bitDepth > 8 ? 2 : 1 }

    /// The same layout with 8 bits per component (what a visible converter turns 10-bit into).
    public var eightBitEquivalent: PixelFormat {
        switch self {
        case .yuv420p10: return .yuv420p
        case .yuv422p10: return .yuv422p
        case .yuv444p10: return .yuv444p
        default: return self
        }
    }

    /// log2 of the horizontal and vertical chroma subsampling (0 for formats without chroma).
    public var chromaShift: (x: Int, y: Int) {
        switch self {
        case .yuv420p, .yuv420p10: return (1, 1)
        case .yuv422p, .yuv422p10: return (1, 0)
        default: return (0, 0)
        }
    }

    /// Bytes per pixel in the given plane.
    public func bytesPerPixel(plane: Int) -> Int {
        switch self {
        case .rgba, .bgra: return 4
        default: return bytesPerSample
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
