#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// ffmpeg 5.1's `colorkey` and `colorhold` on 8-bit rgba/bgra, the same bytes.
///
/// Both measure a pixel's distance from the key colour, √((dr² + dg² + db²) / (3·255²)), and turn
/// it into a weight t in 0…255: with a blend, clamp((distance − similarity) / blend, 0, 1)·255
/// truncated; without (blend ≤ 0.0001, ffmpeg's test), 255 beyond the similarity and 0 within.
/// `colorkey` writes t as the pixel's alpha (the key colour becomes transparent); `colorhold`
/// pulls the pixel towards its grey, (r+g+b)/3, by t/256 (the key colour keeps its colour).
///
/// The distance depends only on the integer dr² + dg² + db² (at most 3·255²), so t is one table
/// of 195,076 bytes, worked out once in ffmpeg's double arithmetic: a pixel costs three
/// subtractions, three multiplies and a look-up, and the result is ffmpeg's exactly.
public struct ColorKeyKernel: Sendable {
    public enum Mode: Sendable { case key, hold }

    public static let formats: [PixelFormat] = [.rgba, .bgra]
    public let mode: Mode
    public let key: (r: UInt8, g: UInt8, b: UInt8)
    /// t for each squared distance.
    private let weights: [UInt8]

    /// `similarity` and `blend` as ffmpeg keeps them (floats).
    public init(mode: Mode, key: (r: UInt8, g: UInt8, b: UInt8), similarity: Float, blend: Float) {
        self.mode = mode
        self.key = key
        let inverseBlend = 1 / blend
        let s = Double(similarity), ib = Double(inverseBlend)
        weights = (0...(3 * 255 * 255)).map { d2 in
            let distance = (Double(d2) / (255.0 * 255.0 * 3.0)).squareRoot()
            if inverseBlend < 10000 {
                return UInt8(max(0, min(1, (distance - s) * ib)) * 255)
            }
            return distance > s ? 255 : 0
        }
    }

    /// Keys or holds `source` into `destination` (same format and size; may be the same memory)
    /// on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "colorkey", source: source, destination: destination, accepted: Self.formats)
        // byte offsets of red and blue in a pixel (green and alpha are 1 and 3 in both)
        let (ro, bo) = source.format == .bgra ? (2, 0) : (0, 2)
        let kr = Int(key.r), kg = Int(key.g), kb = Int(key.b)
        let width = source.width, hold = mode == .hold
        weights.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            _ = RowBands.run(rows: source.height, threads: threads) { band in
                for y in band {
                    let s = source.data(0) + y * source.stride(0), d = destination.data(0) + y * destination.stride(0)
                    for x in 0..<width {
                        let p = s + 4 * x, q = d + 4 * x
                        let r = Int(p[ro]), g = Int(p[1]), b = Int(p[bo])
                        let dr = r - kr, dg = g - kg, db = b - kb
                        let w = Int(t[dr * dr + dg * dg + db * db])
                        if !hold {
                            if q != p { q[ro] = p[ro]; q[1] = p[1]; q[bo] = p[bo] }
                            q[3] = UInt8(truncatingIfNeeded: w)
                        } else if w > 0 {
                            let grey = (r + g + b) / 3, keep = 255 - w
                            q[ro] = UInt8(truncatingIfNeeded: (grey * w + r * keep + 127) >> 8)
                            q[1] = UInt8(truncatingIfNeeded: (grey * w + g * keep + 127) >> 8)
                            q[bo] = UInt8(truncatingIfNeeded: (grey * w + b * keep + 127) >> 8)
                            q[3] = p[3]
                        } else if q != p {
                            q[ro] = p[ro]; q[1] = p[1]; q[bo] = p[bo]; q[3] = p[3]
                        }
                    }
                }
            }
        }
    }
}
