// The colour-chain row loop for AVX2+FMA CPUs: several colour maps on each pixel in turn, clamped
// to 0…255 between maps (as stage-by-stage output is) but not rounded, then rounded once. 8 pixels
// per step, each packed and stored before the next (32 per loop iteration).
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
    return readAlpha ? _mm256_fmadd_ps(B(4 * c + 3), p.c3, r) : r;
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

// Four channels' values (32-bit) of 8 pixels back to packed pixels: the packs clamp to 0…255 and
// leave each 128-bit half as four bytes of red, four of green, of blue, of alpha; the shuffle
// interleaves them. Packed per step, so no step's values stay live across the next.
INLINE AVX2 __m256i pixels(Channels t) {
    __m256i planar = _mm256_packus_epi16(_mm256_packs_epi32(t.c0, t.c1), _mm256_packs_epi32(t.c2, t.c3));
    const __m256i interleave = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    return _mm256_shuffle_epi8(planar, interleave);
}

// Two maps with a clamp between them, as their composition corrected by what the clamp takes
// off: M2(clamp(y)) = M2(y) − L2·(y − clamp(y)), y = M1(x), L2 the second map's linear part.
// Only channel `tested` of y can leave 0…255, so only it is computed and corrected for: no
// branch, and no pass through both maps where some pixel is clamped.
INLINE AVX2 Channels corrected(Pixels u, const float *k, const float *composed, int32_t tested, bool keepAlpha, bool readAlpha) {
    const __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255.0f);
    const int outputs = keepAlpha ? 3 : 4;
    __m256 out[4];
    for (int c = 0; c < outputs; c++) out[c] = channel(u, composed, c, readAlpha);
    __m256 y = channel(u, k, tested, readAlpha);
    __m256 taken = _mm256_sub_ps(y, _mm256_min_ps(_mm256_max_ps(y, zero), top));
    for (int c = 0; c < outputs; c++)
        out[c] = _mm256_fnmadd_ps(_mm256_broadcast_ss(k + 20 + 4 * c + tested), taken, out[c]);
    Channels r = { _mm256_cvtps_epi32(out[0]), _mm256_cvtps_epi32(out[1]), _mm256_cvtps_epi32(out[2]),
                   keepAlpha ? u.alpha : _mm256_cvtps_epi32(out[3]) };
    return r;
}

// 8 pixels through the maps; with a shortcut (two maps), through their corrected composition.
INLINE AVX2 Channels step(const uint8_t *p, const float *k, int32_t count, bool keepAlpha, bool readAlpha,
                          const float *shortcut, int32_t tested, __m256i low) {
    Pixels u = unpack(_mm256_loadu_si256((const __m256i *)p), low);
    if (shortcut) return corrected(u, k, shortcut, tested, keepAlpha, readAlpha);
    return chain(u, k, count, keepAlpha, readAlpha);
}

INLINE AVX2 intptr_t row(const uint8_t *s, uint8_t *d, intptr_t width, const float *k, int32_t count,
                         bool keepAlpha, bool readAlpha, const float *shortcut, int32_t tested) {
    const __m256i low = _mm256_set1_epi32(0xFF);
    intptr_t x = 0;
    for (; x + 32 <= width; x += 32) {
        for (int i = 0; i < 4; i++) {
            Channels t = step(s + 4 * x + 32 * i, k, count, keepAlpha, readAlpha, shortcut, tested, low);
            _mm256_storeu_si256((__m256i *)(d + 4 * x + 32 * i), pixels(t));
        }
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
