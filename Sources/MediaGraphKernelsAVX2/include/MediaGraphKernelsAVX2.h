// Row loops for x86-64 CPUs with AVX2 and FMA, written in C so that only these functions are
// compiled for those CPUs (`__attribute__((target("avx2,fma")))`), with no per-target compiler
// flags: SwiftPM refuses unsafe flags in a package used as a versioned dependency. Callers must
// check the CPU first (MediaGraphKernels' `VectorPath` does, once); on other architectures the
// functions do nothing and report no pixels done.
#ifndef MEDIAGRAPH_KERNELS_AVX2_H
#define MEDIAGRAPH_KERNELS_AVX2_H

#include <stdbool.h>
#include <stdint.h>

/// Four floats, imported by Swift as SIMD4<Float>.
typedef float mg_float4 __attribute__((ext_vector_type(4)));

/// For one channel and one input byte of a 3D LUT: the grid offset of the lower grid point, the
/// offset to the upper one, and the fraction between them.
typedef struct LUT3DAxis {
    int32_t low;
    int32_t step;
    float fraction;
} LUT3DAxis;

/// The colour-matrix row loop: 32 pixels per step (the SSE2 algorithm on 256-bit registers, with
/// fused multiply-adds). `coefficients` holds 16 matrix entries row by row and 4 offsets, in
/// memory channel order and 0…255 units. Returns the number of pixels done (a multiple of 32);
/// the caller does the rest. `s` and `d` may be the same row.
intptr_t mg_color_matrix_row_avx2(const void *s, void *d, intptr_t width, const float *coefficients,
                                  bool keepAlpha, bool readAlpha)
    __attribute__((swift_name("colorMatrixRowAVX2(_:_:width:coefficients:keepAlpha:readAlpha:)")));

/// The colour-chain row loop: `count` colour maps (20 coefficients each, laid out as for
/// `mg_color_matrix_row_avx2`) on each pixel in turn, clamped to 0…255 between maps, rounded once
/// at the end. Returns the number of pixels done (a multiple of 32); the caller does the rest.
/// `shortcut` (or NULL): for two maps whose first can take only its channel `tested` (0…3, memory
/// order) out of 0…255, their composition (20 coefficients): every pixel takes it, less the
/// second map's column `tested` times what the clamp takes off that channel.
intptr_t mg_color_chain_row_avx2(const void *s, void *d, intptr_t width, const float *coefficients, int32_t count,
                                 bool keepAlpha, bool readAlpha, const float *shortcut, int32_t tested)
    __attribute__((swift_name("colorChainRowAVX2(_:_:width:coefficients:count:keepAlpha:readAlpha:shortcut:tested:)")));

/// The colour-chain row loop in fixed point for CPUs with AVX-512 F, BW and VNNI (the caller
/// checks): `count` maps of 16 words each. The first map reads bytes: words 0…3 pack, per output
/// channel, four signed bytes (one per input channel, memory order) of the coefficients' high
/// part, words 4…7 their low part (coefficient = 256·high + low, scaled by 2^S), words 8…11 the
/// offsets divided by 256. Later maps read 16-bit values scaled by 128: words 0…3 pack the
/// coefficients of inputs 0 and 1 as two Int16 (input 0 low), words 4…7 those of inputs 2 and 3,
/// words 8…11 the offsets. Every map but the last clamps its sums to [word 12, word 13] then
/// shifts them right by word 14 (to 7 fraction bits); the last shifts by word 14 to bytes and
/// clamps to 0…255. Rounding terms are in the offsets. With `keepAlpha` the fourth byte is
/// copied and the fourth output channel not computed. Returns the pixels done (a multiple of
/// 16); the caller does the rest. `s` and `d` may be the same row. `shortcut` (or NULL): for two
/// maps, their composition as 16 words laid out as a first map, word 14 its shift to bytes and
/// word 15 a bit per channel of the first map that can leave [word 12, word 13]; 16 pixels none
/// of whose tested channels does so take the composition alone (no clamp would act).
intptr_t mg_color_chain_row_vnni(const void *s, void *d, intptr_t width, const int32_t *words, int32_t count, bool keepAlpha,
                                 const int32_t *shortcut)
    __attribute__((swift_name("colorChainRowVNNI(_:_:width:words:count:keepAlpha:shortcut:)")));

