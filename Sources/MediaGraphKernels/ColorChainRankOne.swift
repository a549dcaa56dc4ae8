import Foundation

/// Colour maps whose first has rank one (sepia at full strength, grayscale, saturation 0, either
/// after invert, brightness, contrast, exposure…), in the form `mg_color_chain_rank_one_fixed16`
/// runs. Every channel the first map makes is a line in one of them, y; clamping a line and
/// mixing lines keep each channel a piecewise-linear function of y, so after every map and clamp
/// between maps each output channel is one continuous piecewise-linear function of y, exactly:
/// out = f(p₀) + Σₖ sₖ·(clamp(y, pₖ₋₁, pₖ) − pₖ₋₁) over the segments [pₖ₋₁, pₖ] where some channel
/// met 0 or 255. That is one dot product, a clamp per segment and a multiply per segment and
/// channel, where the maps in turn take three dot products each.
enum ColorChainRankOne {
    /// The most segments the loop takes (three points where a clamp starts or stops acting).
    static let largestSegments = 4

    /// 352 Int16, 22 vectors of one value each: 0…2 y's coefficients (first-map form: the loop
    /// reads (x − 128)·256), 3…5 the segments' inner ends p₁, p₂, p₃ in y's units, 6 + 4c + k the
    /// slope of segment k for channel c, 18 + c the addend (offsets and the final rounding), 21
    /// the shift to bytes; and the number of segments. Also the largest difference from the maps
    /// computed exactly, before the final rounding, in LSB. nil when the first map's rank is not
    /// one or more than `largestSegments` segments are needed.
    static func words(_ transforms: [ColorTransform], order: [Int]) -> (words: [Int16], segments: Int, error: Double)? {
        guard transforms.count >= 2 else { return nil }
        let first = ColorChainFixed16.colour(transforms[0], order: order)
        // y is the first map's largest row; every row is a multiple of it
        let norms = first.m.map { row in row.map { $0 * $0 }.reduce(0, +) }
        guard let t = norms.indices.max(by: { norms[$0] < norms[$1] }), norms[t] > 1e-12 else { return nil }
        let ratios = first.m.map { row in zip(row, first.m[t]).map { $0 * $1 }.reduce(0, +) / norms[t] }
        for j in 0..<3 {
            for k in 0..<3 where abs(first.m[j][k] - ratios[j] * first.m[t][k]) > 1e-9 { return nil }
        }
        let (least, most) = ColorChainFixed16.reach(first.m[t], first.o[t])
        guard most - least > 1e-6 else { return nil }
        // each channel's values at the breakpoints; channel j = r_j·(y − o_t) + o_j
        var points = [least, most]
        var values = (0..<3).map { j in points.map { ratios[j] * ($0 - first.o[t]) + first.o[j] } }
        for map in transforms.dropFirst() {
            (points, values) = clamped(points, values)
            let (m, o) = ColorChainFixed16.colour(map, order: order)
            let before = values
            values = (0..<3).map { c in
                points.indices.map { i -> Double in
                    let mixed: Double = m[c][0] * before[0][i] + m[c][1] * before[1][i] + m[c][2] * before[2][i]
                    return o[c] + mixed
                }
            }
        }
        (points, values) = merged(points, values)
        let segments = points.count - 1
        guard segments <= largestSegments else { return nil }
        let slopes = (0..<3).map { c in
            (1...segments).map { k -> Double in
                let rise: Double = values[c][k] - values[c][k - 1]
                return rise / (points[k] - points[k - 1])
            }
        }
        guard let fixed = fixedPoint(y: first.m[t], yOffset: first.o[t], points: points, start: values.map { $0[0] }, slopes: slopes)
        else { return nil }
        return (fixed.words, segments, fixed.error)
    }

    /// The channels clamped to 0…255: a breakpoint added wherever one crosses 0 or 255 inside a
    /// segment (the functions are linear there, so the crossing is exact).
    static func clamped(_ points: [Double], _ values: [[Double]]) -> ([Double], [[Double]]) {
        var newPoints = [points[0]]
        var newValues = values.map { [$0[0]] }
        for i in 1..<points.count {
            var crossings: [Double] = []
            for c in 0..<3 {
                let a = values[c][i - 1], b = values[c][i]
                for level in [0.0, 255.0] where (a - level) * (b - level) < 0 {
                    crossings.append(points[i - 1] + (level - a) / (b - a) * (points[i] - points[i - 1]))
                }
            }
            for y in crossings.sorted() + [points[i]] {
                guard y - newPoints.last! > 1e-9 else { continue }
                let f = (y - points[i - 1]) / (points[i] - points[i - 1])
                newPoints.append(y)
                for c in 0..<3 { newValues[c].append(values[c][i - 1] + f * (values[c][i] - values[c][i - 1])) }
            }
        }
        return (newPoints, newValues.map { $0.map { min(max($0, 0), 255) } })
    }

