import Foundation

/// Two colour maps whose first has rank one (sepia at full strength, grayscale, saturation 0,
/// either after invert, brightness, exposure…), in the form `mg_color_chain_rank_one_fixed16`
/// runs: every channel the first map makes is a line in one of them, y, so its clamp to 0…255 is
/// a clamp of y, and the second map's output is one line in y plus one in clamp(y):
/// out = A·y + K·clamp(y, lo, hi) + B, exactly, for every input. That is one dot product and
/// two multiplies per channel, where the general two-map form (`ColorChainFixed16.pair`) does
/// three dot products and a correction.
///
/// It needs the channels that can leave 0…255 to leave it at the same values of y (true of one
/// channel, or of equal channels as grayscale's); otherwise nil.
enum ColorChainRankOne {
    /// 256 Int16, 16 vectors of one value each: 0…2 y's coefficients (first-map form: the loop
    /// reads (x − 128)·256), 3 and 4 the clamp's bounds in y's units, 5…7 A, 8…10 K, 11…13 B
    /// (with y's offset and the final rounding), 14 the shift to bytes. And the largest
    /// difference from the two maps computed exactly, before the final rounding, in LSB.
    static func words(_ transforms: [ColorTransform], order: [Int]) -> (words: [Int16], error: Double)? {
        guard transforms.count == 2 else { return nil }
        let first = ColorChainFixed16.colour(transforms[0], order: order)
        let second = ColorChainFixed16.colour(transforms[1], order: order)
        // y is the first map's largest row; every row is a multiple of it
        let norms = first.m.map { row in row.map { $0 * $0 }.reduce(0, +) }
        guard let t = norms.indices.max(by: { norms[$0] < norms[$1] }), norms[t] > 1e-12 else { return nil }
        let ratios = first.m.map { row in zip(row, first.m[t]).map { $0 * $1 }.reduce(0, +) / norms[t] }
        for j in 0..<3 {
            for k in 0..<3 where abs(first.m[j][k] - ratios[j] * first.m[t][k]) > 1e-9 { return nil }
        }
        let (least, most) = ColorChainFixed16.reach(first.m[t], first.o[t])
        // channel j = r_j·(y − o_t) + o_j; where it meets 0 and 255, in y
        var clampLow = least, clampHigh = most, clamps = false
        var lineA = [Double](repeating: 0, count: 3), lineK = lineA, lineB = second.o
        for j in 0..<3 {
            let r = ratios[j]
            if abs(r) < 1e-12 {
                // a constant channel: its clamped value goes into B
                let value = min(max(first.o[j], 0), 255)
                for k in 0..<3 { lineB[k] += second.m[k][j] * value }
                continue
            }
            let a = first.o[t] + (0 - first.o[j]) / r, b = first.o[t] + (255 - first.o[j]) / r
            let inside = (max(min(a, b), least), min(max(a, b), most))
            let leaves = inside.0 > least + 1e-9 || inside.1 < most - 1e-9
            if leaves {
                if clamps, abs(inside.0 - clampLow) > 1e-9 || abs(inside.1 - clampHigh) > 1e-9 { return nil }
                (clampLow, clampHigh, clamps) = (inside.0, inside.1, true)
            }
            for k in 0..<3 {
                if leaves { lineK[k] += second.m[k][j] * r } else { lineA[k] += second.m[k][j] * r }
                lineB[k] += second.m[k][j] * (first.o[j] - r * first.o[t])
            }
        }
        guard clamps else { return nil }
        return fixedPoint(y: first.m[t], yOffset: first.o[t], range: (least, most), clamp: (clampLow, clampHigh),
                          a: lineA, k: lineK, b: lineB)
    }

    /// The lines in 16-bit fixed point: y with the most fraction bits F (≤ 7) that keep it in an
    /// Int16, the outputs with the most G (1…7: the final rounding adds 2^(G−1)) that keep every partial sum in one.
    static func fixedPoint(y row: [Double], yOffset: Double, range: (Double, Double), clamp: (Double, Double),
                           a: [Double], k: [Double], b: [Double]) -> (words: [Int16], error: Double)? {
        for f in stride(from: 7, through: 0, by: -1) {
            let yScale = Double(1 << (7 + f)), unit = Double(1 << f)
            let q = row.map { ($0 * yScale).rounded() }
            guard q.allSatisfy({ abs($0) <= 32_767 }) else { continue }
            let quantized = q.map { $0 / yScale }
            // y = raw/2^F + delta, raw = Σ q·(x − 128)/128 (each product rounded)
            let delta = yOffset + 128 * quantized.reduce(0, +)
            // how far y is from exact: its coefficients, its three roundings; the clamp's bounds
            let yError = 255 * zip(row, quantized).map { abs($0 - $1) }.reduce(0, +) + 1.5 / unit
            let rawLeast = (range.0 - delta - yError) * unit, rawMost = (range.1 - delta + yError) * unit
            guard rawLeast >= -32_768, rawMost <= 32_767 else { continue }
            let low = ((clamp.0 - delta) * unit).rounded(), high = ((clamp.1 - delta) * unit).rounded()
            let boundError = 0.5 / unit
            let clampedLeast = min(max(rawLeast, low), high), clampedMost = min(max(rawMost, low), high)
            for g in stride(from: 7, through: 1, by: -1) {
                let outScale = Double(1 << (15 + g - f)), outUnit = Double(1 << g)
                let qa = a.map { ($0 * outScale).rounded() }, qk = k.map { ($0 * outScale).rounded() }
                guard (qa + qk).allSatisfy({ abs($0) <= 32_767 }) else { continue }
                var fits = true, error = 0.0
                var values = [Int](repeating: 0, count: 16)
                for c in 0..<3 {
                    let exactB = (b[c] + (a[c] + k[c]) * delta) * outUnit
                    let qb = exactB.rounded() + outUnit / 2
                    // the partial sums' ranges (each product within ½ of exact)
                    let t1 = [rawLeast * qa[c], rawMost * qa[c]].map { $0 / 32_768 }
                    let t2 = [clampedLeast * qk[c], clampedMost * qk[c]].map { $0 / 32_768 }
                    let sumLeast = t1.min()! + t2.min()! - 1, sumMost = t1.max()! + t2.max()! + 1
                    if sumLeast < -32_768 || sumMost > 32_767 || sumLeast + qb < -32_768 || sumMost + qb > 32_767 {
                        fits = false
                        break
                    }
                    let largestY = max(abs(rawLeast), abs(rawMost)) / unit, largestClamped = max(abs(clampedLeast), abs(clampedMost)) / unit
                    let rowError = abs(a[c]) * yError + abs(k[c]) * (yError + boundError)
                        + abs(qa[c] / outScale - a[c]) * largestY + abs(qk[c] / outScale - k[c]) * largestClamped
                        + (0.5 + 0.5 + abs(exactB.rounded() - exactB)) / outUnit
                    error = max(error, rowError)
                    values[5 + c] = Int(qa[c])
                    values[8 + c] = Int(qk[c])
                    values[11 + c] = Int(qb)
                }
                guard fits else { continue }
                for c in 0..<3 { values[c] = Int(q[c]) }
                values[3] = Int(low)
                values[4] = Int(high)
                values[14] = g
                return (values.flatMap { [Int16](repeating: Int16($0), count: 16) }, error)
            }
        }
        return nil
    }
}
