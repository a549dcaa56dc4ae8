// The colour-chain row loop for AVX2+FMA CPUs: several colour maps on each pixel in turn, clamped
// to 0…255 between maps (as stage-by-stage output is) but not rounded, then rounded once. The
// loads, unpacking and packing are the colour-matrix loop's (ColorMatrixAVX2.c): 32 pixels per
// step, each 128-bit half on its own pixels.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

#pragma STDC FP_CONTRACT OFF

#define AVX2 __attribute__((target("avx2,fma")))
#define INLINE static inline __attribute__((always_inline))

typedef struct { __m256i c0, c1, c2, c3; } Channels;
typedef struct { __m256 c0, c1, c2, c3; __m256i alpha; } Pixels;

INLINE AVX2 Pixels unpack(__m256i v, __m256i low) {
    __m256i alpha = _mm256_srli_epi32(v, 24);
    Pixels p = { _mm256_cvtepi32_ps(_mm256_and_si256(v, low)),
                 _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 8), low)),
                 _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 16), low)),
                 _mm256_cvtepi32_ps(alpha), alpha };
    return p;
}

#define B(i) _mm256_broadcast_ss(k + (i))
// Output channel c of the map at k (20 floats: 4 rows of 4, then 4 offsets).
INLINE AVX2 __m256 channel(Pixels p, const float *k, int c, bool readAlpha) {
    __m256 r = _mm256_fmadd_ps(B(4 * c + 2), p.c2, _mm256_fmadd_ps(B(4 * c + 1), p.c1, _mm256_fmadd_ps(B(4 * c), p.c0, B(16 + c))));
    return readAlpha || c == 3 ? _mm256_fmadd_ps(B(4 * c + 3), p.c3, r) : r;
}
#undef B

INLINE AVX2 Channels chain(Pixels p, const float *k, int32_t count, bool keepAlpha, bool readAlpha) {
    const __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255.0f);
    for (int32_t j = 0; j < count; j++, k += 20) {
        __m256 r0 = channel(p, k, 0, readAlpha), r1 = channel(p, k, 1, readAlpha), r2 = channel(p, k, 2, readAlpha);
        if (!keepAlpha) {
            __m256 r3 = channel(p, k, 3, true);
            p.c3 = j + 1 < count ? _mm256_min_ps(_mm256_max_ps(r3, zero), top) : r3;
        }
        if (j + 1 < count) {
            r0 = _mm256_min_ps(_mm256_max_ps(r0, zero), top);
            r1 = _mm256_min_ps(_mm256_max_ps(r1, zero), top);
            r2 = _mm256_min_ps(_mm256_max_ps(r2, zero), top);
        }
        p.c0 = r0; p.c1 = r1; p.c2 = r2;
    }
    Channels t = { _mm256_cvtps_epi32(p.c0), _mm256_cvtps_epi32(p.c1), _mm256_cvtps_epi32(p.c2),
                   keepAlpha ? p.alpha : _mm256_cvtps_epi32(p.c3) };
    return t;
}

// Whether the first map at k takes any of the 8 pixels' tested channels out of 0…255.
INLINE AVX2 __m256 leaves(Pixels p, const float *k, int32_t tested, int outputs, bool readAlpha) {
    const __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255.0f);
    __m256 out = zero;
    for (int c = 0; c < outputs; c++) {
        if (!((tested >> c) & 1)) continue;
        __m256 r = channel(p, k, c, readAlpha);
        out = _mm256_or_ps(out, _mm256_or_ps(_mm256_cmp_ps(r, zero, _CMP_LT_OQ), _mm256_cmp_ps(r, top, _CMP_GT_OQ)));
    }
    return out;
}

// Saturating packs: Int32 -> Int16 -> UInt8 clamps to 0…255 on the way.
INLINE AVX2 __m256i bytes(__m256i a, __m256i b, __m256i c, __m256i d) {
    return _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
}

