// The tile loop's one source, included by TileLoopBaseline.c and TileLoopAVX2.c, which define
// MG_TARGET (the function attribute of their build) and MG_BAND (the entry point's name).
//
// Every value is 64 floats per register, processed 8 lanes at a time in clang vector types:
// SSE2 runs each 8-lane operation as two instructions, AVX2 as one. Both builds run the same
// operations in the same order (no fused multiply-adds: FP_CONTRACT is off), so give the same
// bits; a test checks it.
#include "CMediaGraphShaderTiles.h"
#include <math.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF
// The 8-lane helpers pass vectors by value, but all are inlined: no calls, so no ABI to differ.
#pragma clang diagnostic ignored "-Wpsabi"

typedef float v8 __attribute__((ext_vector_type(8)));
typedef int32_t v8i __attribute__((ext_vector_type(8)));
typedef uint32_t v8u __attribute__((ext_vector_type(8)));

#define F static inline __attribute__((always_inline)) MG_TARGET
#define CHUNKS (MG_SHADER_LANES / 8)
#define REGISTER_BYTES (MG_SHADER_LANES * 4)

/// One axis of a bilinear sample for 8 lanes: the two texel indices (x as byte offsets) and
/// their weights (y's scaled by 1/255).
typedef struct { v8i i0, i1; v8 w0, w1; } AxisChunk;
/// One axis for a whole tile, and per chunk the first texel when the lanes read a run of
/// neighbours (-1 otherwise).
typedef struct { AxisChunk chunk[CHUNKS]; int32_t run[CHUNKS]; } AxisPart;

typedef struct {
    uint8_t *registers;
    const MGShaderInput *inputs;
    /// The tile's axis cache: MG_AXIS_SLOTS horizontal parts, then as many vertical ones.
    AxisPart *axes;
    /// The destination's size (textureCoordinate, texelWidth, imageSize).
    intptr_t width, height;
    float widthF, heightF;
} Exec;

F uint8_t *reg(const Exec *e, int32_t r) { return e->registers + (intptr_t)r * REGISTER_BYTES; }
/// A result register of `texture` / `loadPixel`, or NULL for a channel nobody reads (-1): not computed.
F uint8_t *result(const Exec *e, int32_t r) { return r >= 0 ? reg(e, r) : NULL; }
F v8 ld(const uint8_t *p, int k) { v8 v; memcpy(&v, p + k * 32, 32); return v; }
F void st(uint8_t *p, int k, v8 v) { memcpy(p + k * 32, &v, 32); }
F float lane(const uint8_t *p, int l) { float v; memcpy(&v, p + l * 4, 4); return v; }
F void setLane(uint8_t *p, int l, float v) { memcpy(p + l * 4, &v, 4); }

/// m ? a : b, lane by lane (m lanes are all ones or zero, as comparisons give).
F v8 sel(v8i m, v8 a, v8 b) { return (v8)((m & (v8i)a) | (~m & (v8i)b)); }
F v8 boolean(v8i m) { return sel(m, (v8)1.0f, (v8)0.0f); }
F int allLanes(v8i m) { return __builtin_reduce_and(m) == -1; }

/// Whole numbers below 2^23 to float with one OR and one subtraction (2^23's exponent makes the
/// mantissa the integer).
F v8 wholeToFloat(v8u v) { return (v8)(v | 0x4B000000u) - 8388608.0f; }

/// floor without SSE4.1's round instruction: round to nearest with 1.5 * 2^23, then step down
/// where that rounded up. Lanes of 2^22 or more (or NaN) take libm lane by lane.
F v8 vfloor(v8 x) {
    const float magic = 12582912.0f;
    if (!allLanes((x < 4194304.0f) & (x > -4194304.0f))) {
        v8 r;
        for (int l = 0; l < 8; l++) r[l] = floorf(x[l]);
        return r;
    }
    v8 t = (x + magic) - magic;
    return sel(t > x, t - 1.0f, t);
}

