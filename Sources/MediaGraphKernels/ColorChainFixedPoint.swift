import Foundation

/// A chain of colour maps in the integer form the AVX-512 VNNI loop runs (`colorChainRowVNNI`),
/// and the error that form adds.
///
/// The first map multiplies the pixel's bytes by coefficients scaled by 2^S and split into two
/// signed bytes (256·high + low); later maps multiply 16-bit values with 7 fraction bits by
/// 16-bit coefficients. Each map's S is the largest that keeps every coefficient and every sum in
/// range. What this costs against exact arithmetic, per map and channel: 255·Σ|c − ĉ| for the
/// rounded coefficients ĉ, the offset's rounding, and 1/256 where the result is rounded to 1/128
/// between maps; a map's error then grows by the gains of the maps after it (clamps do not grow
/// it). For the colour filters' maps this is a few hundredths of an LSB.
struct ColorChainFixedPoint {
    /// 16 words per map, laid out as `mg_color_chain_row_vnni` reads them.
    let words: [Int32]
    /// For two maps, their composition in the first map's form, taken by 16 pixels whose first
    /// map stays within its clamp range (`mg_color_chain_row_vnni`'s `shortcut`).
    let shortcut: [Int32]?
    /// The largest difference from the maps computed exactly, before the final rounding, in LSB.
    let error: Double

    /// nil when a map's coefficients are too large for the integer form (the float loop runs), or
    /// for fewer than two maps. `order` maps memory channel order to RGBA.
    init?(_ transforms: [ColorTransform], order: [Int], keepsAlpha: Bool) {
        guard transforms.count >= 2 else { return nil }
        let outputs = keepsAlpha ? 3 : 4
        var words: [Int32] = []
        var errors: [Double] = []
        var firstRanges: [ClosedRange<Int>] = []
        var firstScale = 1.0
        for (j, t) in transforms.enumerated() {
            let rows = t.effectiveRows, offset = t.effectiveOffset
            let m = (0..<outputs).map { c in (0..<4).map { rows[order[c]][order[$0]] } }
            let o = (0..<outputs).map { offset[order[$0]] * 255 }
            let largest = m.joined().map(abs).max() ?? 0
            let last = j == transforms.count - 1
            var w = [Int32](repeating: 0, count: 16)
            var error = 0.0
            if j == 0 {
                guard let first = Self.byteMap(m, o, last: false) else { return nil }
                w = first.words
                error = first.error
                firstRanges = first.ranges
                firstScale = first.scale
            } else {
                // inputs up to 255·128 = 32 640; every sum within 2·10^9
                let sums = (0..<outputs).map { c in m[c].map(abs).reduce(0, +) * 32_640 + abs(o[c]) * 128 }
                let limit = min(32_767 / max(largest, 1e-12), 2.0e9 / max(sums.max() ?? 0, 1e-12))
                let bits = min(16, Int(floor(log2(limit))))
                guard bits >= 1 else { return nil }
                let scale = Double(1 << bits)
                let rounding = last ? 64 * scale : scale / 2
                for c in 0..<outputs {
                    var pair = [UInt32](repeating: 0, count: 2), rowError = 0.0
                    for k in 0..<4 {
                        let q = (m[c][k] * scale).rounded()
                        pair[k / 2] |= UInt32(UInt16(bitPattern: Int16(q))) << (16 * (k % 2))
                        rowError += 255 * abs(m[c][k] - q / scale)
                    }
                    let offsetScaled = (o[c] * 128 * scale).rounded()
                    rowError += abs(offsetScaled - o[c] * 128 * scale) / (128 * scale)
                    w[c] = Int32(bitPattern: pair[0])
                    w[4 + c] = Int32(bitPattern: pair[1])
                    w[8 + c] = Int32(offsetScaled + rounding)
                    error = max(error, rowError)
                }
                if last {
                    w[14] = Int32(7 + bits)
                } else {
                    w[12] = Int32(rounding)
                    w[13] = Int32(255 * 128 * scale + rounding)
                    w[14] = Int32(bits)
                    error += 1.0 / 256
                }
            }
            words += w
            errors.append(error)
        }
        var total = 0.0, growth = 1.0
        for j in transforms.indices.reversed() {
            total += errors[j] * growth
            growth *= transforms[j].gain
        }
        // Two maps: where no pixel of 16 takes the first map's result out of its clamp range,
        // their composition alone gives it. Worth it only if some channel needs no test. A
        // channel that can leave the range by its rounding only (a row of sepia sums to 1) is
        // not tested: skipping its clamp moves it by that much at most.
        var shortcut: [Int32]? = nil
        if transforms.count == 2 {
            let excess = firstRanges.map { r in
                Double(max(0, Int(words[12]) - r.lowerBound, r.upperBound - Int(words[13]))) / firstScale
            }
            let tested = excess.indices.filter { excess[$0] > 1.0 / 32 }
            let untestedExcess = excess.filter { $0 <= 1.0 / 32 }.max() ?? 0
            let composed = transforms[0].then(transforms[1])
            let rows = composed.effectiveRows, offset = composed.effectiveOffset
            let m = (0..<outputs).map { c in (0..<4).map { rows[order[c]][order[$0]] } }
            let o = (0..<outputs).map { offset[order[$0]] * 255 }
            if tested.count < outputs, var one = Self.byteMap(m, o, last: true) {
                one.words[15] = Int32(tested.reduce(0) { $0 | 1 << $1 })
                shortcut = one.words
                // a first-map result inside the range by its rounding only: the clamp the exact
                // value gets moves it by at most that much, which the second map scales
                total = max(total, one.error + (errors[0] + untestedExcess) * transforms[1].gain)
            }
        }
        self.words = words
        self.shortcut = shortcut
        self.error = total
    }

