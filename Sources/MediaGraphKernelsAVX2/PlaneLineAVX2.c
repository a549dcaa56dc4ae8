// One plane of 8-bit Y'CbCr through a clamped line (PlaneLineFixed16 holds the arithmetic and
// its exact bytes): 32 samples a step, each widened to an Int16 scaled by 128, one vpmulhrsw for
// the gain, a saturating add, a shift and a clamp. A table look-up costs a load per sample or
// per pair; this is about half an instruction per sample, so the pass runs at memory speed.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

AVX2 intptr_t mg_plane_line_row_avx2(const uint8_t *s, uint8_t *d, intptr_t n, int16_t multiplier, int16_t addend,
                                     int32_t shift, uint8_t low, uint8_t high) {
    const __m256i zero = _mm256_setzero_si256(), m = _mm256_set1_epi16(multiplier), a = _mm256_set1_epi16(addend);
    const __m256i lo = _mm256_set1_epi8((char)low), hi = _mm256_set1_epi8((char)high);
    const __m128i k = _mm_cvtsi32_si128(shift);
    intptr_t x = 0;
    for (; x + 32 <= n; x += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(s + x));
        // Bytes to words ×128 (unpacking above a zero byte gives ×256; one shift halves it so the
        // product's operand stays positive).
        __m256i w0 = _mm256_srli_epi16(_mm256_unpacklo_epi8(zero, v), 1);
        __m256i w1 = _mm256_srli_epi16(_mm256_unpackhi_epi8(zero, v), 1);
        w0 = _mm256_sra_epi16(_mm256_adds_epi16(_mm256_mulhrs_epi16(w0, m), a), k);
        w1 = _mm256_sra_epi16(_mm256_adds_epi16(_mm256_mulhrs_epi16(w1, m), a), k);
        // unpack and pack work within 128-bit lanes alike, so the samples come back in order
        __m256i out = _mm256_min_epu8(_mm256_max_epu8(_mm256_packus_epi16(w0, w1), lo), hi);
        _mm256_storeu_si256((__m256i *)(d + x), out);
    }
    return x;
}

#else
intptr_t mg_plane_line_row_avx2(const uint8_t *s, uint8_t *d, intptr_t n, int16_t multiplier, int16_t addend,
                                int32_t shift, uint8_t low, uint8_t high) {
    (void)s; (void)d; (void)n; (void)multiplier; (void)addend; (void)shift; (void)low; (void)high;
    return 0;
}
#endif