/// sin and cos on 8 lanes: Cody-Waite reduction by pi/2 and the classic single-precision minimax
/// polynomials (Cephes' sinf/cosf coefficients), about 1 ulp on |x| < 8192.
F void sinCos(v8 x, v8 *sinOut, v8 *cosOut) {
    const float magic = 12582912.0f;
    v8 jf = (x * 0.636619772367581343f + magic) - magic;
    // pi/2 split in three so r = x - j * pi/2 loses no bits for |j| < 2^12.
    v8 r = x - jf * 1.5703125f;
    r = r - jf * 4.837512969970703125e-4f;
    r = r - jf * 7.549789948768648e-8f;
    v8 r2 = r * r;
    v8 s = (v8)-1.9515295891e-4f;
    s = s * r2 + 8.3321608736e-3f;
    s = s * r2 - 1.6666654611e-1f;
    s = s * r2 * r + r;
    v8 c = (v8)2.443315711809948e-5f;
    c = c * r2 - 1.388731625493765e-3f;
    c = c * r2 + 4.166664568298827e-2f;
    c = c * r2 * r2 - 0.5f * r2 + 1.0f;
    // Quadrant: 0 (s, c), 1 (c, -s), 2 (-s, -c), 3 (-c, s).
    v8 q = jf - 4.0f * vfloor(jf * 0.25f);
    v8i swap = (q == 1.0f) | (q == 3.0f);
    v8 sinV = sel(swap, c, s), cosV = sel(swap, s, c);
    *sinOut = sel(q >= 2.0f, -sinV, sinV);
    *cosOut = sel((q == 1.0f) | (q == 2.0f), -cosV, cosV);
}

#include "TileLoopMath.h"

F void splat(const Exec *e, const MGShaderInstruction *i, float value) {
    uint8_t *d = reg(e, i->dst);
    for (int k = 0; k < CHUNKS; k++) st(d, k, (v8)value);
}

// One operand / two operands, 8 lanes at a time; `EXPR` uses a (and b).
#define MAP1(EXPR) do { uint8_t *d_ = reg(e, i->dst), *a_ = reg(e, i->a); \
    for (int k = 0; k < CHUNKS; k++) { v8 a = ld(a_, k); st(d_, k, (EXPR)); } } while (0)
#define MAP2(EXPR) do { uint8_t *d_ = reg(e, i->dst), *a_ = reg(e, i->a), *b_ = reg(e, i->b); \
    for (int k = 0; k < CHUNKS; k++) { v8 a = ld(a_, k), b = ld(b_, k); st(d_, k, (EXPR)); } } while (0)
// Lane by lane, for the operations without a vector form (libm).
#define LANES1(FN) do { uint8_t *d_ = reg(e, i->dst), *a_ = reg(e, i->a); \
    for (int l = 0; l < MG_SHADER_LANES; l++) setLane(d_, l, FN(lane(a_, l))); } while (0)
// A vector form where DOMAIN holds in every lane of a chunk, else FN lane by lane.
#define CHUNKED1(DOMAIN, EXPR, FN) do { uint8_t *d_ = reg(e, i->dst), *a_ = reg(e, i->a); \
    for (int k = 0; k < CHUNKS; k++) { v8 a = ld(a_, k); \
        if (allLanes(DOMAIN)) { st(d_, k, (EXPR)); } else { for (int l = 0; l < 8; l++) a[l] = FN(a[l]); st(d_, k, a); } } } while (0)
#define CHUNKED2(DOMAIN, EXPR, FN) do { uint8_t *d_ = reg(e, i->dst), *a_ = reg(e, i->a), *b_ = reg(e, i->b); \
    for (int k = 0; k < CHUNKS; k++) { v8 a = ld(a_, k), b = ld(b_, k); \
        if (allLanes(DOMAIN)) { st(d_, k, (EXPR)); } else { for (int l = 0; l < 8; l++) a[l] = FN(a[l], b[l]); st(d_, k, a); } } } while (0)
#define LANES2(FN) do { uint8_t *d_ = reg(e, i->dst), *a_ = reg(e, i->a), *b_ = reg(e, i->b); \
    for (int l = 0; l < MG_SHADER_LANES; l++) setLane(d_, l, FN(lane(a_, l), lane(b_, l))); } while (0)

