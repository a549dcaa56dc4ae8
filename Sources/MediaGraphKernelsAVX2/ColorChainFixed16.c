// The colour-chain row loop in 16-bit fixed point for AVX2 CPUs (those without AVX-512 VNNI):
// 16 pixels per step, each colour channel in its own register of sixteen Int16 lanes, so one
// multiply (vpmulhrsw: the product's high half, rounded) does a coefficient for 16 pixels — twice
// the pixels of a Float lane, and no conversion to Float and back. The caller
// (ColorChainFixed16) quantizes the maps, picks each one's fraction bits and states the error.
//
// Layout of a step: the 16 pixels are two 8-pixel loads; a shuffle puts each 128-bit half in
// channel order (four reds, four greens, …), and 32-bit unpacks gather reds and greens of both
// loads in one register and blues and alphas in another; bytes widen to words from there. The
// packing at the end runs the same steps backwards, so the lanes' pixel order never matters.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline))

// One map: 16 vectors of 16 Int16 (see the header).
#define W(m, i) _mm256_loadu_si256((const __m256i *)((m) + 16 * (i)))

INLINE AVX2 __m256i output(__m256i r, __m256i g, __m256i b, const int16_t *m, int c) {
    __m256i t = _mm256_add_epi16(_mm256_mulhrs_epi16(r, W(m, 3 * c)), _mm256_mulhrs_epi16(g, W(m, 3 * c + 1)));
    return _mm256_add_epi16(_mm256_add_epi16(t, _mm256_mulhrs_epi16(b, W(m, 3 * c + 2))), W(m, 9 + c));
}

// Clamped to 0…255 (with the map's fraction bits), then scaled to 7 fraction bits for the next map.
INLINE AVX2 __m256i between(__m256i v, const int16_t *m) {
    __m256i clamped = _mm256_min_epi16(_mm256_max_epi16(v, _mm256_setzero_si256()), W(m, 12));
    return _mm256_sll_epi16(clamped, _mm_cvtsi32_si128(m[16 * 14]));
}

typedef struct { __m256i r, g, b, ba; } Planes;

// 16 pixels from memory: red, green and blue as (x − 128)·256 (what the first map reads; its
// offsets make up for the 128), and the blue-alpha bytes whose alpha goes back out unchanged.
INLINE AVX2 Planes load(const uint8_t *s) {
    const __m256i planar = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    const __m256i bias = _mm256_set1_epi8((char)0x80), zero = _mm256_setzero_si256();
    __m256i t0 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)s), planar);
    __m256i t1 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(s + 32)), planar);
    __m256i rg = _mm256_unpacklo_epi32(t0, t1), ba = _mm256_unpackhi_epi32(t0, t1);
    __m256i rgBiased = _mm256_xor_si256(rg, bias), baBiased = _mm256_xor_si256(ba, bias);
    Planes p = { _mm256_unpacklo_epi8(zero, rgBiased), _mm256_unpackhi_epi8(zero, rgBiased), _mm256_unpacklo_epi8(zero, baBiased), ba };
    return p;
}

// Back to bytes (the packs clamp to 0…255), alpha from the source, and the loads' order.
INLINE AVX2 void store(uint8_t *d, __m256i r, __m256i g, __m256i b, __m256i ba) {
    const __m256i interleave = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    __m256i rgOut = _mm256_packus_epi16(r, g);
    __m256i baOut = _mm256_blend_epi32(_mm256_packus_epi16(b, b), ba, 0xCC);
    __m256i x0 = _mm256_unpacklo_epi32(rgOut, baOut), x1 = _mm256_unpackhi_epi32(rgOut, baOut);
    __m256i u0 = _mm256_unpacklo_epi32(x0, x1), u1 = _mm256_unpackhi_epi32(x0, x1);
    _mm256_storeu_si256((__m256i *)d, _mm256_shuffle_epi8(u0, interleave));
    _mm256_storeu_si256((__m256i *)(d + 32), _mm256_shuffle_epi8(u1, interleave));
}

INLINE AVX2 void step(const uint8_t *s, uint8_t *d, const int16_t *maps, int32_t count) {
    Planes p = load(s);
    __m256i r = p.r, g = p.g, b = p.b;
    const int16_t *m = maps;
    for (int32_t j = 0; j < count; j++, m += 256) {
        __m256i r1 = output(r, g, b, m, 0), g1 = output(r, g, b, m, 1), b1 = output(r, g, b, m, 2);
        if (j + 1 < count) {
            r = between(r1, m); g = between(g1, m); b = between(b1, m);
        } else {
            __m128i shift = _mm_cvtsi32_si128(m[16 * 13]);
            r = _mm256_sra_epi16(r1, shift); g = _mm256_sra_epi16(g1, shift); b = _mm256_sra_epi16(b1, shift);
        }
    }
    store(d, r, g, b, p.ba);
}

