import MediaGraphCore

/// Whether a frame is worth showing as a thumbnail. The luma is sampled on a grid (every 8th
/// pixel of every 8th row; RGB frames use (R + 2G + B) / 4) and put on a 0–1 scale (limited
/// range: 16 is 0 and 235 is 1). A frame is *near-black* when the mean is below 0.08, and
/// *near-uniform* when the standard deviation is below 0.04 (a fade, a title card of one colour,
/// a frozen grey picture); either rejects it. `score` (the standard deviation) ranks rejected
/// frames when no frame of a stretch passes.
struct ThumbnailFrameCheck {
    static let darkMean = 0.08
    static let flatDeviation = 0.04
    static let step = 8

    var mean = 0.0
    var deviation = 0.0
    var acceptable: Bool { mean >= Self.darkMean && deviation >= Self.flatDeviation }
    var reason: String? {
        if mean < Self.darkMean { return "near-black" }
        if deviation < Self.flatDeviation { return "near-uniform" }
        return nil
    }

    init(_ frame: FramePlanes, range: ColorRange) {
        let bpp = frame.format.bytesPerPixel(plane: 0)
        let rgb = frame.format.isRGB
        let deep = frame.format.bitDepth > 8
        let shift = frame.format.bitDepth - 8
        let rOffset = frame.format == .bgra ? 2 : 0, bOffset = frame.format == .bgra ? 0 : 2
        var sum = 0.0, sumSquares = 0.0, n = 0.0
        let limited = !rgb && range != .full
        var y = Self.step / 2
        while y < frame.height {
            let row = frame.data0 + y * frame.stride0
            var x = Self.step / 2
            while x < frame.width {
                let p = row + x * bpp
                var v: Int
                if rgb { v = (Int(p[rOffset]) + 2 * Int(p[1]) + Int(p[bOffset])) >> 2 }
                else if deep { v = (Int(p[0]) | Int(p[1]) << 8) >> shift }
                else { v = Int(p[0]) }
                let level = limited ? Swift.min(1, Swift.max(0, Double(v - 16) / 219)) : Double(v) / 255
                sum += level
                sumSquares += level * level
                n += 1
                x += Self.step
            }
            y += Self.step
        }
        guard n > 0 else { return }
        mean = sum / n
        deviation = (Swift.max(0, sumSquares / n - mean * mean)).squareRoot()
    }
}