F void bilinear(const MGShaderInput *in, const uint8_t *u, const uint8_t *v, uint8_t *r, uint8_t *g, uint8_t *b, uint8_t *a);

/// An input of another size than the destination at the texel centres of the tile
/// (x + dx, y + dy): a bilinear sample at those normalised coordinates, as texture2D there does.
F void loadResampled(const Exec *e, const MGShaderInstruction *i, const MGShaderInput *in, intptr_t x0, intptr_t y) {
    uint8_t u[REGISTER_BYTES], v[REGISTER_BYTES];
    const v8 ramp = {0, 1, 2, 3, 4, 5, 6, 7};
    float base = ((float)x0 + i->imm) + 0.5f;
    v8 row = (v8)((((float)y + (float)i->imm2) + 0.5f) / e->heightF);
    for (int k = 0; k < CHUNKS; k++) {
        st(u, k, (ramp + (v8)(base + (float)(k * 8))) / e->widthF);
        st(v, k, row);
    }
    bilinear(in, u, v, result(e, i->dst), result(e, i->dst1), result(e, i->dst2), result(e, i->dst3));
}

/// The texel at (x + dx, y + dy), clamped to the frame, as 0...1.
F void loadTexels(const Exec *e, const MGShaderInstruction *i, intptr_t x0, intptr_t y) {
    const MGShaderInput *in = &e->inputs[i->input];
    if (in->width != e->width || in->height != e->height) {
        loadResampled(e, i, in, x0, y);
        return;
    }
    intptr_t ry = y + i->imm2;
    if (ry < 0) ry = 0;
    if (ry > e->height - 1) ry = e->height - 1;
    const uint8_t *row = in->data + ry * in->stride;
    intptr_t dx = (intptr_t)i->imm;
    uint8_t *r = result(e, i->dst), *g = result(e, i->dst1), *b = result(e, i->dst2), *a = result(e, i->dst3);
    intptr_t first = x0 + dx;
    if (first >= 0 && first + MG_SHADER_LANES <= e->width) {
        // Whole tile inside the row: 8 pixels at a time, channels split with shifts. Division,
        // not a reciprocal multiply: byte / 255 correctly rounded, as GPUs convert.
        const uint8_t *base = row + first * 4;
        for (int k = 0; k < CHUNKS; k++) {
            v8u p;
            memcpy(&p, base + k * 32, 32);
            if (r) st(r, k, wholeToFloat(p & 0xFFu) / 255.0f);
            if (g) st(g, k, wholeToFloat((p >> 8) & 0xFFu) / 255.0f);
            if (b) st(b, k, wholeToFloat((p >> 16) & 0xFFu) / 255.0f);
            if (a) st(a, k, wholeToFloat(p >> 24) / 255.0f);
        }
        return;
    }
    intptr_t last = e->width - 1;
    for (int l = 0; l < MG_SHADER_LANES; l++) {
        intptr_t x = x0 + l + dx;
        if (x < 0) x = 0;
        if (x > last) x = last;
        const uint8_t *p = row + x * 4;
        if (r) setLane(r, l, (float)p[0] / 255.0f);
        if (g) setLane(g, l, (float)p[1] / 255.0f);
        if (b) setLane(b, l, (float)p[2] / 255.0f);
        if (a) setLane(a, l, (float)p[3] / 255.0f);
    }
}

