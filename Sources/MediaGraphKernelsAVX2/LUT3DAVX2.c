// The LUT3D row loop for AVX2+FMA CPUs: the baseline loop's per-pixel interpolation with the
// blends as fused multiply-adds (trilinear: 7 instead of 14 vector operations for the arithmetic).
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

#define AVX2 __attribute__((target("avx2,fma")))
#define INLINE static inline __attribute__((always_inline))

INLINE AVX2 __m128 at(const mg_float4 *grid, intptr_t i) { return _mm_loadu_ps((const float *)(grid + i)); }

// c000·w0 + c1·w1 + c2·w2 + c111·w3 as one multiply and three fused multiply-adds.
INLINE AVX2 __m128 blend(__m128 c000, __m128 c1, __m128 c2, __m128 c111, float w0, float w1, float w2, float w3) {
    return _mm_fmadd_ps(c111, _mm_set1_ps(w3), _mm_fmadd_ps(c2, _mm_set1_ps(w2),
               _mm_fmadd_ps(c1, _mm_set1_ps(w1), _mm_mul_ps(c000, _mm_set1_ps(w0)))));
}

INLINE AVX2 __m128 tetra(const mg_float4 *grid, LUT3DAxis r, LUT3DAxis g, LUT3DAxis b) {
    intptr_t base = (intptr_t)r.low + g.low + b.low;
    intptr_t sr = r.step, sg = g.step, sb = b.step;
    float fr = r.fraction, fg = g.fraction, fb = b.fraction;
    __m128 c000 = at(grid, base), c111 = at(grid, base + sr + sg + sb);
    if (fr > fg) {
        if (fg > fb) return blend(c000, at(grid, base + sr), at(grid, base + sr + sg), c111, 1 - fr, fr - fg, fg - fb, fb);
        if (fr > fb) return blend(c000, at(grid, base + sr), at(grid, base + sr + sb), c111, 1 - fr, fr - fb, fb - fg, fg);
        return blend(c000, at(grid, base + sb), at(grid, base + sr + sb), c111, 1 - fb, fb - fr, fr - fg, fg);
    }
    if (fb > fg) return blend(c000, at(grid, base + sb), at(grid, base + sg + sb), c111, 1 - fb, fb - fg, fg - fr, fr);
    if (fb > fr) return blend(c000, at(grid, base + sg), at(grid, base + sg + sb), c111, 1 - fg, fg - fb, fb - fr, fr);
    return blend(c000, at(grid, base + sg), at(grid, base + sr + sg), c111, 1 - fg, fg - fr, fr - fb, fb);
}

INLINE AVX2 __m128 lerp(__m128 a, __m128 b, __m128 t) { return _mm_fmadd_ps(_mm_sub_ps(b, a), t, a); }

INLINE AVX2 __m128 trilinear(const mg_float4 *grid, LUT3DAxis r, LUT3DAxis g, LUT3DAxis b) {
    intptr_t base = (intptr_t)r.low + g.low + b.low;
    intptr_t sr = r.step, sg = g.step, sb = b.step;
    __m128 fr = _mm_set1_ps(r.fraction), fg = _mm_set1_ps(g.fraction), fb = _mm_set1_ps(b.fraction);
    __m128 c00 = lerp(at(grid, base), at(grid, base + sr), fr);
    __m128 c10 = lerp(at(grid, base + sg), at(grid, base + sr + sg), fr);
    __m128 c01 = lerp(at(grid, base + sb), at(grid, base + sr + sb), fr);
    __m128 c11 = lerp(at(grid, base + sg + sb), at(grid, base + sr + sg + sb), fr);
    return lerp(lerp(c00, c10, fg), lerp(c01, c11, fg), fb);
}

INLINE AVX2 void row(const uint8_t *s, uint8_t *d, intptr_t width, const mg_float4 *grid, const LUT3DAxis *axes,
                     bool bgra, bool tetrahedral) {
    for (intptr_t x = 0; x < width; x++) {
        uint32_t p;
        memcpy(&p, s + 4 * x, 4);
        LUT3DAxis ar = axes[bgra ? (p >> 16) & 0xFF : p & 0xFF];
        LUT3DAxis ag = axes[256 + ((p >> 8) & 0xFF)];
        LUT3DAxis ab = axes[512 + (bgra ? p & 0xFF : (p >> 16) & 0xFF)];
        __m128 c = tetrahedral ? tetra(grid, ar, ag, ab) : trilinear(grid, ar, ag, ab);
        if (bgra) c = _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 0, 1, 2));
        __m128i i = _mm_cvtps_epi32(c);
        __m128i w = _mm_packs_epi32(i, i);
        uint32_t rgb = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(w, w));
        uint32_t out = rgb | (p & 0xFF000000u);
        memcpy(d + 4 * x, &out, 4);
    }
}

static AVX2 void rgbaTetrahedral(const uint8_t *s, uint8_t *d, intptr_t w, const mg_float4 *g, const LUT3DAxis *a) {
    row(s, d, w, g, a, false, true);
}
static AVX2 void bgraTetrahedral(const uint8_t *s, uint8_t *d, intptr_t w, const mg_float4 *g, const LUT3DAxis *a) {
    row(s, d, w, g, a, true, true);
}
static AVX2 void rgbaTrilinear(const uint8_t *s, uint8_t *d, intptr_t w, const mg_float4 *g, const LUT3DAxis *a) {
    row(s, d, w, g, a, false, false);
}
static AVX2 void bgraTrilinear(const uint8_t *s, uint8_t *d, intptr_t w, const mg_float4 *g, const LUT3DAxis *a) {
    row(s, d, w, g, a, true, false);
}

void mg_lut3d_row_avx2(const void *s, void *d, intptr_t width, const mg_float4 *grid, const LUT3DAxis *axes,
                       bool bgra, bool tetrahedral) {
    if (tetrahedral) {
        if (bgra) bgraTetrahedral(s, d, width, grid, axes); else rgbaTetrahedral(s, d, width, grid, axes);
    } else {
        if (bgra) bgraTrilinear(s, d, width, grid, axes); else rgbaTrilinear(s, d, width, grid, axes);
    }
}

#else
void mg_lut3d_row_avx2(const void *s, void *d, intptr_t width, const mg_float4 *grid, const LUT3DAxis *axes,
                       bool bgra, bool tetrahedral) {
    (void)s; (void)d; (void)width; (void)grid; (void)axes; (void)bgra; (void)tetrahedral;
}
#endif
