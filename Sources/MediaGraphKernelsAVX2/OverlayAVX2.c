// The overlay's row loops for AVX2 CPUs: ffmpeg's FAST_DIV255 blend on 16-bit lanes, 32 plane
// bytes or 8 packed pixels per step. Same bytes as the portable loops (OverlayRows.swift).
#include "MediaGraphKernelsAVX2.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define INLINE static inline __attribute__((always_inline))

// (x + 128)·257 >> 16 on unsigned 16-bit lanes (x ≤ 255·255, so x + 128 still fits).
INLINE AVX2 __m256i div255u(__m256i x) {
    return _mm256_mulhi_epu16(_mm256_add_epi16(x, _mm256_set1_epi16(128)), _mm256_set1_epi16(257));
}

// 16 plane bytes widened, blended, as 16 signed 16-bit results (before packing).
INLINE AVX2 __m256i plane16(__m128i d8, __m128i s8, __m128i a8, int mode) {
    __m256i d = _mm256_cvtepu8_epi16(d8), s = _mm256_cvtepu8_epi16(s8), a = _mm256_cvtepu8_epi16(a8);
    __m256i na = _mm256_sub_epi16(_mm256_set1_epi16(255), a);
    if (mode == 0) return div255u(_mm256_add_epi16(_mm256_mullo_epi16(d, na), _mm256_mullo_epi16(s, a)));
    if (mode == 1) return _mm256_add_epi16(div255u(_mm256_mullo_epi16(d, na)), s);
    // (d − 128)·(255 − α) is within ±2^15: a signed high multiply gives the floor, as C's >> does
    __m256i t = _mm256_mullo_epi16(_mm256_sub_epi16(d, _mm256_set1_epi16(128)), na);
    t = _mm256_mulhi_epi16(_mm256_add_epi16(t, _mm256_set1_epi16(128)), _mm256_set1_epi16(257));
    return _mm256_add_epi16(t, s);
}

AVX2 intptr_t mg_overlay_plane_row_avx2(uint8_t *d, const uint8_t *s, const uint8_t *a, intptr_t n, int32_t mode) {
    intptr_t x = 0;
    for (; x + 32 <= n; x += 32) {
        __m256i dv = _mm256_loadu_si256((const __m256i *)(d + x));
        __m256i sv = _mm256_loadu_si256((const __m256i *)(s + x));
        __m256i av = _mm256_loadu_si256((const __m256i *)(a + x));
        __m256i lo = plane16(_mm256_castsi256_si128(dv), _mm256_castsi256_si128(sv), _mm256_castsi256_si128(av), mode);
        __m256i hi = plane16(_mm256_extracti128_si256(dv, 1), _mm256_extracti128_si256(sv, 1), _mm256_extracti128_si256(av, 1), mode);
        // saturating pack (0…255: the premultiplied clamps), back to memory order
        __m256i out = _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8);
        _mm256_storeu_si256((__m256i *)(d + x), out);
    }
    return x;
}

// One pixel as ffmpeg's packed path (any main alpha): the scalar fallback inside the row.
INLINE int div255i(int x) { return ((x + 128) * 257) >> 16; }

INLINE void packed_pixel(uint8_t *p, const uint8_t *q, bool premultiplied, bool swapped) {
    int sa = q[3], da = p[3], al = sa;
    if (al != 0 && al != 255 && da != 255) al = ((al << 16) - (al << 9) + al) / (((al + da) << 8) - (al + da) - da * al);
    if (al == 0) return;
    int src[3] = { q[swapped ? 2 : 0], q[1], q[swapped ? 0 : 2] };
    if (al == 255) {
        p[0] = (uint8_t)src[0]; p[1] = (uint8_t)src[1]; p[2] = (uint8_t)src[2]; p[3] = (uint8_t)sa;
        return;
    }
    for (int c = 0; c < 3; c++) {
        int v = premultiplied ? div255i(p[c] * (255 - al)) + src[c] : div255i(p[c] * (255 - al) + src[c] * al);
        p[c] = (uint8_t)(v > 255 ? 255 : v);
    }
    p[3] = (uint8_t)(da + div255i((255 - da) * sa));
}

AVX2 intptr_t mg_overlay_packed_row_avx2(uint8_t *d, const uint8_t *s, intptr_t n, bool premultiplied, bool swapped) {
    const __m256i alphaBytes = _mm256_set1_epi32((int)0xFF000000u);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i swap = _mm256_setr_epi8(2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, 14, 13, 12, 15,
                                          2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, 14, 13, 12, 15);
    intptr_t x = 0;
    for (; x + 8 <= n; x += 8) {
        uint8_t *p = d + 4 * x;
        __m256i dv = _mm256_loadu_si256((const __m256i *)p);
        // an opaque main (the usual case) makes the main-alpha terms vanish: vector path
        if ((unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(dv, alphaBytes), alphaBytes)) != 0xFFFFFFFFu) {
            for (int i = 0; i < 8; i++) packed_pixel(p + 4 * i, s + 4 * (x + i), premultiplied, swapped);
            continue;
        }
        __m256i sv = _mm256_loadu_si256((const __m256i *)(s + 4 * x));
        if (swapped) sv = _mm256_shuffle_epi8(sv, swap);
        __m256i out[2];
        for (int h = 0; h < 2; h++) {
            __m256i d16 = h ? _mm256_unpackhi_epi8(dv, zero) : _mm256_unpacklo_epi8(dv, zero);
            __m256i s16 = h ? _mm256_unpackhi_epi8(sv, zero) : _mm256_unpacklo_epi8(sv, zero);
            __m256i a16 = _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(s16, 0xFF), 0xFF);
            __m256i na = _mm256_sub_epi16(_mm256_set1_epi16(255), a16);
            out[h] = premultiplied ? _mm256_add_epi16(div255u(_mm256_mullo_epi16(d16, na)), s16)
                                   : div255u(_mm256_add_epi16(_mm256_mullo_epi16(d16, na), _mm256_mullo_epi16(s16, a16)));
        }
        __m256i res = _mm256_packus_epi16(out[0], out[1]);
        // the main's alpha stays 255; an overlay alpha of 0 leaves the pixel (premultiplied too)
        __m256i keep = _mm256_or_si256(alphaBytes, _mm256_cmpeq_epi32(_mm256_and_si256(sv, alphaBytes), zero));
        _mm256_storeu_si256((__m256i *)p, _mm256_blendv_epi8(res, dv, keep));
    }
    for (; x < n; x++) packed_pixel(d + 4 * x, s + 4 * x, premultiplied, swapped);
    return n;
}

#else

intptr_t mg_overlay_plane_row_avx2(uint8_t *d, const uint8_t *s, const uint8_t *a, intptr_t n, int32_t mode) { return 0; }
intptr_t mg_overlay_packed_row_avx2(uint8_t *d, const uint8_t *s, intptr_t n, bool premultiplied, bool swapped) { return 0; }

#endif
