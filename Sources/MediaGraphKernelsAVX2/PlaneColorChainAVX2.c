// Colour maps on 8-bit planar Y'CbCr without leaving the frame's layout (PlaneColorChain holds
// the arithmetic and why it is the RGB route's): each luma pixel with its chroma sample goes to
// R'G'B' in Float, through every map with a clamp to 0…255 after each, and back; Y' is rounded
// per pixel, Cb and Cr are made from the sum of R'G'B' over the pixels their sample covers. 8
// chroma samples a step: on 4:2:0 that is 16 pixels on each of two rows, and each sample's
// chroma part of R'G'B' is worked out once for its four pixels.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2FMA __attribute__((target("avx2,fma")))

// One row of 4 coefficients: out = ((offset + c0·a) + c1·b) + c2·c, the order the Swift
// fallback keeps (PlaneColorChain.row) so that every CPU writes the same bytes.
AVX2FMA static inline __m256 row3(const float *c, __m256 a, __m256 b, __m256 d) {
    __m256 v = _mm256_fmadd_ps(_mm256_broadcast_ss(c), a, _mm256_broadcast_ss(c + 3));
    v = _mm256_fmadd_ps(_mm256_broadcast_ss(c + 1), b, v);
    return _mm256_fmadd_ps(_mm256_broadcast_ss(c + 2), d, v);
}

AVX2FMA static inline __m256 clamp255(__m256 v) {
    return _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(255.0f));
}

// 8 pixels from Y' and their samples' chroma terms of R', G', B' (`decodeTerms`): Y' out
// (unrounded) and the pixels' R', G', B' after the maps (their sums make Cb and Cr).
AVX2FMA static inline void pixels8(__m256 y, const __m256 *terms, const float *decode, const float *maps, intptr_t mapCount,
                                    const float *encode, __m256 *yOut, __m256 *rgb) {
    __m256 r = clamp255(_mm256_fmadd_ps(_mm256_broadcast_ss(decode), y, terms[0]));
    __m256 g = clamp255(_mm256_fmadd_ps(_mm256_broadcast_ss(decode + 4), y, terms[1]));
    __m256 b = clamp255(_mm256_fmadd_ps(_mm256_broadcast_ss(decode + 8), y, terms[2]));
    for (intptr_t k = 0; k < mapCount; k++) {
        const float *m = maps + 12 * k;
        __m256 r2 = clamp255(row3(m, r, g, b)), g2 = clamp255(row3(m + 4, r, g, b)), b2 = clamp255(row3(m + 8, r, g, b));
        r = r2; g = g2; b = b2;
    }
    *yOut = row3(encode, r, g, b);
    rgb[0] = r; rgb[1] = g; rgb[2] = b;
}

AVX2FMA static inline __m256 bytes8(const uint8_t *p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)));
}

// Rounds 8 floats to nearest (ties to even, as the Swift fallback) and stores them as bytes.
AVX2FMA static inline void store8(uint8_t *p, __m256 v) {
    __m256i i = _mm256_cvtps_epi32(v);
    __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256(i, 1));
    _mm_storel_epi64((__m128i *)p, _mm_packus_epi16(w, w));
}

// One row of 16 pixels over 8 chroma samples (two pixels each; `low` and `high` the samples'
// terms spread over pixels 0–7 and 8–15): Y' stored, each sample's pair sum of R', G', B'
// returned in sample order.
AVX2FMA static inline void pairRow(const uint8_t *yIn, uint8_t *yOut, const __m256 *low, const __m256 *high, const float *decode,
                                   const float *maps, intptr_t mapCount, const float *encode, __m256 *sums) {
    const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    __m256 y0, y1, a[3], b[3];
    pixels8(bytes8(yIn), low, decode, maps, mapCount, encode, &y0, a);
    pixels8(bytes8(yIn + 8), high, decode, maps, mapCount, encode, &y1, b);
    store8(yOut, y0);
    store8(yOut + 8, y1);
    // hadd gives samples 0, 1, 4, 5 | 2, 3, 6, 7
    for (int c = 0; c < 3; c++) sums[c] = _mm256_permutevar8x32_ps(_mm256_hadd_ps(a[c], b[c]), order);
}