/// The colour-chain row loop in 16-bit fixed point for AVX2 CPUs: `count` maps (at least 2) of
/// colour only (alpha copied), each 16 vectors of 16 equal Int16 (256 values): vectors 0…8 the
/// coefficients (output channel c, input k at 3c + k, memory order), 9…11 the offsets, 12 the clamp
/// between maps (255 with the map's fraction bits F), 13 F (the last map's shift to bytes), 14
/// 7 − F (a clamped sum's shift up to the next map's inputs, 0…255 scaled by 128). The first map
/// reads (x − 128)·256. Products are vpmulhrsw's; rounding terms are in the offsets. Returns the
/// pixels done (a multiple of 16); the caller does the rest. `s` and `d` may be the same row.
intptr_t mg_color_chain_row_fixed16(const void *s, void *d, intptr_t width, const int16_t *maps, int32_t count)
    __attribute__((swift_name("colorChainRowFixed16(_:_:width:maps:count:)")));

/// Two colour-only maps in 16-bit fixed point (AVX2) whose first can take only its channel t out
/// of 0…255, as M2∘M1(x) − L2[·][t]·(y − clamp y), y = M1(x)[t]: 32 vectors of 16 equal Int16.
/// Vectors 0…11 the composition laid out as a first map of `mg_color_chain_row_fixed16`, 12…14
/// y's coefficients and 15 its offset (first-map form), 16…18 the column L2[·][t], 19 the clamp
/// (255 with y's fraction bits), 20 the composition's shift to bytes, 21 the shift of y − clamp y
/// before it multiplies the column. Returns the pixels done (a multiple of 16).
intptr_t mg_color_chain_pair_fixed16(const void *s, void *d, intptr_t width, const int16_t *pair)
    __attribute__((swift_name("colorChainPairFixed16(_:_:width:pair:)")));

/// Colour-only maps in 16-bit fixed point (AVX2) whose first has rank one, as one piecewise-
/// linear function of y per channel (ColorChainRankOne): 22 vectors of 16 equal Int16. Vectors
/// 0…2 y's coefficients (first-map form, reading (x − 128)·256), 3…5 the inner ends of the
/// segments, 6 + 4c + k channel c's multiplier of segment k's clamped y, 18 + c the addend
/// (rounding included), 21 the shift to bytes: out = (Σₖ zₖ·Sₖ + B) >> shift, products
/// vpmulhrsw's. `segments` is 1…4 (else nothing is done). Returns the pixels done (a multiple of
/// 16); `s` and `d` may be the same row.
intptr_t mg_color_chain_rank_one_fixed16(const void *s, void *d, intptr_t width, const int16_t *words, int32_t segments)
    __attribute__((swift_name("colorChainRankOneFixed16(_:_:width:words:segments:)")));

/// One plane row through a clamped line in 16-bit fixed point (PlaneLineFixed16): per sample
/// clamp(clamp((round(v·128·multiplier / 2^15) + addend, saturated) >> shift, 0, 255), low, high).
/// Returns the samples done (a multiple of 32); the caller does the rest. `s` and `d` may be the
/// same row.
intptr_t mg_plane_line_row_avx2(const uint8_t *s, uint8_t *d, intptr_t n, int16_t multiplier, int16_t addend,
                                int32_t shift, uint8_t low, uint8_t high)
    __attribute__((swift_name("planeLineRowAVX2(_:_:_:multiplier:addend:shift:low:high:)")));

/// One row of Cb and Cr samples through a 2x2 map about 128 (PlaneChroma): per pair
/// out = clamp(128 + ((m0·(Cb − 128) + m1·(Cr − 128) + addends[0]) >> 14), low, high) for Cb, and
/// m2, m3, addends[1] for Cr (the shifted sums saturated to Int16 before the 128 is added).
/// Returns the pairs done (a multiple of 16); the caller does the rest. In and out may be the same rows.
intptr_t mg_plane_chroma_row_avx2(const uint8_t *cbIn, const uint8_t *crIn, uint8_t *cbOut, uint8_t *crOut, intptr_t n,
                                  const int16_t *m, const int32_t *addends, uint8_t low, uint8_t high)
    __attribute__((swift_name("planeChromaRowAVX2(_:_:_:_:_:m:addends:low:high:)")));

