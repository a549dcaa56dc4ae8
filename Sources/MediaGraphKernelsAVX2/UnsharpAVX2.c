// ffmpeg's unsharp mask (UnsharpKernel holds the arithmetic and its exact bytes): blurs up to
// 5x5, whose sums fit 16 bits, 16 samples a step in 16-bit lanes; larger ones in 32-bit lanes.
// The mask's product is 32-bit (amount·65536 needs it), packed back with ffmpeg's clip.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

AVX2 intptr_t mg_unsharp_hsum16_avx2(const uint8_t *row, uint16_t *out, intptr_t n, const uint16_t *k, intptr_t taps) {
    intptr_t x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i acc = _mm256_setzero_si256();
        for (intptr_t t = 0; t < taps; t++) {
            __m256i v = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + x + t)));
            acc = _mm256_add_epi16(acc, _mm256_mullo_epi16(v, _mm256_set1_epi16((short)k[t])));
        }
        _mm256_storeu_si256((__m256i *)(out + x), acc);
    }
    return x;
}

AVX2 intptr_t mg_unsharp_mask16_avx2(const uint16_t *const *rows, intptr_t taps, const uint16_t *k, const uint8_t *s,
                                     uint8_t *d, intptr_t n, int32_t amount, int32_t shift) {
    const __m256i half = _mm256_set1_epi16((short)(1 << (shift - 1))), a = _mm256_set1_epi32(amount);
    const __m128i sh = _mm_cvtsi32_si128(shift);
    intptr_t x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i acc = _mm256_setzero_si256();
        for (intptr_t t = 0; t < taps; t++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(rows[t] + x));
            acc = _mm256_add_epi16(acc, _mm256_mullo_epi16(v, _mm256_set1_epi16((short)k[t])));
        }
        __m256i blur = _mm256_srl_epi16(_mm256_add_epi16(acc, half), sh);
        __m256i v = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(s + x)));
        __m256i diff = _mm256_sub_epi16(v, blur);
        __m256i d0 = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(diff));
        __m256i d1 = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(diff, 1));
        __m256i v0 = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(v));
        __m256i v1 = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(v, 1));
        __m256i r0 = _mm256_add_epi32(v0, _mm256_srai_epi32(_mm256_mullo_epi32(d0, a), 16));
        __m256i r1 = _mm256_add_epi32(v1, _mm256_srai_epi32(_mm256_mullo_epi32(d1, a), 16));
        // packs works per 128-bit lane: r0's and r1's halves interleave, the permute puts them back
        __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(r0, r1), 0xD8);
        __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
        _mm_storeu_si128((__m128i *)(d + x), bytes);
    }
    return x;
}

AVX2 intptr_t mg_unsharp_hsum32_avx2(const uint8_t *row, uint32_t *out, intptr_t n, const uint32_t *k, intptr_t taps) {
    intptr_t x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256i acc = _mm256_setzero_si256();
        for (intptr_t t = 0; t < taps; t++) {
            __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(row + x + t)));
            acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(v, _mm256_set1_epi32((int)k[t])));
        }
        _mm256_storeu_si256((__m256i *)(out + x), acc);
    }
    return x;
}

AVX2 intptr_t mg_unsharp_mask32_avx2(const uint32_t *const *rows, intptr_t taps, const uint32_t *k, const uint8_t *s,
                                     uint8_t *d, intptr_t n, int32_t amount, int32_t shift) {
    const __m256i half = _mm256_set1_epi32((int)(1u << (shift - 1))), a = _mm256_set1_epi32(amount);
    const __m128i sh = _mm_cvtsi32_si128(shift);
    intptr_t x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i r[2];
        for (int h = 0; h < 2; h++) {
            __m256i acc = _mm256_setzero_si256();
            for (intptr_t t = 0; t < taps; t++) {
                __m256i v = _mm256_loadu_si256((const __m256i *)(rows[t] + x + 8 * h));
                acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(v, _mm256_set1_epi32((int)k[t])));
            }
            // sums wrap modulo 2^32 as ffmpeg's do; the shift is logical, then read as signed
            __m256i blur = _mm256_srl_epi32(_mm256_add_epi32(acc, half), sh);
            __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(s + x + 8 * h)));
            r[h] = _mm256_add_epi32(v, _mm256_srai_epi32(_mm256_mullo_epi32(_mm256_sub_epi32(v, blur), a), 16));
        }
        __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(r[0], r[1]), 0xD8);
        __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
        _mm_storeu_si128((__m128i *)(d + x), bytes);
    }
    return x;
}

#else

intptr_t mg_unsharp_hsum16_avx2(const uint8_t *row, uint16_t *out, intptr_t n, const uint16_t *k, intptr_t taps) {
    (void)row; (void)out; (void)n; (void)k; (void)taps;
    return 0;
}
intptr_t mg_unsharp_mask16_avx2(const uint16_t *const *rows, intptr_t taps, const uint16_t *k, const uint8_t *s,
                                uint8_t *d, intptr_t n, int32_t amount, int32_t shift) {
    (void)rows; (void)taps; (void)k; (void)s; (void)d; (void)n; (void)amount; (void)shift;
    return 0;
}
intptr_t mg_unsharp_hsum32_avx2(const uint8_t *row, uint32_t *out, intptr_t n, const uint32_t *k, intptr_t taps) {
    (void)row; (void)out; (void)n; (void)k; (void)taps;
    return 0;
}
intptr_t mg_unsharp_mask32_avx2(const uint32_t *const *rows, intptr_t taps, const uint32_t *k, const uint8_t *s,
                                uint8_t *d, intptr_t n, int32_t amount, int32_t shift) {
    (void)rows; (void)taps; (void)k; (void)s; (void)d; (void)n; (void)amount; (void)shift;
    return 0;
}

#endif