F v8i imin(v8i a, v8i b) { return a < b ? a : b; }
F v8i imax(v8i a, v8i b) { return a > b ? a : b; }
F uint32_t texelAt(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
F v8 channelOf(v8u t, int shift) { return __builtin_convertvector((v8i)((t >> shift) & 0xFFu), v8); }

/// One axis of a bilinear sample for the 8 lanes of a chunk, as the sample uses it; returns the
/// texel index of the second tap before clamping (+1: index 1 is the texel at 0).
F v8i axisOf(const uint8_t *coordinate, int k, float size, int32_t last, int scale, float weightScale, AxisChunk *out) {
    // Shifted by +1 so the value is >= 0 and truncation is floor; far outside (or NaN) is
    // pinned to just outside the edge, which clamps to it.
    const float maxF = size + 1;
    const v8i lastV = (v8i)last;
    v8 f = ld(coordinate, k) * size + 0.5f;
    f = sel(f > 0.0f, f, (v8)0.0f);
    f = sel(f < maxF, f, (v8)maxF);
    v8i i1 = __builtin_convertvector(f, v8i);
    v8 frac = f - __builtin_convertvector(i1, v8);
    out->i0 = imin(imax(i1 - 1, (v8i)0), lastV) * scale;
    out->i1 = imin(i1, lastV) * scale;
    out->w0 = (1.0f - frac) * weightScale;
    out->w1 = frac * weightScale;
    return i1;
}

/// The horizontal part of a bilinear sample at u (byte offsets of the texel columns, weights).
/// `run`: the first column when the eight lanes read eight neighbouring texel pairs, none
/// clamped (a fixed offset, as in GPUImage's Kuwahara or a blur), else -1.
F void axisX(const MGShaderInput *in, const uint8_t *u, AxisPart *part) {
    const int32_t last = (int32_t)(in->width - 1);
    for (int k = 0; k < CHUNKS; k++) {
        AxisChunk c;
        v8i i1 = axisOf(u, k, (float)in->width, last, 4, 1.0f, &c);
        int32_t first = i1[0];
        v8i colRun = i1 - (first + (v8i){0, 1, 2, 3, 4, 5, 6, 7});
        part->run[k] = first >= 1 && first + 7 <= last && allLanes(colRun == 0) ? first - 1 : -1;
        part->chunk[k] = c;
    }
}

/// The vertical part (texel rows, weights scaled by 1/255). `run`: the top row when all eight
/// lanes read the same two rows, neither clamped, else -1.
F void axisY(const MGShaderInput *in, const uint8_t *v, AxisPart *part) {
    const int32_t last = (int32_t)(in->height - 1);
    for (int k = 0; k < CHUNKS; k++) {
        AxisChunk c;
        v8i i1 = axisOf(v, k, (float)in->height, last, 1, 1.0f / 255.0f, &c);
        int32_t first = i1[0];
        part->run[k] = first >= 1 && first <= last && allLanes(i1 == first) ? first - 1 : -1;
        part->chunk[k] = c;
    }
}

/// Bilinear sample with clamp-to-edge, as a GPU samples a GL_LINEAR, GL_CLAMP_TO_EDGE texture,
/// from its two axes: eight lanes per step in planar form. Row offsets are computed per lane in
/// intptr_t, so planes over 2 GiB sample right.
F void blendTexels(const MGShaderInput *in, const AxisPart *xs, const AxisPart *ys, uint8_t *r, uint8_t *g, uint8_t *b, uint8_t *a) {
    const intptr_t stride = in->stride;
    const uint8_t *source = in->data;
    for (int k = 0; k < CHUNKS; k++) {
        const AxisChunk *x = &xs->chunk[k], *y = &ys->chunk[k];
        v8 w00 = x->w0 * y->w0, w01 = x->w1 * y->w0, w10 = x->w0 * y->w1, w11 = x->w1 * y->w1;
        v8u t00, t01, t10, t11;
        if (xs->run[k] >= 0 && ys->run[k] >= 0) {
            // Eight neighbouring texel pairs of the same two rows: two unaligned vector loads
            // per row instead of 32 scalar loads; the weights are the lanes' own, so the result
            // is the same bits as the gather below.
            const uint8_t *p0 = source + (intptr_t)ys->run[k] * stride + (intptr_t)xs->run[k] * 4;
            const uint8_t *p1 = p0 + stride;
            memcpy(&t00, p0, 32);
            memcpy(&t01, p0 + 4, 32);
            memcpy(&t10, p1, 32);
            memcpy(&t11, p1 + 4, 32);
        } else {
        // Indices through memory (a vector store followed by scalar loads forwards well), texels
        // into vectors lane by lane as vector literals (inserts in registers: filling a vector in
        // memory lane by lane and loading it whole stalls on store forwarding).
        int32_t xs0[8], xs1[8], ys0[8], ys1[8];
        memcpy(xs0, &x->i0, 32);
        memcpy(xs1, &x->i1, 32);
        memcpy(ys0, &y->i0, 32);
        memcpy(ys1, &y->i1, 32);
#define TEXEL(YS, XS, L) texelAt(source + (intptr_t)YS[L] * stride + XS[L])
#define GATHER(YS, XS) (v8u){TEXEL(YS, XS, 0), TEXEL(YS, XS, 1), TEXEL(YS, XS, 2), TEXEL(YS, XS, 3), \
                             TEXEL(YS, XS, 4), TEXEL(YS, XS, 5), TEXEL(YS, XS, 6), TEXEL(YS, XS, 7)}
        t00 = GATHER(ys0, xs0); t01 = GATHER(ys0, xs1); t10 = GATHER(ys1, xs0); t11 = GATHER(ys1, xs1);
#undef GATHER
#undef TEXEL
        }
#define BLEND(SHIFT) (((channelOf(t00, SHIFT) * w00 + channelOf(t01, SHIFT) * w01) + channelOf(t10, SHIFT) * w10) \
                      + channelOf(t11, SHIFT) * w11)
        if (r) st(r, k, BLEND(0));
        if (g) st(g, k, BLEND(8));
        if (b) st(b, k, BLEND(16));
        if (a) st(a, k, BLEND(24));
#undef BLEND
    }
}