/// The same 8 pairs a step in SSE2 (x86-64 CPUs without AVX2); returns a multiple of 8.
intptr_t mg_plane_chroma_row_sse2(const uint8_t *cbIn, const uint8_t *crIn, uint8_t *cbOut, uint8_t *crOut, intptr_t n,
                                  const int16_t *m, const int32_t *addends, uint8_t low, uint8_t high)
    __attribute__((swift_name("planeChromaRowSSE2(_:_:_:_:_:m:addends:low:high:)")));

/// Colour maps on 8-bit planar Y'CbCr (PlaneColorChain holds the arithmetic): 8 chroma samples
/// a step, each with the luma pixels it covers — two on each row when `pairs` (4:2:0 and 4:2:2;
/// `y1In` is the second row of 4:2:0, or NULL), one otherwise (4:4:4). `decode`, each map of
/// `maps` and `encode` are 3 rows of (c0, c1, c2, offset); chroma's offset is added after its sum
/// over the pixels times `scale`. Returns the samples done (a multiple of 8); the caller does the
/// rest. In and out may be the same rows.
intptr_t mg_plane_color_chain_avx2(const uint8_t *y0In, const uint8_t *y1In, uint8_t *y0Out, uint8_t *y1Out,
                                   const uint8_t *cbIn, const uint8_t *crIn, uint8_t *cbOut, uint8_t *crOut,
                                   intptr_t samples, bool pairs, const float *decode, const float *maps,
                                   intptr_t mapCount, const float *encode, float scale)
    __attribute__((swift_name("planeColorChainAVX2(_:_:_:_:_:_:_:_:samples:pairs:decode:maps:mapCount:encode:scale:)")));

/// The LUT3D row loop: the baseline loop's per-pixel interpolation with the blends as fused
/// multiply-adds. `grid` holds the LUT colours ×255 in (r, g, b, 0) lanes; `axes` 3×256 entries
/// (red, green, blue). `bgra` swaps red and blue on the way in and out. Does the whole row.
void mg_lut3d_row_avx2(const void *s, void *d, intptr_t width, const mg_float4 *grid, const LUT3DAxis *axes,
                       bool bgra, bool tetrahedral)
    __attribute__((swift_name("lut3dRowAVX2(_:_:width:grid:axes:bgra:tetrahedral:)")));

/// The overlay's plane row (OverlayKernel): mode 0 straight d = (d(255-a) + s a)/255, 1 premultiplied
/// min(d(255-a)/255 + s, 255), 2 premultiplied chroma around 128; ffmpeg's FAST_DIV255 rounding.
/// Returns the pixels done (a multiple of 32); the caller does the rest.
intptr_t mg_overlay_plane_row_avx2(uint8_t *d, const uint8_t *s, const uint8_t *a, intptr_t n, int32_t mode)
    __attribute__((swift_name("overlayPlaneRowAVX2(_:_:_:_:_:)")));

/// The overlay's packed row (rgba/bgra over the same or swapped order), the whole row.
intptr_t mg_overlay_packed_row_avx2(uint8_t *d, const uint8_t *s, intptr_t n, bool premultiplied, bool swapped)
    __attribute__((swift_name("overlayPackedRowAVX2(_:_:_:_:_:)")));

/// One byte table for CPUs with AVX2 (the caller checks): 32 bytes per step, every byte through
/// the 256-byte `table`, or with `keepFourth` every byte but the fourth of each four, which is
/// copied (alpha). Returns the bytes done (a multiple of 32); the caller does the rest. `s` and
/// `d` may be the same row.
intptr_t mg_byte_table_row_avx2(const void *s, void *d, intptr_t bytes, const uint8_t *table, bool keepFourth)
    __attribute__((swift_name("byteTableRowAVX2(_:_:bytes:table:keepFourth:)")));

