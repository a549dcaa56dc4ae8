// The colour-chain row loop in fixed point for CPUs with AVX-512 VNNI: 16 pixels per step, each
// pixel's four bytes one 32-bit lane. The first map reads the packed bytes as they are
// (vpdpbusd: four byte products summed per lane, its coefficients split into two signed bytes);
// the next ones read 16-bit values with 7 fraction bits, red and green in one lane, blue and
// alpha in the other (vpdpwssd). Between maps values are clamped to 0…255 (as stage-by-stage
// output is) and rounded to 1/128; the last map rounds to bytes. No conversion to float and
// back: about half the instructions of the float loop (ColorChainAVX2.c). The caller
// (ColorChainKernel) quantizes the coefficients and states the error this adds.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define INLINE static inline __attribute__((always_inline))

// One map's 16 words (see the header): [0…3] the first pair of coefficients per output channel,
// [4…7] the second, [8…11] offsets, [12] [13] the clamp, [14] the shift.
INLINE VNNI __m512i firstMap(__m512i v, const int32_t *k, int c) {
    __m512i t = _mm512_dpbusd_epi32(_mm512_set1_epi32(k[8 + c]), v, _mm512_set1_epi32(k[c]));
    return _mm512_dpbusd_epi32(_mm512_slli_epi32(t, 8), v, _mm512_set1_epi32(k[4 + c]));
}

INLINE VNNI __m512i laterMap(__m512i rg, __m512i ba, const int32_t *k, int c) {
    __m512i t = _mm512_dpwssd_epi32(_mm512_set1_epi32(k[8 + c]), rg, _mm512_set1_epi32(k[c]));
    return _mm512_dpwssd_epi32(t, ba, _mm512_set1_epi32(k[4 + c]));
}

// Clamped to the map's range (the rounding term is in its offset), then down to 7 fraction bits.
INLINE VNNI __m512i between(__m512i a, __m512i low, __m512i high, __m128i shift) {
    return _mm512_sra_epi32(_mm512_min_epi32(_mm512_max_epi32(a, low), high), shift);
}

// Four channels' values (32-bit, any sign) to packed pixels: the packs clamp to 0…255 and leave
// each 16-byte lane as four bytes of red, four of green, of blue, of alpha; the shuffle
// interleaves them.
INLINE VNNI __m512i pixels(__m512i r, __m512i g, __m512i b, __m512i a) {
    __m512i planar = _mm512_packus_epi16(_mm512_packs_epi32(r, g), _mm512_packs_epi32(b, a));
    const __m512i interleave = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    return _mm512_shuffle_epi8(planar, interleave);
}

// Whether any of the 16 values is outside [low, high].
INLINE VNNI __mmask16 outside(__m512i a, __m512i low, __m512i high) {
    return _mm512_cmplt_epi32_mask(a, low) | _mm512_cmpgt_epi32_mask(a, high);
}