F void bilinear(const MGShaderInput *in, const uint8_t *u, const uint8_t *v, uint8_t *r, uint8_t *g, uint8_t *b, uint8_t *a) {
    AxisPart xs, ys;
    axisX(in, u, &xs);
    axisY(in, v, &ys);
    blendTexels(in, &xs, &ys, r, g, b, a);
}

/// `texture`: a bilinear sample whose axes come from the tile's axis cache when an earlier
/// sample of the tile had the same coordinate (`MG_AXIS_*` in `c`: the compiler keys the slots
/// by SSA value, so a slot marked ready holds this very coordinate's axis).
F void texture(const Exec *e, const MGShaderInstruction *i) {
    const MGShaderInput *in = &e->inputs[i->input];
    int32_t c = i->c < 0 ? 0 : i->c;
    AxisPart *xs = &e->axes[MG_AXIS_X_SLOT(c)], *ys = &e->axes[MG_AXIS_SLOTS + MG_AXIS_Y_SLOT(c)];
    if (!(c & MG_AXIS_X_READY)) axisX(in, reg(e, i->a), xs);
    if (!(c & MG_AXIS_Y_READY)) axisY(in, reg(e, i->b), ys);
    blendTexels(in, xs, ys, result(e, i->dst), result(e, i->dst1), result(e, i->dst2), result(e, i->dst3));
}

