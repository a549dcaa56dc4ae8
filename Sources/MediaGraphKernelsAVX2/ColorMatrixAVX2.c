// The colour-matrix row loop for AVX2+FMA CPUs. Packs and unpacks work within each 128-bit half,
// so each half is the SSE2 loop's computation on its own pixels and output register k again holds
// the pixels of input register k.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

// The operations are written out as intrinsics; no contraction into other fused operations.
#pragma STDC FP_CONTRACT OFF

#define AVX2 __attribute__((target("avx2,fma")))
#define INLINE static inline __attribute__((always_inline))

typedef struct { __m256i c0, c1, c2, c3; } Transformed;

INLINE AVX2 Transformed transform(__m256i v, const __m256 *m, __m256i low, bool keepAlpha, bool readAlpha) {
    __m256 c0 = _mm256_cvtepi32_ps(_mm256_and_si256(v, low));
    __m256 c1 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 8), low));
    __m256 c2 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 16), low));
    __m256 r0 = _mm256_fmadd_ps(m[2], c2, _mm256_fmadd_ps(m[1], c1, _mm256_fmadd_ps(m[0], c0, m[16])));
    __m256 r1 = _mm256_fmadd_ps(m[6], c2, _mm256_fmadd_ps(m[5], c1, _mm256_fmadd_ps(m[4], c0, m[17])));
    __m256 r2 = _mm256_fmadd_ps(m[10], c2, _mm256_fmadd_ps(m[9], c1, _mm256_fmadd_ps(m[8], c0, m[18])));
    __m256i r3 = _mm256_srli_epi32(v, 24);
    if (readAlpha) {
        __m256 c3 = _mm256_cvtepi32_ps(r3);
        r0 = _mm256_fmadd_ps(m[3], c3, r0);
        r1 = _mm256_fmadd_ps(m[7], c3, r1);
        r2 = _mm256_fmadd_ps(m[11], c3, r2);
        if (!keepAlpha) {
            __m256 a = _mm256_fmadd_ps(m[15], c3, _mm256_fmadd_ps(m[14], c2,
                           _mm256_fmadd_ps(m[13], c1, _mm256_fmadd_ps(m[12], c0, m[19]))));
            r3 = _mm256_cvtps_epi32(a);
        }
    }
    Transformed t = { _mm256_cvtps_epi32(r0), _mm256_cvtps_epi32(r1), _mm256_cvtps_epi32(r2), r3 };
    return t;
}

// Saturating packs: Int32 -> Int16 -> UInt8 clamps to 0…255 on the way.
INLINE AVX2 __m256i bytes(__m256i a, __m256i b, __m256i c, __m256i d) {
    return _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
}

INLINE AVX2 intptr_t row(const uint8_t *s, uint8_t *d, intptr_t width, const float *k,
                         bool keepAlpha, bool readAlpha) {
    __m256 m[20];
    for (int i = 0; i < 20; i++) m[i] = _mm256_set1_ps(k[i]);
    const __m256i low = _mm256_set1_epi32(0xFF);
    intptr_t x = 0;
    for (; x + 32 <= width; x += 32) {
        const uint8_t *p = s + 4 * x;
        __m256i v0 = _mm256_loadu_si256((const __m256i *)p);
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(p + 32));
        __m256i v2 = _mm256_loadu_si256((const __m256i *)(p + 64));
        __m256i v3 = _mm256_loadu_si256((const __m256i *)(p + 96));
        Transformed t0 = transform(v0, m, low, keepAlpha, readAlpha), t1 = transform(v1, m, low, keepAlpha, readAlpha);
        Transformed t2 = transform(v2, m, low, keepAlpha, readAlpha), t3 = transform(v3, m, low, keepAlpha, readAlpha);
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
static AVX2 intptr_t rowKeepingAlpha(const uint8_t *s, uint8_t *d, intptr_t w, const float *k) {
    return row(s, d, w, k, true, false);
}
static AVX2 intptr_t rowReadingAlpha(const uint8_t *s, uint8_t *d, intptr_t w, const float *k) {
    return row(s, d, w, k, true, true);
}
static AVX2 intptr_t rowWritingAlpha(const uint8_t *s, uint8_t *d, intptr_t w, const float *k) {
    return row(s, d, w, k, false, true);
}

intptr_t mg_color_matrix_row_avx2(const void *s, void *d, intptr_t width, const float *coefficients,
                                  bool keepAlpha, bool readAlpha) {
    if (keepAlpha && !readAlpha) return rowKeepingAlpha(s, d, width, coefficients);
    if (keepAlpha) return rowReadingAlpha(s, d, width, coefficients);
    return rowWritingAlpha(s, d, width, coefficients);
}

#else
intptr_t mg_color_matrix_row_avx2(const void *s, void *d, intptr_t width, const float *coefficients,
                                  bool keepAlpha, bool readAlpha) {
    (void)s; (void)d; (void)width; (void)coefficients; (void)keepAlpha; (void)readAlpha;
    return 0;
}
#endif
