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

INLINE AVX2 Channels chain(__m256i v, const float *k, int32_t count, __m256i low, bool keepAlpha, bool readAlpha) {
    __m256 c0 = _mm256_cvtepi32_ps(_mm256_and_si256(v, low));
    __m256 c1 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 8), low));
    __m256 c2 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 16), low));
    __m256i alpha = _mm256_srli_epi32(v, 24);
    __m256 c3 = _mm256_cvtepi32_ps(alpha);
    const __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255.0f);
    for (int32_t j = 0; j < count; j++, k += 20) {
#define B(i) _mm256_broadcast_ss(k + (i))
        __m256 r0 = _mm256_fmadd_ps(B(2), c2, _mm256_fmadd_ps(B(1), c1, _mm256_fmadd_ps(B(0), c0, B(16))));
        __m256 r1 = _mm256_fmadd_ps(B(6), c2, _mm256_fmadd_ps(B(5), c1, _mm256_fmadd_ps(B(4), c0, B(17))));
        __m256 r2 = _mm256_fmadd_ps(B(10), c2, _mm256_fmadd_ps(B(9), c1, _mm256_fmadd_ps(B(8), c0, B(18))));
        if (readAlpha) {
            r0 = _mm256_fmadd_ps(B(3), c3, r0);
            r1 = _mm256_fmadd_ps(B(7), c3, r1);
            r2 = _mm256_fmadd_ps(B(11), c3, r2);
        }
        if (!keepAlpha) {
            __m256 r3 = _mm256_fmadd_ps(B(15), c3, _mm256_fmadd_ps(B(14), c2,
                            _mm256_fmadd_ps(B(13), c1, _mm256_fmadd_ps(B(12), c0, B(19)))));
            c3 = j + 1 < count ? _mm256_min_ps(_mm256_max_ps(r3, zero), top) : r3;
        }
#undef B
        if (j + 1 < count) {
            r0 = _mm256_min_ps(_mm256_max_ps(r0, zero), top);
            r1 = _mm256_min_ps(_mm256_max_ps(r1, zero), top);
            r2 = _mm256_min_ps(_mm256_max_ps(r2, zero), top);
        }
        c0 = r0; c1 = r1; c2 = r2;
    }
    Channels t = { _mm256_cvtps_epi32(c0), _mm256_cvtps_epi32(c1), _mm256_cvtps_epi32(c2),
                   keepAlpha ? alpha : _mm256_cvtps_epi32(c3) };
    return t;
}

// Saturating packs: Int32 -> Int16 -> UInt8 clamps to 0…255 on the way.
INLINE AVX2 __m256i bytes(__m256i a, __m256i b, __m256i c, __m256i d) {
    return _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
}

INLINE AVX2 intptr_t row(const uint8_t *s, uint8_t *d, intptr_t width, const float *k, int32_t count,
                         bool keepAlpha, bool readAlpha) {
    const __m256i low = _mm256_set1_epi32(0xFF);
    intptr_t x = 0;
    for (; x + 32 <= width; x += 32) {
        const uint8_t *p = s + 4 * x;
        __m256i v0 = _mm256_loadu_si256((const __m256i *)p);
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(p + 32));
        __m256i v2 = _mm256_loadu_si256((const __m256i *)(p + 64));
        __m256i v3 = _mm256_loadu_si256((const __m256i *)(p + 96));
        Channels t0 = chain(v0, k, count, low, keepAlpha, readAlpha), t1 = chain(v1, k, count, low, keepAlpha, readAlpha);
        Channels t2 = chain(v2, k, count, low, keepAlpha, readAlpha), t3 = chain(v3, k, count, low, keepAlpha, readAlpha);
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
static AVX2 intptr_t rowKeepingAlpha(const uint8_t *s, uint8_t *d, intptr_t w, const float *k, int32_t n) {
    return row(s, d, w, k, n, true, false);
}
static AVX2 intptr_t rowReadingAlpha(const uint8_t *s, uint8_t *d, intptr_t w, const float *k, int32_t n) {
    return row(s, d, w, k, n, true, true);
}
static AVX2 intptr_t rowWritingAlpha(const uint8_t *s, uint8_t *d, intptr_t w, const float *k, int32_t n) {
    return row(s, d, w, k, n, false, true);
}

intptr_t mg_color_chain_row_avx2(const void *s, void *d, intptr_t width, const float *coefficients, int32_t count,
                                 bool keepAlpha, bool readAlpha) {
    if (count <= 0) return 0;
    if (keepAlpha && !readAlpha) return rowKeepingAlpha(s, d, width, coefficients, count);
    if (keepAlpha) return rowReadingAlpha(s, d, width, coefficients, count);
    return rowWritingAlpha(s, d, width, coefficients, count);
}

#else
intptr_t mg_color_chain_row_avx2(const void *s, void *d, intptr_t width, const float *coefficients, int32_t count,
                                 bool keepAlpha, bool readAlpha) {
    (void)s; (void)d; (void)width; (void)coefficients; (void)count; (void)keepAlpha; (void)readAlpha;
    return 0;
}
#endif
