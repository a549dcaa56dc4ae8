/// Ordered (Bayer 8x8) dithering onto a fixed palette: each pixel is offset by its threshold in
/// the matrix, scaled by the strength, then mapped to the nearest palette colour. Unlike error
/// diffusion, a pixel's index depends only on its own colour and position, so unchanged areas
/// stay identical from frame to frame (better for the transparency of unchanged pixels).
///
/// The nearest colour comes from a cache of 32768 cells (5 bits per channel), filled on first
/// use per palette: one lookup per pixel in the steady state.
public final class GifOrderedDither {
    private var cache = [UInt16](repeating: .max, count: 1 << 15)
    private var palette: [Int32] = []

    /// Offsets of the 8x8 Bayer matrix, centred on 0, in units of 1/64.
    private static let bayer: [Int32] = {
        var m = [Int32](repeating: 0, count: 64)
        for y in 0..<8 {
            for x in 0..<8 {
                // bit-reversed interleaving of x ^ y and y gives the recursive Bayer order
                let a = x ^ y, b = y
                var v = 0
                for bit in 0..<3 {
                    v |= ((a >> bit) & 1) << (5 - 2 * bit)
                    v |= ((b >> bit) & 1) << (4 - 2 * bit)
                }
                m[y * 8 + x] = Int32(2 * v - 63)  // -63 ... 63, in 1/128 steps of the spread
            }
        }
        return m
    }()

    public init() {}

    /// Maps `rgba` (`width * 4` bytes per row) onto `rgb` (the palette's triplets) with the
    /// given strength (0 = nearest colour, 1 = full spread of about 1/8 of the range).
    public func remap(_ rgba: UnsafePointer<UInt8>, width: Int, height: Int, rgb: [UInt8], strength: Double,
                      into indices: UnsafeMutablePointer<UInt8>) {
        setPalette(rgb)
        let spread = Int32(strength * 32)  // ± 32 levels at full strength
        Self.bayer.withUnsafeBufferPointer { bayer in
            cache.withUnsafeMutableBufferPointer { cache in
                palette.withUnsafeBufferPointer { pal in
                    for y in 0..<height {
                        let row = rgba + y * width * 4
                        let out = indices + y * width
                        let brow = bayer.baseAddress! + (y & 7) * 8
                        for x in 0..<width {
                            let d = brow[x & 7] * spread / 128
                            let r = clamp(Int32(row[4 * x]) + d), g = clamp(Int32(row[4 * x + 1]) + d)
                            let b = clamp(Int32(row[4 * x + 2]) + d)
                            let key = Int((r >> 3) << 10 | (g >> 3) << 5 | (b >> 3))
                            var i = cache[key]
                            if i == .max {
                                i = Self.nearest(r | 4, g | 4, b | 4, pal)
                                cache[key] = i
                            }
                            out[x] = UInt8(truncatingIfNeeded: i)
                        }
                    }
                }
            }
        }
    }

    @inline(__always) private func clamp(_ v: Int32) -> Int32 { min(max(v, 0), 255) }

    private func setPalette(_ rgb: [UInt8]) {
        var packed = [Int32](repeating: 0, count: rgb.count / 3)
        for i in packed.indices {
            let r = Int32(rgb[3 * i]), g = Int32(rgb[3 * i + 1]), b = Int32(rgb[3 * i + 2])
            packed[i] = r << 16 | g << 8 | b
        }
        if packed != palette {
            palette = packed
            for i in cache.indices { cache[i] = .max }
        }
    }

    private static func nearest(_ r: Int32, _ g: Int32, _ b: Int32, _ pal: UnsafeBufferPointer<Int32>) -> UInt16 {
        var best = 0, bestDistance = Int32.max
        for (i, c) in pal.enumerated() {
            let dr = r - (c >> 16), dg = g - (c >> 8 & 255), db = b - (c & 255)
            // weights close to the eye's sensitivity (green most, blue least)
            let d = 2 * dr * dr + 4 * dg * dg + db * db
            if d < bestDistance { bestDistance = d; best = i }
        }
        return UInt16(best)
    }
}