/// Three byte tables for CPUs with AVX2 (the caller checks): 32 pixels (128 bytes) per step, the
/// bytes at positions 0, 1, 2 mod 4 through the 256-byte tables at `tables`, `tables + 256` and
/// `tables + 512`, the fourth copied (alpha). Returns the bytes done (a multiple of 128); the
/// caller does the rest. `s` and `d` may be the same row.
intptr_t mg_byte_tables_row_avx2(const void *s, void *d, intptr_t bytes, const uint8_t *tables)
    __attribute__((swift_name("byteTablesRowAVX2(_:_:bytes:tables:)")));

/// Byte tables for CPUs with AVX-512 F, BW and VBMI (the caller checks): 64 bytes per step.
/// `tables` holds four 256-byte tables, for the bytes at positions 0, 1, 2, 3 mod 4 (a packed
/// pixel's channels); with `oneTable` only the first, for every byte (a plane); with
/// `keepFourth` the fourth byte of each four is copied (alpha). Returns the bytes done (a
/// multiple of 64); the caller does the rest. `s` and `d` may be the same row.
intptr_t mg_byte_tables_row_avx512(const void *s, void *d, intptr_t bytes, const uint8_t *tables,
                                   bool oneTable, bool keepFourth)
    __attribute__((swift_name("byteTablesRowAVX512(_:_:bytes:tables:oneTable:keepFourth:)")));

/// unsharp's horizontal binomial sums for blurs up to 5x5 (16-bit sums): out[x] = Σ k[t]·row[x+t]
/// for t < taps, 16 at a time. Returns the count done (a multiple of 16); the caller does the rest.
intptr_t mg_unsharp_hsum16_avx2(const uint8_t *row, uint16_t *out, intptr_t n, const uint16_t *k, intptr_t taps)
    __attribute__((swift_name("unsharpHorizontalSumsAVX2(_:_:_:_:_:)")));

/// unsharp's vertical sums of `taps` rows of horizontal sums and the mask on one row:
/// d[x] = clip(s[x] + ((s[x] − ((Σ k[t]·rows[t][x] + half) >> shift))·amount >> 16)). Returns the
/// count done (a multiple of 16). `s` and `d` may be the same row.
intptr_t mg_unsharp_mask16_avx2(const uint16_t *const *rows, intptr_t taps, const uint16_t *k, const uint8_t *s,
                                uint8_t *d, intptr_t n, int32_t amount, int32_t shift)
    __attribute__((swift_name("unsharpMaskRowAVX2(_:_:_:_:_:_:_:_:)")));

/// The same two loops with 32-bit sums (blurs larger than 5x5), 8 and 16 samples a step.
intptr_t mg_unsharp_hsum32_avx2(const uint8_t *row, uint32_t *out, intptr_t n, const uint32_t *k, intptr_t taps)
    __attribute__((swift_name("unsharpHorizontalSums32AVX2(_:_:_:_:_:)")));
intptr_t mg_unsharp_mask32_avx2(const uint32_t *const *rows, intptr_t taps, const uint32_t *k, const uint8_t *s,
                                uint8_t *d, intptr_t n, int32_t amount, int32_t shift)
    __attribute__((swift_name("unsharpMaskRow32AVX2(_:_:_:_:_:_:_:_:)")));

/// The bytes of `row` at most `threshold`, for CPUs with AVX2 (the caller checks): 32 bytes per
/// step; `*count` gets the count among the bytes done. Returns the bytes done (a multiple of 32);
/// the caller counts the rest.
intptr_t mg_count_at_most_row_avx2(const uint8_t *row, intptr_t bytes, uint8_t threshold, intptr_t *count)
    __attribute__((swift_name("countAtMostRowAVX2(_:bytes:threshold:count:)")));

/// The sum of |a[i] - b[i]| over two byte rows, for CPUs with AVX2 (the caller checks): 32 bytes
/// per step; `*sum` gets the sum over the bytes done. Returns the bytes done (a multiple of 32);
/// the caller sums the rest.
intptr_t mg_sad_row_avx2(const uint8_t *a, const uint8_t *b, intptr_t bytes, uint64_t *sum)
    __attribute__((swift_name("sadRowAVX2(_:_:bytes:sum:)")));

#endif
