// Counting the bytes of a row at or below a threshold (blackdetect's black pixels) for CPUs with
// AVX2: 32 bytes a step, a byte is counted when min(byte, threshold) equals it; the 0/1 bytes are
// summed by vpsadbw into four 64-bit lanes, so nothing wraps however long the row.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2"))) intptr_t mg_count_at_most_row_avx2(const uint8_t *row, intptr_t bytes, uint8_t threshold, intptr_t *count) {
    const __m256i limit = _mm256_set1_epi8((char)threshold), one = _mm256_set1_epi8(1), zero = _mm256_setzero_si256();
    __m256i sums = zero;
    intptr_t n = bytes & ~(intptr_t)31;
    for (intptr_t i = 0; i < n; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(row + i));
        __m256i atMost = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(x, limit), x), one);
        sums = _mm256_add_epi64(sums, _mm256_sad_epu8(atMost, zero));
    }
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    *count = (intptr_t)(_mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1));
    return n;
}

#else
intptr_t mg_count_at_most_row_avx2(const uint8_t *row, intptr_t bytes, uint8_t threshold, intptr_t *count) {
    *count = 0;
    return 0;
}
#endif