// Two maps whose first can take one channel out of 0…255 (see the header): their composition
// less the second map's column for that channel times what the clamp takes off it.
INLINE AVX2 void pairStep(const uint8_t *s, uint8_t *d, const int16_t *m) {
    Planes p = load(s);
    const int16_t *k = m + 256;
    __m256i y = _mm256_add_epi16(_mm256_mulhrs_epi16(p.r, W(m, 12)), _mm256_mulhrs_epi16(p.g, W(m, 13)));
    y = _mm256_add_epi16(_mm256_add_epi16(y, _mm256_mulhrs_epi16(p.b, W(m, 14))), W(m, 15));
    __m256i clamped = _mm256_min_epi16(_mm256_max_epi16(y, _mm256_setzero_si256()), W(k, 3));
    __m256i taken = _mm256_sll_epi16(_mm256_sub_epi16(y, clamped), _mm_cvtsi32_si128(k[16 * 5]));
    __m128i shift = _mm_cvtsi32_si128(k[16 * 4]);
    // Saturating: the composition and its correction each fit, but where the second map throws a
    // colour far outside 0…255 their difference may not; saturated, it still packs to 0 or 255.
    __m256i r = _mm256_subs_epi16(output(p.r, p.g, p.b, m, 0), _mm256_mulhrs_epi16(taken, W(k, 0)));
    __m256i g = _mm256_subs_epi16(output(p.r, p.g, p.b, m, 1), _mm256_mulhrs_epi16(taken, W(k, 1)));
    __m256i b = _mm256_subs_epi16(output(p.r, p.g, p.b, m, 2), _mm256_mulhrs_epi16(taken, W(k, 2)));
    store(d, _mm256_sra_epi16(r, shift), _mm256_sra_epi16(g, shift), _mm256_sra_epi16(b, shift), p.ba);
}

// Two maps (what the fusion makes most often) with the count a constant, so the loop over maps
// unrolls and the constants can stay in registers.
// The maps are only read (restrict: the stores to d do not change them), so their loads and
// shift counts stay out of the loop.
static AVX2 intptr_t rowOfTwo(const uint8_t *s, uint8_t *d, intptr_t width, const int16_t *__restrict maps) {
    intptr_t x = 0;
    for (; x + 16 <= width; x += 16) step(s + 4 * x, d + 4 * x, maps, 2);
    return x;
}

static AVX2 intptr_t rowOfAny(const uint8_t *s, uint8_t *d, intptr_t width, const int16_t *__restrict maps, int32_t count) {
    intptr_t x = 0;
    for (; x + 16 <= width; x += 16) step(s + 4 * x, d + 4 * x, maps, count);
    return x;
}

intptr_t mg_color_chain_row_fixed16(const void *s, void *d, intptr_t width, const int16_t *maps, int32_t count) {
    if (count <= 0) return 0;
    return count == 2 ? rowOfTwo(s, d, width, maps) : rowOfAny(s, d, width, maps, count);
}

static AVX2 intptr_t pairRow(const uint8_t *s, uint8_t *d, intptr_t width, const int16_t *__restrict m) {
    intptr_t x = 0;
    for (; x + 16 <= width; x += 16) pairStep(s + 4 * x, d + 4 * x, m);
    return x;
}

intptr_t mg_color_chain_pair_fixed16(const void *s, void *d, intptr_t width, const int16_t *pair) {
    return pairRow(s, d, width, pair);
}

// Maps whose first has rank one (see the header): y, one clamp of it per segment, and per
// channel one multiply per segment. `segments` is a constant in each specialised loop below.
INLINE AVX2 void rankOneStep(const uint8_t *s, uint8_t *d, const int16_t *m, int segments) {
    Planes p = load(s);
    __m256i y = _mm256_add_epi16(_mm256_mulhrs_epi16(p.r, W(m, 0)), _mm256_mulhrs_epi16(p.g, W(m, 1)));
    y = _mm256_add_epi16(y, _mm256_mulhrs_epi16(p.b, W(m, 2)));
    // segment k's y: clamped to its ends (the outer ends need none: y never passes them)
    __m256i z[4];
    for (int k = 0; k < segments; k++) {
        __m256i v = k > 0 ? _mm256_max_epi16(y, W(m, 3 + k - 1)) : y;
        z[k] = k < segments - 1 ? _mm256_min_epi16(v, W(m, 3 + k)) : v;
    }
    __m128i shift = _mm_cvtsi32_si128(m[16 * 21]);
    __m256i out[3];
    for (int c = 0; c < 3; c++) {
        __m256i sum = _mm256_mulhrs_epi16(z[0], W(m, 6 + 4 * c));
        for (int k = 1; k < segments; k++) sum = _mm256_add_epi16(sum, _mm256_mulhrs_epi16(z[k], W(m, 6 + 4 * c + k)));
        out[c] = _mm256_sra_epi16(_mm256_add_epi16(sum, W(m, 18 + c)), shift);
    }
    store(d, out[0], out[1], out[2], p.ba);
}

#define RANK_ONE_ROW(n) \
    static AVX2 intptr_t rankOneRow##n(const uint8_t *s, uint8_t *d, intptr_t width, const int16_t *__restrict m) { \
        intptr_t x = 0; \
        for (; x + 16 <= width; x += 16) rankOneStep(s + 4 * x, d + 4 * x, m, n); \
        return x; \
    }
RANK_ONE_ROW(1)
RANK_ONE_ROW(2)
RANK_ONE_ROW(3)
RANK_ONE_ROW(4)

intptr_t mg_color_chain_rank_one_fixed16(const void *s, void *d, intptr_t width, const int16_t *words, int32_t segments) {
    switch (segments) {
    case 1: return rankOneRow1(s, d, width, words);
    case 2: return rankOneRow2(s, d, width, words);
    case 3: return rankOneRow3(s, d, width, words);
    case 4: return rankOneRow4(s, d, width, words);
    default: return 0;
    }
}

#else
intptr_t mg_color_chain_rank_one_fixed16(const void *s, void *d, intptr_t width, const int16_t *words, int32_t segments) {
    (void)s; (void)d; (void)width; (void)words; (void)segments;
    return 0;
}

intptr_t mg_color_chain_pair_fixed16(const void *s, void *d, intptr_t width, const int16_t *pair) {
    (void)s; (void)d; (void)width; (void)pair;
    return 0;
}

intptr_t mg_color_chain_row_fixed16(const void *s, void *d, intptr_t width, const int16_t *maps, int32_t count) {
    (void)s; (void)d; (void)width; (void)maps; (void)count;
    return 0;
}
#endif