    /// Breakpoints where no channel's slope changes removed.
    static func merged(_ points: [Double], _ values: [[Double]]) -> ([Double], [[Double]]) {
        var keep = [0]
        for i in 1..<(points.count - 1) {
            let bends = (0..<3).contains { c in
                let before = (values[c][i] - values[c][keep.last!]) / (points[i] - points[keep.last!])
                let after = (values[c][i + 1] - values[c][i]) / (points[i + 1] - points[i])
                return abs(before - after) > 1e-9 * max(1, abs(before))
            }
            if bends { keep.append(i) }
        }
        keep.append(points.count - 1)
        return (keep.map { points[$0] }, values.map { v in keep.map { v[$0] } })
    }

    /// The functions in 16-bit fixed point: y with the most fraction bits F (≤ 7) that keep it in
    /// an Int16, the outputs with the most G (1…7: the final rounding adds 2^(G−1)) that keep
    /// every partial sum in one.
    static func fixedPoint(y row: [Double], yOffset: Double, points: [Double], start: [Double],
                           slopes: [[Double]]) -> (words: [Int16], error: Double)? {
        let segments = points.count - 1
        for f in stride(from: 7, through: 0, by: -1) {
            let yScale = Double(1 << (7 + f)), unit = Double(1 << f)
            let q = row.map { ($0 * yScale).rounded() }
            guard q.allSatisfy({ abs($0) <= 32_767 }) else { continue }
            let quantized = q.map { $0 / yScale }
            // y = raw/2^F + delta, raw = Σ q·(x − 128)/128 (each product rounded)
            let delta = yOffset + 128 * quantized.reduce(0, +)
            // how far y is from exact: its coefficients, its three roundings; the breakpoints'
            let yError = 255 * zip(row, quantized).map { abs($0 - $1) }.reduce(0, +) + 1.5 / unit
            let boundError = 0.5 / unit
            let rawLeast = (points[0] - delta - yError) * unit, rawMost = (points[segments] - delta + yError) * unit
            guard rawLeast >= -32_768, rawMost <= 32_767 else { continue }
            let inner = (1..<segments).map { ((points[$0] - delta) * unit).rounded() }
            // each segment's clamped value's range, raw
            let ranges = (0..<segments).map { k in
                (k == 0 ? rawLeast : inner[k - 1], k == segments - 1 ? rawMost : inner[k])
            }
            for g in stride(from: 7, through: 1, by: -1) {
                let slopeScale = Double(1 << (15 + g - f)), outUnit = Double(1 << g)
                let qs = slopes.map { $0.map { ($0 * slopeScale).rounded() } }
                guard qs.allSatisfy({ $0.allSatisfy { abs($0) <= 32_767 } }) else { continue }
                var fits = true, error = 0.0
                var values = [Int](repeating: 0, count: 22)
                for c in 0..<3 {
                    // out·2^G = Σ S·z/2^15 + 2^G·(f(p₀) + Σ s·(delta − pₖ₋₁)) + 2^(G−1)
                    let exactB = outUnit * (start[c] + (0..<segments).map { slopes[c][$0] * (delta - points[$0]) }.reduce(0, +))
                    let qb = exactB.rounded() + outUnit / 2
                    var sumLeast = 0.0, sumMost = 0.0
                    var rowError = (0.5 * Double(segments) + abs(exactB.rounded() - exactB)) / outUnit
                    for k in 0..<segments {
                        let ends = [ranges[k].0 * qs[c][k], ranges[k].1 * qs[c][k]].map { $0 / 32_768 }
                        sumLeast += ends.min()! - 1
                        sumMost += ends.max()! + 1
                        if sumLeast < -32_768 || sumMost > 32_767 { fits = false }
                        let largestZ = max(abs(ranges[k].0), abs(ranges[k].1)) / unit
                        rowError += abs(slopes[c][k]) * (yError + boundError) + abs(qs[c][k] / slopeScale - slopes[c][k]) * largestZ
                        values[6 + 4 * c + k] = Int(qs[c][k])
                    }
                    // the addend is a word of its own too, even where the products bring the sum back
                    if sumLeast + qb < -32_768 || sumMost + qb > 32_767 || abs(qb) > 32_767 { fits = false }
                    guard fits else { break }
                    error = max(error, rowError)
                    values[18 + c] = Int(qb)
                }
                guard fits else { continue }
                for c in 0..<3 { values[c] = Int(q[c]) }
                for (k, p) in inner.enumerated() { values[3 + k] = Int(p) }
                values[21] = g
                return (values.flatMap { [Int16](repeating: Int16($0), count: 16) }, error)
            }
        }
        return nil
    }
}
