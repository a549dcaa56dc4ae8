// Byte-table look-ups for CPUs with AVX-512 VBMI: 64 bytes per step, each through a 256-entry
// table held in four registers. vpermi2b looks a byte up among 128 table bytes (its low 7 bits);
// two of them cover the table's halves and the byte's top bit picks one.
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))
#define INLINE static inline __attribute__((always_inline))

typedef struct { __m512i q0, q1, q2, q3; } Table;

INLINE AVX512 Table loadTable(const uint8_t *t) {
    Table r = { _mm512_loadu_si512(t), _mm512_loadu_si512(t + 64), _mm512_loadu_si512(t + 128), _mm512_loadu_si512(t + 192) };
    return r;
}

/// The bytes of `x` at the lanes of `k` looked up in `t`; other lanes 0.
INLINE AVX512 __m512i lookUp(Table t, __m512i x, __mmask64 k) {
    __mmask64 top = _mm512_movepi8_mask(x);
    __m512i low = _mm512_maskz_permutex2var_epi8(k & ~top, t.q0, x, t.q1);
    __m512i high = _mm512_maskz_permutex2var_epi8(k & top, t.q2, x, t.q3);
    return _mm512_or_si512(low, high);
}

AVX512 intptr_t mg_byte_tables_row_avx512(const void *s, void *d, intptr_t bytes, const uint8_t *tables,
                                          bool oneTable, bool keepFourth) {
    const uint8_t *src = s;
    uint8_t *dst = d;
    intptr_t n = bytes & ~(intptr_t)63;
    if (oneTable) {
        Table t = loadTable(tables);
        for (intptr_t i = 0; i < n; i += 64) {
            __m512i x = _mm512_loadu_si512(src + i);
            _mm512_storeu_si512(dst + i, lookUp(t, x, ~(__mmask64)0));
        }
        return n;
    }
    Table t0 = loadTable(tables), t1 = loadTable(tables + 256), t2 = loadTable(tables + 512);
    Table t3 = keepFourth ? t2 : loadTable(tables + 768);
    const __mmask64 k0 = 0x1111111111111111ull, k1 = k0 << 1, k2 = k0 << 2, k3 = k0 << 3;
    for (intptr_t i = 0; i < n; i += 64) {
        __m512i x = _mm512_loadu_si512(src + i);
        __m512i fourth = keepFourth ? _mm512_maskz_mov_epi8(k3, x) : lookUp(t3, x, k3);
        __m512i r = _mm512_ternarylogic_epi32(lookUp(t0, x, k0), lookUp(t1, x, k1), lookUp(t2, x, k2), 0xFE);
        _mm512_storeu_si512(dst + i, _mm512_or_si512(r, fourth));
    }
    return n;
}

#else
intptr_t mg_byte_tables_row_avx512(const void *s, void *d, intptr_t bytes, const uint8_t *tables,
                                   bool oneTable, bool keepFourth) {
    (void)s; (void)d; (void)bytes; (void)tables; (void)oneTable; (void)keepFourth;
    return 0;
}
#endif
