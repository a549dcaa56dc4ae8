#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The LUT3D row loop for CPUs with AVX2 and FMA (see `colorMatrixRowAVX2` for how it is chosen):
/// the same per-pixel interpolation as the baseline loop, with the blends as fused
/// multiply-adds (trilinear: 7 instead of 14 vector operations for the arithmetic).
///
/// `grid` holds the LUT colours ×255 in (r, g, b, 0) lanes; `axes` 3×256 entries (red, green,
/// blue). `bgra` swaps red and blue on the way in and out. Does the whole row.
public func lut3dRowAVX2(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, width: Int,
                         grid: UnsafePointer<SIMD4<Float>>, axes: UnsafePointer<LUT3DAxis>,
                         bgra: Bool, tetrahedral: Bool) {
    switch (bgra, tetrahedral) {
    case (false, true): lutRGBATetrahedral(s, d, width, grid, axes)
    case (true, true): lutBGRATetrahedral(s, d, width, grid, axes)
    case (false, false): lutRGBATrilinear(s, d, width, grid, axes)
    case (true, false): lutBGRATrilinear(s, d, width, grid, axes)
    }
}

@inline(never)
func lutRGBATetrahedral(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ w: Int,
                        _ g: UnsafePointer<SIMD4<Float>>, _ a: UnsafePointer<LUT3DAxis>) {
    lutRow(s, d, w, g, a, bgra: false, tetrahedral: true)
}

@inline(never)
func lutBGRATetrahedral(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ w: Int,
                        _ g: UnsafePointer<SIMD4<Float>>, _ a: UnsafePointer<LUT3DAxis>) {
    lutRow(s, d, w, g, a, bgra: true, tetrahedral: true)
}

@inline(never)
func lutRGBATrilinear(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ w: Int,
                      _ g: UnsafePointer<SIMD4<Float>>, _ a: UnsafePointer<LUT3DAxis>) {
    lutRow(s, d, w, g, a, bgra: false, tetrahedral: false)
}

@inline(never)
func lutBGRATrilinear(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ w: Int,
                      _ g: UnsafePointer<SIMD4<Float>>, _ a: UnsafePointer<LUT3DAxis>) {
    lutRow(s, d, w, g, a, bgra: true, tetrahedral: false)
}

@inline(__always)
func lutRow(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
            _ grid: UnsafePointer<SIMD4<Float>>, _ axes: UnsafePointer<LUT3DAxis>, bgra: Bool, tetrahedral: Bool) {
    for x in 0..<width {
        let p = s.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
        let ar = axes[Int(bgra ? (p >> 16) & 0xFF : p & 0xFF)]
        let ag = axes[256 + Int((p >> 8) & 0xFF)]
        let ab = axes[512 + Int(bgra ? p & 0xFF : (p >> 16) & 0xFF)]
        var c = tetrahedral ? tetra(grid, ar, ag, ab) : trilinear(grid, ar, ag, ab)
        if bgra { c = SIMD4(c.z, c.y, c.x, c.w) }
        let i = _mm_cvtps_epi32(c)
        let w = _mm_packs_epi32(i, i)
        let rgb = UInt32(bitPattern: _mm_cvtsi128_si32(_mm_packus_epi16(w, w)))
        d.storeBytes(of: rgb | (p & 0xFF00_0000), toByteOffset: 4 * x, as: UInt32.self)
    }
}

@inline(__always)
func tetra(_ grid: UnsafePointer<SIMD4<Float>>, _ r: LUT3DAxis, _ g: LUT3DAxis, _ b: LUT3DAxis) -> SIMD4<Float> {
    let base = Int(r.low + g.low + b.low)
    let sr = Int(r.step), sg = Int(g.step), sb = Int(b.step)
    let fr = r.fraction, fg = g.fraction, fb = b.fraction
    let c000 = grid[base], c111 = grid[base + sr + sg + sb]
    // c000·w0 + c1·w1 + c2·w2 + c111·w3 as one multiply and three fused multiply-adds.
    @inline(__always) func blend(_ c1: SIMD4<Float>, _ c2: SIMD4<Float>,
                                 _ w0: Float, _ w1: Float, _ w2: Float, _ w3: Float) -> SIMD4<Float> {
        _mm_fmadd_ps(c111, _mm_set1_ps(w3), _mm_fmadd_ps(c2, _mm_set1_ps(w2),
            _mm_fmadd_ps(c1, _mm_set1_ps(w1), _mm_mul_ps(c000, _mm_set1_ps(w0)))))
    }
    if fr > fg {
        if fg > fb {
            return blend(grid[base + sr], grid[base + sr + sg], 1 - fr, fr - fg, fg - fb, fb)
        } else if fr > fb {
            return blend(grid[base + sr], grid[base + sr + sb], 1 - fr, fr - fb, fb - fg, fg)
        } else {
            return blend(grid[base + sb], grid[base + sr + sb], 1 - fb, fb - fr, fr - fg, fg)
        }
    } else {
        if fb > fg {
            return blend(grid[base + sb], grid[base + sg + sb], 1 - fb, fb - fg, fg - fr, fr)
        } else if fb > fr {
            return blend(grid[base + sg], grid[base + sg + sb], 1 - fg, fg - fb, fb - fr, fr)
        } else {
            return blend(grid[base + sg], grid[base + sr + sg], 1 - fg, fg - fr, fr - fb, fb)
        }
    }
}

@inline(__always)
func trilinear(_ grid: UnsafePointer<SIMD4<Float>>, _ r: LUT3DAxis, _ g: LUT3DAxis, _ b: LUT3DAxis) -> SIMD4<Float> {
    let base = Int(r.low + g.low + b.low)
    let sr = Int(r.step), sg = Int(g.step), sb = Int(b.step)
    let fr = _mm_set1_ps(r.fraction), fg = _mm_set1_ps(g.fraction), fb = _mm_set1_ps(b.fraction)
    @inline(__always) func lerp(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: SIMD4<Float>) -> SIMD4<Float> {
        _mm_fmadd_ps(_mm_sub_ps(b, a), t, a)
    }
    let c00 = lerp(grid[base], grid[base + sr], fr)
    let c10 = lerp(grid[base + sg], grid[base + sr + sg], fr)
    let c01 = lerp(grid[base + sb], grid[base + sr + sb], fr)
    let c11 = lerp(grid[base + sg + sb], grid[base + sr + sg + sb], fr)
    return lerp(lerp(c00, c10, fg), lerp(c01, c11, fg), fb)
}
#endif