// 8 pixels through the maps; with a shortcut, through the composition alone when none of them
// has a tested channel of the first map outside 0…255.
INLINE AVX2 Channels step(const uint8_t *p, const float *k, int32_t count, bool keepAlpha, bool readAlpha,
                          const float *shortcut, int32_t tested, __m256i low) {
    Pixels u = unpack(_mm256_loadu_si256((const __m256i *)p), low);
    if (shortcut) {
        __m256 out = leaves(u, k, tested, keepAlpha ? 3 : 4, readAlpha);
        if (_mm256_testz_ps(out, out)) return chain(u, shortcut, 1, keepAlpha, readAlpha);
    }
    return chain(u, k, count, keepAlpha, readAlpha);
}

INLINE AVX2 intptr_t row(const uint8_t *s, uint8_t *d, intptr_t width, const float *k, int32_t count,
                         bool keepAlpha, bool readAlpha, const float *shortcut, int32_t tested) {
    const __m256i low = _mm256_set1_epi32(0xFF);
    intptr_t x = 0;
    for (; x + 32 <= width; x += 32) {
        const uint8_t *p = s + 4 * x;
        Channels t0 = step(p, k, count, keepAlpha, readAlpha, shortcut, tested, low);
        Channels t1 = step(p + 32, k, count, keepAlpha, readAlpha, shortcut, tested, low);
        Channels t2 = step(p + 64, k, count, keepAlpha, readAlpha, shortcut, tested, low);
        Channels t3 = step(p + 96, k, count, keepAlpha, readAlpha, shortcut, tested, low);
        __m256i r = bytes(t0.c0, t1.c0, t2.c0, t3.c0);
        __m256i g = bytes(t0.c1, t1.c1, t2.c1, t3.c1);
        __m256i b = bytes(t0.c2, t1.c2, t2.c2, t3.c2);
        __m256i a = bytes(t0.c3, t1.c3, t2.c3, t3.c3);
        __m256i rgLow = _mm256_unpacklo_epi8(r, g), rgHigh = _mm256_unpackhi_epi8(r, g);
        __m256i baLow = _mm256_unpacklo_epi8(b, a), baHigh = _mm256_unpackhi_epi8(b, a);
        uint8_t *q = d + 4 * x;
        _mm256_storeu_si256((__m256i *)q, _mm256_unpacklo_epi16(rgLow, baLow));
        _mm256_storeu_si256((__m256i *)(q + 32), _mm256_unpackhi_epi16(rgLow, baLow));
        _mm256_storeu_si256((__m256i *)(q + 64), _mm256_unpacklo_epi16(rgHigh, baHigh));
        _mm256_storeu_si256((__m256i *)(q + 96), _mm256_unpackhi_epi16(rgHigh, baHigh));
    }
    return x;
}

// One loop per flag combination (the flags constants inside each).
#define ROW(name, keep, read) \
    static AVX2 intptr_t name(const uint8_t *s, uint8_t *d, intptr_t w, const float *k, int32_t n, const float *sc, int32_t t) { \
        return sc ? row(s, d, w, k, n, keep, read, sc, t) : row(s, d, w, k, n, keep, read, NULL, 0); \
    }
ROW(rowKeepingAlpha, true, false)
ROW(rowReadingAlpha, true, true)
ROW(rowWritingAlpha, false, true)
#undef ROW

intptr_t mg_color_chain_row_avx2(const void *s, void *d, intptr_t width, const float *coefficients, int32_t count,
                                 bool keepAlpha, bool readAlpha, const float *shortcut, int32_t tested) {
    if (count <= 0) return 0;
    if (keepAlpha && !readAlpha) return rowKeepingAlpha(s, d, width, coefficients, count, shortcut, tested);
    if (keepAlpha) return rowReadingAlpha(s, d, width, coefficients, count, shortcut, tested);
    return rowWritingAlpha(s, d, width, coefficients, count, shortcut, tested);
}

#else
intptr_t mg_color_chain_row_avx2(const void *s, void *d, intptr_t width, const float *coefficients, int32_t count,
                                 bool keepAlpha, bool readAlpha, const float *shortcut, int32_t tested) {
    (void)s; (void)d; (void)width; (void)coefficients; (void)count; (void)keepAlpha; (void)readAlpha; (void)shortcut; (void)tested;
    return 0;
}
#endif