    /// A map on the packed bytes (the first, or the only one): 16 words, its error, and each
    /// channel's range of sums over every input (in the loop's units, rounding term included).
    struct ByteMap {
        var words: [Int32]
        var error: Double
        var ranges: [ClosedRange<Int>]
        /// 2^S: one LSB in the sums' units.
        var scale: Double
    }

    /// Coefficients scaled by 2^S, each 256·high + low with high in −127…127 and low in
    /// −128…127; the offset joins the high part's sum, so it moves in steps of 256. `last`: the
    /// sums are shifted to bytes; otherwise clamped to 0…255 and shifted to 7 fraction bits.
    static func byteMap(_ m: [[Double]], _ o: [Double], last: Bool) -> ByteMap? {
        let largest = m.joined().map(abs).max() ?? 0
        let bits = min(16, largest == 0 ? 16 : Int(floor(log2(32_639 / largest))))
        guard bits >= 9 else { return nil }
        let scale = Double(1 << bits), rounding = last ? Double(1 << (bits - 1)) : Double(1 << (bits - 8))
        var w = [Int32](repeating: 0, count: 16)
        var error = 0.0
        var ranges: [ClosedRange<Int>] = []
        for c in m.indices {
            var high: UInt32 = 0, low: UInt32 = 0, rowError = 0.0, least = 0, most = 0
            for k in 0..<4 {
                let q = (m[c][k] * scale).rounded()
                let h = ((q + 128) / 256).rounded(.down), l = q - 256 * h
                high |= UInt32(UInt8(bitPattern: Int8(h))) << (8 * k)
                low |= UInt32(UInt8(bitPattern: Int8(l))) << (8 * k)
                rowError += 255 * abs(m[c][k] - q / scale)
                least += 255 * min(0, Int(q))
                most += 255 * max(0, Int(q))
            }
            let offsetHigh = ((o[c] * scale + rounding) / 256).rounded()
            guard abs(offsetHigh) < Double(1 << 22) else { return nil }
            rowError += abs(offsetHigh * 256 - rounding - o[c] * scale) / scale
            w[c] = Int32(bitPattern: high)
            w[4 + c] = Int32(bitPattern: low)
            w[8 + c] = Int32(offsetHigh)
            error = max(error, rowError)
            ranges.append((256 * Int(offsetHigh) + least)...(256 * Int(offsetHigh) + most))
        }
        if last {
            w[14] = Int32(bits)
        } else {
            w[12] = Int32(rounding)
            w[13] = Int32(255 * scale + rounding)
            w[14] = Int32(bits - 7)
            error += 1.0 / 256
        }
        return ByteMap(words: w, error: error, ranges: ranges, scale: scale)
    }
}
