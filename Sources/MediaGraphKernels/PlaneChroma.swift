import MediaGraphCore

/// A colour map on 8-bit Y'CbCr that keeps Y' to itself but turns Cb and Cr together (hue): a
/// 256-entry table for Y' and, per (Cb, Cr) sample pair, a 2x2 map about 128 in fixed point. On
/// 4:2:0 and 4:2:2 frames each chroma pair maps as it is, without going through 4:4:4 (nothing in
/// Cb and Cr depends on Y').
///
/// Exactness: for every colour that stays inside the RGB cube, the conversion to R'G'B', the map
/// and the conversion back give Cb and Cr as that 2x2 map exactly; here its coefficients are kept
/// to 2^−14 (`m`, Int16) and the offset with the rounding to 2^−14 (`addends`), so a result is at
/// most `error` (under 0.01 LSB) from the exact value before it is rounded down: the byte is the
/// exact value rounded to nearest except within `error` of a half, where it may be the other
/// neighbour. Results are clamped to the nominal range (16–240 in limited range, 0–255 in full),
/// where the RGB route clips each channel; a Y' the map keeps is left as it is.
public struct PlaneChroma: Equatable, Sendable {
    /// Output byte for each Y' byte.
    public let y: [UInt8]
    /// Cb's coefficients for (Cb − 128, Cr − 128), then Cr's, ×2^14.
    public let m: [Int16]
    /// Cb's and Cr's offset ×2^14 plus 2^13 (the rounding).
    public let addends: [Int32]
    /// The nominal range of Cb and Cr.
    public let low: UInt8, high: UInt8
    /// The largest distance of a result from the exact value before the floor, in LSB.
    public let error: Double
    /// Whether the map is the identity (the frame then passes through untouched).
    public let isIdentity: Bool

    /// The form of `map` on frames of `matrix` and range, or nil when the map makes Y' from
    /// chroma or chroma from Y' there (its Y'CbCr form is not block-diagonal), or its chroma part
    /// does not fit the arithmetic (coefficients of 2 or more). Alpha reads as 1.
    public init?(_ map: ColorTransform, matrix: YCbCrMatrix, fullRange: Bool) {
        let (form, o) = PlaneCurves.yCbCrForm(map, luma: matrix.lumaWeights)
        let tiny = 1e-9
        guard abs(form[0][1]) <= tiny, abs(form[0][2]) <= tiny, abs(form[1][0]) <= tiny, abs(form[2][0]) <= tiny else { return nil }
        let (black, lumaSpan, chromaSpan) = fullRange ? (0.0, 255.0, 255.0) : (16.0, 219.0, 224.0)
        let lumaTop = fullRange ? 255.0 : 235
        let coefficients = [form[1][1], form[1][2], form[2][1], form[2][2]].map { ($0 * 16384).rounded() }
        let offsets = [o[1], o[2]].map { ($0 * chromaSpan * 16384).rounded() }
        guard coefficients.allSatisfy({ abs($0) <= 32767 }), offsets.allSatisfy({ abs($0) <= 16_777_216 }) else { return nil }
        m = coefficients.map { Int16($0) }
        addends = offsets.map { Int32($0) + 8192 }
        (low, high) = fullRange ? (0, 255) : (16, 240)
        let exact = [form[1][1], form[1][2], form[2][1], form[2][2]]
        let kept = coefficients
        let coefficientError = (0..<4).map { abs(kept[$0] / 16384 - exact[$0]) * 128 }
        error = max(coefficientError[0] + coefficientError[1], coefficientError[2] + coefficientError[3]) + 0.5 / 16384
        isIdentity = map.isIdentity
        // Y' kept (hue) is left as it is, out-of-range values included: no pass over its plane.
        if abs(form[0][0] - 1) <= tiny, abs(o[0]) <= tiny {
            y = (0..<256).map { UInt8($0) }
        } else {
            y = (0..<256).map { v in
                let out = black + lumaSpan * (form[0][0] * (Double(v) - black) / lumaSpan + o[0])
                return UInt8(min(max(out.rounded(.toNearestOrEven), black), lumaTop))
            }
        }
    }

    /// Whether Y' maps each value to itself (its plane is then left as it is, or copied).
    public var keepsLuma: Bool { y.indices.allSatisfy { Int(y[$0]) == $0 } }

    /// The output (Cb, Cr) for one input pair, as the vector loop computes it.
    @inline(__always)
    public func output(cb: UInt8, cr: UInt8) -> (cb: UInt8, cr: UInt8) {
        constants.output(cb: cb, cr: cr)
    }

    /// The arithmetic's numbers as plain values, for loops that keep them in registers.
    public var constants: Constants {
        Constants(m0: Int32(m[0]), m1: Int32(m[1]), m2: Int32(m[2]), m3: Int32(m[3]), a0: addends[0], a1: addends[1],
                  low: Int32(low), high: Int32(high))
    }

    public struct Constants: Sendable {
        let m0, m1, m2, m3, a0, a1, low, high: Int32

        @inline(__always)
        public func output(cb: UInt8, cr: UInt8) -> (cb: UInt8, cr: UInt8) {
            // Wrapping operators: the values are bounded (|m| < 2^15, |b|, |r| ≤ 128, |a| ≤ 2^24 + 2^13),
            // and without overflow checks the compiler vectorizes the loop.
            let b = Int32(cb) &- 128, r = Int32(cr) &- 128
            let outCb = 128 &+ ((m0 &* b &+ m1 &* r &+ a0) >> 14), outCr = 128 &+ ((m2 &* b &+ m3 &* r &+ a1) >> 14)
            return (UInt8(truncatingIfNeeded: min(max(outCb, low), high)), UInt8(truncatingIfNeeded: min(max(outCr, low), high)))
        }
    }
}