AVX2FMA intptr_t mg_plane_color_chain_avx2(const uint8_t *y0In, const uint8_t *y1In, uint8_t *y0Out, uint8_t *y1Out,
                                           const uint8_t *cbIn, const uint8_t *crIn, uint8_t *cbOut, uint8_t *crOut,
                                           intptr_t samples, bool pairs, const float *decode, const float *maps,
                                           intptr_t mapCount, const float *encode, float scale) {
    const __m256 scaleV = _mm256_set1_ps(scale);
    const __m256 cbOffset = _mm256_broadcast_ss(encode + 7), crOffset = _mm256_broadcast_ss(encode + 11);
    // Cb and Cr from the summed R', G', B': their offset is added after the mean.
    const float chromaEncode[8] = {encode[4], encode[5], encode[6], 0, encode[8], encode[9], encode[10], 0};
    const __m256i lowLanes = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3), highLanes = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
    intptr_t x = 0;
    for (; x + 8 <= samples; x += 8) {
        __m256 cb = bytes8(cbIn + x), cr = bytes8(crIn + x);
        // each sample's chroma part of R', G', B': (offset + c_Cb·Cb) + c_Cr·Cr, shared by its pixels
        __m256 terms[3], total[3];
        for (int c = 0; c < 3; c++) {
            const float *d = decode + 4 * c;
            terms[c] = _mm256_fmadd_ps(_mm256_broadcast_ss(d + 2), cr, _mm256_fmadd_ps(_mm256_broadcast_ss(d + 1), cb, _mm256_broadcast_ss(d + 3)));
        }
        if (pairs) {
            __m256 low[3], high[3];
            for (int c = 0; c < 3; c++) {
                low[c] = _mm256_permutevar8x32_ps(terms[c], lowLanes);
                high[c] = _mm256_permutevar8x32_ps(terms[c], highLanes);
            }
            pairRow(y0In + 2 * x, y0Out + 2 * x, low, high, decode, maps, mapCount, encode, total);
            if (y1In) {
                __m256 more[3];
                pairRow(y1In + 2 * x, y1Out + 2 * x, low, high, decode, maps, mapCount, encode, more);
                for (int c = 0; c < 3; c++) total[c] = _mm256_add_ps(total[c], more[c]);
            }
        } else {
            __m256 y;
            pixels8(bytes8(y0In + x), terms, decode, maps, mapCount, encode, &y, total);
            store8(y0Out + x, y);
        }
        __m256 cbSum = _mm256_fmadd_ps(_mm256_broadcast_ss(chromaEncode), total[0], _mm256_setzero_ps());
        cbSum = _mm256_fmadd_ps(_mm256_broadcast_ss(chromaEncode + 1), total[1], cbSum);
        cbSum = _mm256_fmadd_ps(_mm256_broadcast_ss(chromaEncode + 2), total[2], cbSum);
        __m256 crSum = _mm256_fmadd_ps(_mm256_broadcast_ss(chromaEncode + 4), total[0], _mm256_setzero_ps());
        crSum = _mm256_fmadd_ps(_mm256_broadcast_ss(chromaEncode + 5), total[1], crSum);
        crSum = _mm256_fmadd_ps(_mm256_broadcast_ss(chromaEncode + 6), total[2], crSum);
        store8(cbOut + x, _mm256_fmadd_ps(cbSum, scaleV, cbOffset));
        store8(crOut + x, _mm256_fmadd_ps(crSum, scaleV, crOffset));
    }
    return x;
}

#else
intptr_t mg_plane_color_chain_avx2(const uint8_t *y0In, const uint8_t *y1In, uint8_t *y0Out, uint8_t *y1Out,
                                   const uint8_t *cbIn, const uint8_t *crIn, uint8_t *cbOut, uint8_t *crOut,
                                   intptr_t samples, bool pairs, const float *decode, const float *maps,
                                   intptr_t mapCount, const float *encode, float scale) {
    (void)y0In; (void)y1In; (void)y0Out; (void)y1Out; (void)cbIn; (void)crIn; (void)cbOut; (void)crOut; (void)samples;
    (void)pairs; (void)decode; (void)maps; (void)mapCount; (void)encode; (void)scale;
    return 0;
}
#endif