/// Runs one instruction for the tile starting at pixel (x0, y).
F void execute(const Exec *e, const MGShaderInstruction *i, intptr_t x0, intptr_t y, const float *uniforms) {
    const v8 one = (v8)1.0f, zero = (v8)0.0f;
    switch (i->op) {
    case MG_OP_CONST: splat(e, i, i->imm); break;
    case MG_OP_UNIFORM: splat(e, i, uniforms[i->imm2]); break;
    case MG_OP_FRAME_WIDTH: splat(e, i, e->widthF); break;
    case MG_OP_FRAME_HEIGHT: splat(e, i, e->heightF); break;
    case MG_OP_TEXEL_WIDTH: splat(e, i, 1.0f / e->widthF); break;
    case MG_OP_TEXEL_HEIGHT: splat(e, i, 1.0f / e->heightF); break;
    case MG_OP_OPAQUE: splat(e, i, 0.0f); break;
    case MG_OP_COORD_X: {
        uint8_t *d = reg(e, i->dst);
        float base = ((float)x0 + i->imm) + 0.5f;
        const v8 ramp = {0, 1, 2, 3, 4, 5, 6, 7};
        for (int k = 0; k < CHUNKS; k++) st(d, k, (ramp + (v8)(base + (float)(k * 8))) / e->widthF);
        break;
    }
    case MG_OP_COORD_Y: splat(e, i, (((float)y + i->imm) + 0.5f) / e->heightF); break;
    case MG_OP_ADD: MAP2(a + b); break;
    case MG_OP_SUB: MAP2(a - b); break;
    case MG_OP_MUL: MAP2(a * b); break;
    case MG_OP_DIV: MAP2(a / b); break;
    case MG_OP_NEG: MAP1(-a); break;
    case MG_OP_MIN: MAP2(sel(b < a, b, a)); break;
    case MG_OP_MAX: MAP2(sel(a < b, b, a)); break;
    case MG_OP_FLOOR: MAP1(vfloor(a)); break;
    case MG_OP_CEIL: MAP1(-vfloor(-a)); break;
    case MG_OP_TRUNC: MAP1(sel(a < 0.0f, -vfloor(-a), vfloor(a))); break;
    case MG_OP_FRACT: MAP1(a - vfloor(a)); break;
    case MG_OP_MOD: MAP2(a - b * vfloor(a / b)); break;
    case MG_OP_ABS: MAP1(sel(a < 0.0f, -a, a)); break;
    case MG_OP_SIGN: MAP1(sel(a < 0.0f, -one, sel(a > 0.0f, one, zero))); break;
    case MG_OP_SQRT: MAP1(__builtin_elementwise_sqrt(a)); break;
    case MG_OP_RSQRT: MAP1(one / __builtin_elementwise_sqrt(a)); break;
    case MG_OP_SIN: case MG_OP_COS: {
        uint8_t *d = reg(e, i->dst), *src = reg(e, i->a);
        int wantSin = i->op == MG_OP_SIN;
        for (int k = 0; k < CHUNKS; k++) {
            v8 x = ld(src, k);
            if (allLanes((x < 8192.0f) & (x > -8192.0f))) {
                v8 s, c;
                sinCos(x, &s, &c);
                st(d, k, wantSin ? s : c);
            } else {
                // Larger arguments (or NaN) take libm, where the reduction needs more bits.
                for (int l = 0; l < 8; l++) x[l] = wantSin ? sinf(x[l]) : cosf(x[l]);
                st(d, k, x);
            }
        }
        break;
    }
    case MG_OP_TAN: LANES1(tanf); break;
    case MG_OP_ASIN: LANES1(asinf); break;
    case MG_OP_ACOS: LANES1(acosf); break;
    // The vector forms where every lane of a chunk is in their domain, libm's lane by lane
    // otherwise (NaN, infinities, zero or negative logarithms, results beyond float's normals).
    case MG_OP_ATAN: CHUNKED1(finiteLanes(a), vatan2(a, (v8)1.0f), atanf); break;
    case MG_OP_EXP: CHUNKED1(exp2Range(a * 1.4426950216293335f), vexp2(a * 1.4426950216293335f), expf); break;
    case MG_OP_LOG: CHUNKED1(positiveNormal(a), vlog2(a) * 0.6931471824645996f, logf); break;
    case MG_OP_EXP2: CHUNKED1(exp2Range(a), vexp2(a), exp2f); break;
    case MG_OP_LOG2: CHUNKED1(positiveNormal(a), vlog2(a), log2f); break;
    case MG_OP_ATAN2: CHUNKED2(finiteLanes(a) & finiteLanes(b), vatan2(a, b), atan2f); break;
    case MG_OP_POW: {
        // GLSL's pow is exp2(y log2 x), for x > 0.
        uint8_t *d = reg(e, i->dst), *xs = reg(e, i->a), *ys = reg(e, i->b);
        for (int k = 0; k < CHUNKS; k++) {
            v8 x = ld(xs, k), y = ld(ys, k);
            if (allLanes(positiveNormal(x) & finiteLanes(y))) {
                v8 power = y * vlog2(x);
                if (allLanes(exp2Range(power))) { st(d, k, vexp2(power)); continue; }
            }
            for (int l = 0; l < 8; l++) x[l] = powf(x[l], y[l]);
            st(d, k, x);
        }
        break;
    }
    case MG_OP_LT: MAP2(boolean(a < b)); break;
    case MG_OP_LE: MAP2(boolean(a <= b)); break;
    case MG_OP_EQ: MAP2(boolean(a == b)); break;
    case MG_OP_NE: MAP2(boolean(a != b)); break;
    case MG_OP_AND: MAP2(boolean((a != 0.0f) & (b != 0.0f))); break;
    case MG_OP_OR: MAP2(boolean((a != 0.0f) | (b != 0.0f))); break;
    case MG_OP_XOR: MAP2(boolean((a != 0.0f) ^ (b != 0.0f))); break;
    case MG_OP_NOT: MAP1(boolean(a == 0.0f)); break;
    case MG_OP_SELECT: {
        uint8_t *d = reg(e, i->dst), *c = reg(e, i->a), *t = reg(e, i->b), *f = reg(e, i->c);
        for (int k = 0; k < CHUNKS; k++) st(d, k, sel(ld(c, k) == 0.0f, ld(f, k), ld(t, k)));
        break;
    }
    case MG_OP_TEXTURE: texture(e, i); break;
    case MG_OP_LOAD_PIXEL: loadTexels(e, i, x0, y); break;
    default: break; // MG_OP_CHANNEL: results written by its texture / loadPixel.
    }
}

