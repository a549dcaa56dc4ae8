// Cb and Cr of 8-bit Y'CbCr through a 2x2 map about 128 (PlaneChroma holds the arithmetic and
// states its error): 16 sample pairs a step. Each pair becomes two Int16 (Cb − 128, Cr − 128)
// side by side, so one vpmaddwd gives a whole output sample, Cb·m0 + Cr·m1, in 32 bits; a table
// of 65536 pairs costs a load a pair and runs about five times slower. An SSE2 form of the same
// loop serves x86-64 CPUs without AVX2.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

AVX2 intptr_t mg_plane_chroma_row_avx2(const uint8_t *cbIn, const uint8_t *crIn, uint8_t *cbOut, uint8_t *crOut, intptr_t n,
                                       const int16_t *m, const int32_t *addends, uint8_t low, uint8_t high) {
    const __m256i toCb = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)m[1] << 16) | (uint16_t)m[0]));
    const __m256i toCr = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)m[3] << 16) | (uint16_t)m[2]));
    const __m256i aCb = _mm256_set1_epi32(addends[0]), aCr = _mm256_set1_epi32(addends[1]);
    const __m256i centre = _mm256_set1_epi16(128);
    const __m256i lo = _mm256_set1_epi8((char)low), hi = _mm256_set1_epi8((char)high);
    intptr_t x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i cb = _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(cbIn + x))), centre);
        __m256i cr = _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(crIn + x))), centre);
        // pairs 0–3 and 8–11, then 4–7 and 12–15 (unpacks work within 128-bit lanes)
        __m256i p0 = _mm256_unpacklo_epi16(cb, cr), p1 = _mm256_unpackhi_epi16(cb, cr);
        __m256i b0 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(p0, toCb), aCb), 14);
        __m256i b1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(p1, toCb), aCb), 14);
        __m256i r0 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(p0, toCr), aCr), 14);
        __m256i r1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(p1, toCr), aCr), 14);
        // packing within lanes puts 0–3, 4–7 | 8–11, 12–15 back in order; +128 then bytes (clamped)
        __m256i cbWords = _mm256_adds_epi16(_mm256_packs_epi32(b0, b1), centre);
        __m256i crWords = _mm256_adds_epi16(_mm256_packs_epi32(r0, r1), centre);
        // Cb 0–7, Cr 0–7 | Cb 8–15, Cr 8–15 → Cb 0–15 | Cr 0–15
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(cbWords, crWords), 0xD8);
        bytes = _mm256_min_epu8(_mm256_max_epu8(bytes, lo), hi);
        _mm_storeu_si128((__m128i *)(cbOut + x), _mm256_castsi256_si128(bytes));
        _mm_storeu_si128((__m128i *)(crOut + x), _mm256_extracti128_si256(bytes, 1));
    }
    return x;
}

// The same arithmetic 8 pairs a step in SSE2 (every x86-64 CPU), for CPUs without AVX2.
intptr_t mg_plane_chroma_row_sse2(const uint8_t *cbIn, const uint8_t *crIn, uint8_t *cbOut, uint8_t *crOut, intptr_t n,
                                  const int16_t *m, const int32_t *addends, uint8_t low, uint8_t high) {
    const __m128i toCb = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)m[1] << 16) | (uint16_t)m[0]));
    const __m128i toCr = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)m[3] << 16) | (uint16_t)m[2]));
    const __m128i aCb = _mm_set1_epi32(addends[0]), aCr = _mm_set1_epi32(addends[1]);
    const __m128i centre = _mm_set1_epi16(128), zero = _mm_setzero_si128();
    const __m128i lo = _mm_set1_epi8((char)low), hi = _mm_set1_epi8((char)high);
    intptr_t x = 0;
    for (; x + 8 <= n; x += 8) {
        __m128i cb = _mm_sub_epi16(_mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(cbIn + x)), zero), centre);
        __m128i cr = _mm_sub_epi16(_mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(crIn + x)), zero), centre);
        __m128i p0 = _mm_unpacklo_epi16(cb, cr), p1 = _mm_unpackhi_epi16(cb, cr);
        __m128i b0 = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(p0, toCb), aCb), 14);
        __m128i b1 = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(p1, toCb), aCb), 14);
        __m128i r0 = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(p0, toCr), aCr), 14);
        __m128i r1 = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(p1, toCr), aCr), 14);
        __m128i cbWords = _mm_adds_epi16(_mm_packs_epi32(b0, b1), centre);
        __m128i crWords = _mm_adds_epi16(_mm_packs_epi32(r0, r1), centre);
        // Cb 0–7 | Cr 0–7
        __m128i bytes = _mm_min_epu8(_mm_max_epu8(_mm_packus_epi16(cbWords, crWords), lo), hi);
        _mm_storel_epi64((__m128i *)(cbOut + x), bytes);
        _mm_storel_epi64((__m128i *)(crOut + x), _mm_unpackhi_epi64(bytes, bytes));
    }
    return x;
}

#else
intptr_t mg_plane_chroma_row_sse2(const uint8_t *cbIn, const uint8_t *crIn, uint8_t *cbOut, uint8_t *crOut, intptr_t n,
                                  const int16_t *m, const int32_t *addends, uint8_t low, uint8_t high) {
    (void)cbIn; (void)crIn; (void)cbOut; (void)crOut; (void)n; (void)m; (void)addends; (void)low; (void)high;
    return 0;
}

intptr_t mg_plane_chroma_row_avx2(const uint8_t *cbIn, const uint8_t *crIn, uint8_t *cbOut, uint8_t *crOut, intptr_t n,
                                  const int16_t *m, const int32_t *addends, uint8_t low, uint8_t high) {
    (void)cbIn; (void)crIn; (void)cbOut; (void)crOut; (void)n; (void)m; (void)addends; (void)low; (void)high;
    return 0;
}
#endif
