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
    /// `mg_color_chain_row_fixed16` reads them (empty when `rankOne` runs instead).
    let words: [Int16]
    /// For two maps whose first can take only one channel out of 0…255: their composition,
    /// corrected by what the clamp takes off that channel (`mg_color_chain_pair_fixed16`'s 512
    /// values), which the loop runs instead of `words`.
    let pair: [Int16]?
    /// For maps whose first has rank one: `ColorChainRankOne`'s 352 values and its number of
    /// segments, which the loop runs instead of `words` or `pair` (cheaper than either).
    let rankOne: (words: [Int16], segments: Int)?
    /// The largest difference from the maps computed exactly, before the final rounding, in LSB
    /// (of `rankOne` or `pair` where there is one).
    let error: Double

    /// The largest error this form is used with; beyond it the Float loop runs.
    static let largestError = 0.25

    /// nil for fewer than two maps, a map that writes or reads alpha, coefficients too large for
    /// an Int16, or an error above `largestError`. `order` maps memory channel order to RGBA.
    init?(_ transforms: [ColorTransform], order: [Int]) {
        guard transforms.count >= 2, transforms.allSatisfy(\.keepsAlpha),
              transforms.allSatisfy({ t in (0..<3).allSatisfy { t.effectiveRows[order[$0]][3] == 0 } }) else { return nil }
        // the cheapest form first; it needs nothing of the others
        if let rankOne = ColorChainRankOne.words(transforms, order: order), rankOne.error <= Self.largestError {
            (words, pair, self.rankOne, error) = ([], nil, (rankOne.words, rankOne.segments), rankOne.error)
            return
        }
        var words: [Int16] = []
        var errors: [Double] = []
        for (j, t) in transforms.enumerated() {
            let (m, o) = Self.colour(t, order: order)
            guard let map = Self.map(m, o, first: j == 0, last: j == transforms.count - 1) else { return nil }
            words += map.words
            errors.append(map.error)
        }
        var total = 0.0, growth = 1.0
        for j in transforms.indices.reversed() {
            total += errors[j] * growth
            growth *= transforms[j].gain
        }
        let pair = transforms.count == 2 ? Self.pair(transforms, order: order) : nil
        if let pair, pair.error <= Self.largestError {
            (self.pair, self.error) = (pair.words, pair.error)
        } else {
            guard total <= Self.largestError else { return nil }
            (self.pair, self.error) = (nil, total)
        }
        rankOne = nil
        self.words = words
    }

    /// Two maps as M2(clamp y) = M2∘M1(x) − L2·(y − clamp y), y = M1(x), L2 the second map's
    /// linear part, when only one channel t of y can leave 0…255: the composition as a first map
    /// (vectors 0…11, its shift to bytes at 16 + 4), y's channel t (vectors 12…14 its
    /// coefficients, 15 its offset, first-map style with its own fraction bits F1), and at 16 +
    /// 0…2 the column L2[·][t], at 16 + 3 the clamp 255·2^F1, at 16 + 5 the shift of y − clamp y
    /// up before it multiplies the column. Its error: the composition's, y's times |L2[c][t]|
    /// (it moves what the clamp takes off by at most as much), the correction's rounding and its
    /// column's quantization times the largest correction.
    static func pair(_ transforms: [ColorTransform], order: [Int]) -> (words: [Int16], error: Double)? {
        let first = colour(transforms[0], order: order), second = colour(transforms[1], order: order)
        let leaving = (0..<3).filter { c in
            let (least, most) = reach(first.m[c], first.o[c])
            return least < -1e-9 || most > 255 + 1e-9
        }
        guard leaving.count == 1, let t = leaving.first else { return nil }
        let composed = colour(transforms[0].then(transforms[1]), order: order)
        guard let whole = map(composed.m, composed.o, first: true, last: true),
              let y = map([first.m[t], first.m[t], first.m[t]], [first.o[t], first.o[t], first.o[t]], first: true, last: false)
        else { return nil }
        let bitsY = Int(y.words[16 * 13]), bits = Int(whole.words[16 * 13])
        // what the clamp can take off y, in y's units, and the shift that keeps it within an Int16
        let (least, most) = reach(first.m[t], first.o[t])
        let largestTaken = max(-least, most - 255, 0) + 1
        var shift = 0
        while shift < 8 && largestTaken * Double(1 << (bitsY + shift + 1)) <= 32_767 { shift += 1 }
        let columnScale = Double(1 << 15) * Double(1 << bits) / Double(1 << (bitsY + shift))
        let column = (0..<3).map { (second.m[$0][t] * columnScale).rounded() }
        guard column.allSatisfy({ abs($0) <= 32_767 }) else { return nil }
        var error = 0.0
        for c in 0..<3 {
            let columnError = abs(column[c] / columnScale - second.m[c][t]) * largestTaken
            error = max(error, whole.error + abs(second.m[c][t]) * y.error + 0.5 / Double(1 << bits) + columnError)
        }
        var values = [Int](repeating: 0, count: 16)
        for c in 0..<3 { values[c] = Int(column[c]) }
        values[3] = 255 << bitsY
        values[4] = bits
        values[5] = shift
        let block = Array(whole.words[0..<(16 * 12)]) + Array(y.words[0..<(16 * 3)]) + Array(y.words[(16 * 9)..<(16 * 10)])
        return (block + values.flatMap { [Int16](repeating: Int16($0), count: 16) }, error)
    }

    /// A map's colour rows and offsets (0…255 units) in memory channel order.
    static func colour(_ t: ColorTransform, order: [Int]) -> (m: [[Double]], o: [Double]) {
        let rows = t.effectiveRows, offset = t.effectiveOffset
        return ((0..<3).map { c in (0..<3).map { rows[order[c]][order[$0]] } }, (0..<3).map { offset[order[$0]] * 255 })
    }

    /// The least and most a row gives over inputs in 0…255.
    static func reach(_ row: [Double], _ offset: Double) -> (least: Double, most: Double) {
        (offset + row.map { 255 * min(0, $0) }.reduce(0, +), offset + row.map { 255 * max(0, $0) }.reduce(0, +))
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
