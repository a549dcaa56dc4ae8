import Foundation

/// A chain of colour maps in the 16-bit form the AVX2 fixed-point loop runs
/// (`colorChainRowFixed16`), and the error that form adds.
///
/// Each map multiplies 16-bit inputs by 16-bit coefficients keeping the product's rounded high
/// half (vpmulhrsw), so its sums carry F fraction bits, F as large as keeps every coefficient and
/// every sum within an Int16 (F ≤ 7). The first map reads (x − 128)·256 (the bytes as they fit an
/// Int16) with coefficients scaled by 2^(7+F) and its offsets making up for the 128; later maps
/// read 0…255 scaled by 128 (clamped, then shifted up from their F bits) with coefficients scaled
/// by 2^(8+F). What this costs against exact arithmetic, per map and channel: 255·Σ|c − ĉ| for the
/// rounded coefficients ĉ, half a unit of 2^−F for each of the three products' rounding, and the
/// offset's rounding; a map's error then grows by the gains of the maps after it (clamps do not
/// grow it). Nothing is rounded between maps: the clamped sums go on exactly.
struct ColorChainFixed16 {
    /// 256 Int16 per map: 16 vectors of one value repeated 16 times, laid out as
    /// `mg_color_chain_row_fixed16` reads them.
    let words: [Int16]
    /// The largest difference from the maps computed exactly, before the final rounding, in LSB.
    let error: Double

    /// The largest error this form is used with; beyond it the Float loop runs.
    static let largestError = 0.25

    /// nil for fewer than two maps, a map that writes or reads alpha, coefficients too large for
    /// an Int16, or an error above `largestError`. `order` maps memory channel order to RGBA.
    init?(_ transforms: [ColorTransform], order: [Int]) {
        guard transforms.count >= 2, transforms.allSatisfy(\.keepsAlpha) else { return nil }
        var words: [Int16] = []
        var errors: [Double] = []
        for (j, t) in transforms.enumerated() {
            let rows = t.effectiveRows, offset = t.effectiveOffset
            guard (0..<3).allSatisfy({ rows[order[$0]][3] == 0 }) else { return nil }
            let m = (0..<3).map { c in (0..<3).map { rows[order[c]][order[$0]] } }
            let o = (0..<3).map { offset[order[$0]] * 255 }
            guard let map = Self.map(m, o, first: j == 0, last: j == transforms.count - 1) else { return nil }
            words += map.words
            errors.append(map.error)
        }
        var total = 0.0, growth = 1.0
        for j in transforms.indices.reversed() {
            total += errors[j] * growth
            growth *= transforms[j].gain
        }
        guard total <= Self.largestError else { return nil }
        self.words = words
        self.error = total
    }

    /// One map's 256 words and error, with the largest fraction bits that fit (nil if none do).
    static func map(_ m: [[Double]], _ o: [Double], first: Bool, last: Bool) -> (words: [Int16], error: Double)? {
        for bits in stride(from: 7, through: last ? 1 : 0, by: -1) {
            let unit = Double(1 << bits)
            let coefficientScale = Double(1 << (bits + (first ? 7 : 8)))
            let rounding = last ? unit / 2 : 0
            var values = [Int](repeating: 0, count: 16)
            var error = 0.0, fits = true
            for c in 0..<3 {
                let q = m[c].map { ($0 * coefficientScale).rounded() }
                guard q.allSatisfy({ abs($0) <= 32_767 }) else { fits = false; break }
                let quantized = q.map { $0 / coefficientScale }
                // the first map's inputs are x − 128: its offset adds 128·Σĉ back
                let exactOffset = (o[c] + (first ? 128 * quantized.reduce(0, +) : 0)) * unit
                let offsetWord = exactOffset.rounded() + rounding
                // the sum's range over every input, the products' roundings (±½ each) included
                var least = offsetWord - 1.5, most = offsetWord + 1.5
                for k in 0..<3 {
                    least += (first ? -128 : 0) * unit * quantized[k] + 255 * unit * min(0, quantized[k])
                    most += (first ? -128 : 0) * unit * quantized[k] + 255 * unit * max(0, quantized[k])
                }
                guard least >= -32_768, most <= 32_767 else { fits = false; break }
                for k in 0..<3 { values[3 * c + k] = Int(q[k]) }
                values[9 + c] = Int(offsetWord)
                let rowError = zip(m[c], quantized).map { 255 * abs($0 - $1) }.reduce(0, +)
                    + 1.5 / unit + abs(exactOffset.rounded() - exactOffset) / unit
                error = max(error, rowError)
            }
            guard fits else { continue }
            values[12] = 255 << bits
            values[13] = bits
            values[14] = 7 - bits
            return (values.flatMap { [Int16](repeating: Int16($0), count: 16) }, error)
        }
        return nil
    }
}
