#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The colour-matrix row loop for CPUs with AVX2 and FMA. This module alone is compiled with
/// `-mavx2 -mfma`; callers must check the CPU first (`MediaGraphKernels` does, once).
///
/// The same algorithm as the SSE2 loop (planar Float, `cvtps2dq`, saturating packs, unpacks),
/// on 256-bit registers: packs and unpacks work within each 128-bit half, so each half is the
/// SSE2 computation on its own pixels and output register k again holds the pixels of input
/// register k. 32 pixels per step; fused multiply-adds.
///
/// `coefficients` holds 16 matrix entries row by row and 4 offsets, in memory channel order and
/// 0…255 units. Returns the number of pixels done (a multiple of 32); the caller does the rest.
public func colorMatrixRowAVX2(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, width: Int,
                               coefficients: UnsafePointer<Float>, keepAlpha: Bool, readAlpha: Bool) -> Int {
    switch (keepAlpha, readAlpha) {
    case (true, false): return rowKeepingAlpha(s, d, width, coefficients)
    case (true, true): return rowReadingAlpha(s, d, width, coefficients)
    default: return rowWritingAlpha(s, d, width, coefficients)
    }
}

@inline(never)
func rowKeepingAlpha(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ c: UnsafePointer<Float>) -> Int {
    row(s, d, width, c, keepAlpha: true, readAlpha: false)
}

@inline(never)
func rowReadingAlpha(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ c: UnsafePointer<Float>) -> Int {
    row(s, d, width, c, keepAlpha: true, readAlpha: true)
}

@inline(never)
func rowWritingAlpha(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ c: UnsafePointer<Float>) -> Int {
    row(s, d, width, c, keepAlpha: false, readAlpha: true)
}

@inline(__always)
func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int, _ c: UnsafePointer<Float>,
         keepAlpha: Bool, readAlpha: Bool) -> Int {
    @inline(__always) func k(_ i: Int) -> __m256 { _mm256_set1_ps(c[i]) }
    let m00 = k(0), m01 = k(1), m02 = k(2), m03 = k(3), m10 = k(4), m11 = k(5), m12 = k(6), m13 = k(7)
    let m20 = k(8), m21 = k(9), m22 = k(10), m23 = k(11), m30 = k(12), m31 = k(13), m32 = k(14), m33 = k(15)
    let o0 = k(16), o1 = k(17), o2 = k(18), o3 = k(19)
    let low = _mm256_set1_epi32(0xFF)
    var x = 0
    while x + 32 <= width {
        let p = s + 4 * x
        let v0 = _mm256_loadu_si256(p.assumingMemoryBound(to: __m256i.self))
        let v1 = _mm256_loadu_si256((p + 32).assumingMemoryBound(to: __m256i.self))
        let v2 = _mm256_loadu_si256((p + 64).assumingMemoryBound(to: __m256i.self))
        let v3 = _mm256_loadu_si256((p + 96).assumingMemoryBound(to: __m256i.self))
        @inline(__always) func transform(_ v: __m256i) -> (__m256i, __m256i, __m256i, __m256i) {
            let c0 = _mm256_cvtepi32_ps(_mm256_and_si256(v, low))
            let c1 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 8), low))
            let c2 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 16), low))
            var r0 = _mm256_fmadd_ps(m02, c2, _mm256_fmadd_ps(m01, c1, _mm256_fmadd_ps(m00, c0, o0)))
            var r1 = _mm256_fmadd_ps(m12, c2, _mm256_fmadd_ps(m11, c1, _mm256_fmadd_ps(m10, c0, o1)))
            var r2 = _mm256_fmadd_ps(m22, c2, _mm256_fmadd_ps(m21, c1, _mm256_fmadd_ps(m20, c0, o2)))
            var r3 = _mm256_srli_epi32(v, 24)
            if readAlpha {
                let c3 = _mm256_cvtepi32_ps(r3)
                r0 = _mm256_fmadd_ps(m03, c3, r0)
                r1 = _mm256_fmadd_ps(m13, c3, r1)
                r2 = _mm256_fmadd_ps(m23, c3, r2)
                if !keepAlpha {
                    let a = _mm256_fmadd_ps(m33, c3, _mm256_fmadd_ps(m32, c2, _mm256_fmadd_ps(m31, c1, _mm256_fmadd_ps(m30, c0, o3))))
                    r3 = _mm256_cvtps_epi32(a)
                }
            }
            return (_mm256_cvtps_epi32(r0), _mm256_cvtps_epi32(r1), _mm256_cvtps_epi32(r2), r3)
        }
        let t0 = transform(v0), t1 = transform(v1), t2 = transform(v2), t3 = transform(v3)
        @inline(__always) func bytes(_ a: __m256i, _ b: __m256i, _ c: __m256i, _ d: __m256i) -> __m256i {
            _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d))
        }
        let r = bytes(t0.0, t1.0, t2.0, t3.0)
        let g = bytes(t0.1, t1.1, t2.1, t3.1)
        let b = bytes(t0.2, t1.2, t2.2, t3.2)
        let a = bytes(t0.3, t1.3, t2.3, t3.3)
        let rgLow = _mm256_unpacklo_epi8(r, g), rgHigh = _mm256_unpackhi_epi8(r, g)
        let baLow = _mm256_unpacklo_epi8(b, a), baHigh = _mm256_unpackhi_epi8(b, a)
        let q = d + 4 * x
        _mm256_storeu_si256(q.assumingMemoryBound(to: __m256i.self), _mm256_unpacklo_epi16(rgLow, baLow))
        _mm256_storeu_si256((q + 32).assumingMemoryBound(to: __m256i.self), _mm256_unpackhi_epi16(rgLow, baLow))
        _mm256_storeu_si256((q + 64).assumingMemoryBound(to: __m256i.self), _mm256_unpacklo_epi16(rgHigh, baHigh))
        _mm256_storeu_si256((q + 96).assumingMemoryBound(to: __m256i.self), _mm256_unpackhi_epi16(rgHigh, baHigh))
        x += 32
    }
    return x
}
#endif