INLINE VNNI intptr_t row(const uint8_t *s, uint8_t *d, intptr_t width, const int32_t *k, int32_t count, bool keepAlpha,
                         const int32_t *shortcut) {
    const __m512i alphaBits = _mm512_set1_epi32((int32_t)0xFF000000);
    const int outputs = keepAlpha ? 3 : 4;
    const int32_t tested = shortcut ? shortcut[15] : 0;
    intptr_t x = 0;
    for (; x + 16 <= width; x += 16) {
        __m512i v = _mm512_loadu_si512((const void *)(s + 4 * x));
        __m512i c[4] = { _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512() };
        int computed = 0;
        if (shortcut) {
            // The first map's channels that can leave the clamp range; when none of the 16 pixels
            // does, no clamp acts and the composed map gives the result in one step.
            __m512i low = _mm512_set1_epi32(k[12]), high = _mm512_set1_epi32(k[13]);
            __mmask16 out = 0;
            for (int ch = 0; ch < outputs; ch++) {
                if (!((tested >> ch) & 1)) continue;
                c[ch] = firstMap(v, k, ch);
                out |= outside(c[ch], low, high);
            }
            computed = tested;
            if (!out) {
                __m128i shift = _mm_cvtsi32_si128(shortcut[14]);
                __m512i alpha = keepAlpha ? _mm512_srli_epi32(v, 24) : _mm512_sra_epi32(firstMap(v, shortcut, 3), shift);
                __m512i p = pixels(_mm512_sra_epi32(firstMap(v, shortcut, 0), shift), _mm512_sra_epi32(firstMap(v, shortcut, 1), shift),
                                   _mm512_sra_epi32(firstMap(v, shortcut, 2), shift), alpha);
                _mm512_storeu_si512((void *)(d + 4 * x), p);
                continue;
            }
        }
        for (int ch = 0; ch < outputs; ch++)
            if (!((computed >> ch) & 1)) c[ch] = firstMap(v, k, ch);
        __m512i c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
        // a kept alpha as the high word of the blue-alpha lane, 7 fraction bits: a << 23
        __m512i alphaWord = _mm512_srli_epi32(_mm512_and_si512(v, alphaBits), 1);
        const int32_t *m = k;
        for (int32_t j = 1; j < count; j++) {
            __m512i low = _mm512_set1_epi32(m[12]), high = _mm512_set1_epi32(m[13]);
            __m128i shift = _mm_cvtsi32_si128(m[14]);
            c0 = between(c0, low, high, shift);
            c1 = between(c1, low, high, shift);
            c2 = between(c2, low, high, shift);
            __m512i rg = _mm512_or_si512(c0, _mm512_slli_epi32(c1, 16));
            __m512i ba = _mm512_or_si512(c2, keepAlpha ? alphaWord : _mm512_slli_epi32(between(c3, low, high, shift), 16));
            m += 16;
            c0 = laterMap(rg, ba, m, 0);
            c1 = laterMap(rg, ba, m, 1);
            c2 = laterMap(rg, ba, m, 2);
            if (!keepAlpha) c3 = laterMap(rg, ba, m, 3);
        }
        __m128i shift = _mm_cvtsi32_si128(m[14]);
        __m512i alpha = keepAlpha ? _mm512_srli_epi32(v, 24) : _mm512_sra_epi32(c3, shift);
        __m512i out = pixels(_mm512_sra_epi32(c0, shift), _mm512_sra_epi32(c1, shift), _mm512_sra_epi32(c2, shift), alpha);
        _mm512_storeu_si512((void *)(d + 4 * x), out);
    }
    return x;
}

// Four copies, so that the loop without a shortcut carries no test of it.
static VNNI intptr_t rowKeepingAlpha(const uint8_t *s, uint8_t *d, intptr_t w, const int32_t *k, int32_t n) {
    return row(s, d, w, k, n, true, NULL);
}
static VNNI intptr_t rowWritingAlpha(const uint8_t *s, uint8_t *d, intptr_t w, const int32_t *k, int32_t n) {
    return row(s, d, w, k, n, false, NULL);
}
static VNNI intptr_t rowKeepingAlphaShortcut(const uint8_t *s, uint8_t *d, intptr_t w, const int32_t *k, int32_t n, const int32_t *sc) {
    return row(s, d, w, k, n, true, sc);
}
static VNNI intptr_t rowWritingAlphaShortcut(const uint8_t *s, uint8_t *d, intptr_t w, const int32_t *k, int32_t n, const int32_t *sc) {
    return row(s, d, w, k, n, false, sc);
}

intptr_t mg_color_chain_row_vnni(const void *s, void *d, intptr_t width, const int32_t *words, int32_t count, bool keepAlpha,
                                 const int32_t *shortcut) {
    if (count <= 0) return 0;
    if (shortcut)
        return keepAlpha ? rowKeepingAlphaShortcut(s, d, width, words, count, shortcut)
                         : rowWritingAlphaShortcut(s, d, width, words, count, shortcut);
    return keepAlpha ? rowKeepingAlpha(s, d, width, words, count) : rowWritingAlpha(s, d, width, words, count);
}

#else
intptr_t mg_color_chain_row_vnni(const void *s, void *d, intptr_t width, const int32_t *words, int32_t count, bool keepAlpha,
                                 const int32_t *shortcut) {
    (void)s; (void)d; (void)width; (void)words; (void)count; (void)keepAlpha; (void)shortcut;
    return 0;
}
#endif
