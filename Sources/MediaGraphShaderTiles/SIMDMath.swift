#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// sin and cos on 8 lanes at once: Cody-Waite reduction by pi/2 and the classic single-precision
/// minimax polynomials (Cephes' sinf/cosf coefficients), about 1 ulp on |x| < 8192. Larger
/// arguments take libm lane by lane, where the reduction needs more bits.
enum SIMDMath {
    typealias V = SIMD8<Float>
    static let limit: Float = 8192

    /// (sin x, cos x).
    @inline(__always)
    static func sinCos(_ x: V) -> (sin: V, cos: V) {
        let twoOverPi: Float = 0.636619772367581343
        // j = nearest integer to x * 2/pi, via the 1.5 * 2^23 rounding constant.
        let magic: Float = 12_582_912
        let jf = (x * twoOverPi + magic) - magic
        // pi/2 split in three so r = x - j * pi/2 loses no bits for |j| < 2^12.
        var r = x - jf * 1.5703125
        r = r - jf * 4.837512969970703125e-4
        r = r - jf * 7.549789948768648e-8
        let r2 = r * r
        var s = V(repeating: -1.9515295891e-4)
        s = s * r2 + 8.3321608736e-3
        s = s * r2 - 1.6666654611e-1
        s = s * r2 * r + r
        var c = V(repeating: 2.443315711809948e-5)
        c = c * r2 - 1.388731625493765e-3
        c = c * r2 + 4.166664568298827e-2
        c = c * r2 * r2 - 0.5 * r2 + 1
        // Quadrant: 0 (s, c), 1 (c, -s), 2 (-s, -c), 3 (-c, s). Kept in floats: masks from
        // Int32 comparisons compile to per-lane loops here, float ones to single instructions.
        let q = jf - 4 * floor(jf * 0.25)
        let swap = (q .== 1) .| (q .== 3)
        var sinV = s.replacing(with: c, where: swap)
        var cosV = c.replacing(with: s, where: swap)
        sinV = sinV.replacing(with: -sinV, where: q .>= 2)
        cosV = cosV.replacing(with: -cosV, where: (q .== 1) .| (q .== 2))
        return (sinV, cosV)
    }

    /// Whether every lane is in the range the fast path covers (NaN fails too).
    @inline(__always)
    static func inFastRange(_ x: V) -> Bool {
        let inRange = (x .< limit) .& (x .> -limit)
        return allLanes(inRange)
    }
}

extension SIMDMath {
    /// Whether every lane of `mask` is set. The standard library's `all` reduces through a
    /// generic, out-of-line `min()` (11% of the swirl shader's time in a profile); on x86 two
    /// sign-bit masks do it.
    @inline(__always)
    static func allLanes(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
        let lanes = unsafeBitCast(mask, to: SIMD8<Int32>.self)
        #if arch(x86_64)
        let low = _mm_movemask_ps(unsafeBitCast(lanes.lowHalf, to: __m128.self))
        let high = _mm_movemask_ps(unsafeBitCast(lanes.highHalf, to: __m128.self))
        return low & high == 0xF
        #else
        return all(mask)
        #endif
    }

    /// floor on 8 lanes without SSE4.1's round instruction (the generic `rounded(.down)` calls
    /// libm per lane on baseline x86-64): round to nearest with 1.5 * 2^23, then step down where
    /// that rounded up. Lanes of 2^22 or more (or NaN) take the exact per-lane path.
    @inline(__always)
    static func floor(_ x: V) -> V {
        let magic: Float = 12_582_912
        let small = (x .< 4_194_304) .& (x .> -4_194_304)
        guard allLanes(small) else { return x.rounded(.down) }
        let t = (x + magic) - magic
        return t.replacing(with: t - 1, where: t .> x)
    }

    /// The integer value of lanes that are already whole numbers in 0..<2^23.
    @inline(__always)
    static func int(wholeNumbers x: V) -> SIMD8<UInt32> {
        unsafeBitCast(x + 8_388_608, to: SIMD8<UInt32>.self) & 0x7F_FFFF
    }
}
