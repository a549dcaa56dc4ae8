// The sum of absolute differences of two byte rows (scene change scores) for CPUs with AVX2:
// vpsadbw, 32 bytes a step, into four 64-bit lanes.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2"))) intptr_t mg_sad_row_avx2(const uint8_t *a, const uint8_t *b, intptr_t bytes, uint64_t *sum) {
    __m256i sums = _mm256_setzero_si256();
    intptr_t n = bytes & ~(intptr_t)31;
    for (intptr_t i = 0; i < n; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(a + i)), y = _mm256_loadu_si256((const __m256i *)(b + i));
        sums = _mm256_add_epi64(sums, _mm256_sad_epu8(x, y));
    }
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    *sum = (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
    return n;
}

#else
intptr_t mg_sad_row_avx2(const uint8_t *a, const uint8_t *b, intptr_t bytes, uint64_t *sum) {
    *sum = 0;
    return 0;
}
#endif