/// Clamps to 0...1, scales to 0...255 and rounds to nearest (ties to even, as GPUs convert to
/// unorm8: adding 1.5 * 2^23 leaves the rounded value in the low mantissa bits); NaN becomes 0.
F v8u unorm8(v8 v) {
    v8 c = sel(v > 0.0f, v, (v8)0.0f);
    c = sel(c > 1.0f, (v8)1.0f, c);
    return (v8u)(c * 255.0f + 12582912.0f) & 0xFFu;
}

F uint8_t unorm8Lane(float v) {
    float c = v > 0 ? (v < 1 ? v : 1) : 0;
    float t = c * 255.0f + 12582912.0f;
    uint32_t bits;
    memcpy(&bits, &t, 4);
    return (uint8_t)bits;
}

F void storePixels(uint8_t *dst, intptr_t count, const uint8_t *r, const uint8_t *g, const uint8_t *b,
                   const uint8_t *a) {
    if (count == MG_SHADER_LANES) {
        for (int k = 0; k < CHUNKS; k++) {
            v8u word = unorm8(ld(r, k)) | (unorm8(ld(g, k)) << 8) | (unorm8(ld(b, k)) << 16) | (unorm8(ld(a, k)) << 24);
            memcpy(dst + k * 32, &word, 32);
        }
        return;
    }
    for (int l = 0; l < count; l++) {
        dst[4 * l] = unorm8Lane(lane(r, l));
        dst[4 * l + 1] = unorm8Lane(lane(g, l));
        dst[4 * l + 2] = unorm8Lane(lane(b, l));
        dst[4 * l + 3] = unorm8Lane(lane(a, l));
    }
}

MG_TARGET void MG_BAND(intptr_t rowStart, intptr_t rowEnd, void *registers,
                       const MGShaderInput *inputs, intptr_t width, intptr_t height,
                       uint8_t *destination, intptr_t destinationStride,
                       const MGShaderInstruction *setup, intptr_t setupCount,
                       const MGShaderInstruction *pixel, intptr_t pixelCount,
                       const int32_t *output, const float *uniforms) {
    AxisPart axes[2 * MG_AXIS_SLOTS];
    Exec e = { registers, inputs, axes, width, height, (float)width, (float)height };
    for (intptr_t n = 0; n < setupCount; n++) execute(&e, &setup[n], 0, 0, uniforms);
    const uint8_t *r = reg(&e, output[0]), *g = reg(&e, output[1]), *b = reg(&e, output[2]), *a = reg(&e, output[3]);
    for (intptr_t y = rowStart; y < rowEnd; y++) {
        uint8_t *dstRow = destination + y * destinationStride;
        for (intptr_t x0 = 0; x0 < width; x0 += MG_SHADER_LANES) {
            for (intptr_t n = 0; n < pixelCount; n++) execute(&e, &pixel[n], x0, y, uniforms);
            intptr_t count = width - x0 < MG_SHADER_LANES ? width - x0 : MG_SHADER_LANES;
            storePixels(dstRow + x0 * 4, count, r, g, b, a);
        }
    }
}
