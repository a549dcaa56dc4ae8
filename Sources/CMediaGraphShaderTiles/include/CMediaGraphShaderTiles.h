// The shader's tile loop in C: the compiled instructions run over tiles of 64 pixels. One source
// (TileLoopBody.h) is compiled twice, for baseline x86-64 (or any other CPU) and, with
// `__attribute__((target("avx2,fma")))`, for AVX2 CPUs, where each 8-lane operation is one
// instruction instead of two. No per-target compiler flags: SwiftPM refuses unsafe flags in a
// package used as a versioned dependency. MediaGraphShaderTiles' `TileLoop` chooses the build.
#ifndef CMEDIAGRAPH_SHADER_TILES_H
#define CMEDIAGRAPH_SHADER_TILES_H

#include <stdbool.h>
#include <stdint.h>

/// Operation codes: the raw values of MediaGraphShaderTiles' `Op` (a test checks every one).
enum {
    MG_OP_CONST, MG_OP_UNIFORM, MG_OP_FRAME_WIDTH, MG_OP_FRAME_HEIGHT, MG_OP_TEXEL_WIDTH, MG_OP_TEXEL_HEIGHT,
    MG_OP_COORD_X, MG_OP_COORD_Y, MG_OP_OPAQUE,
    MG_OP_ADD, MG_OP_SUB, MG_OP_MUL, MG_OP_DIV, MG_OP_NEG, MG_OP_MIN, MG_OP_MAX, MG_OP_FLOOR, MG_OP_CEIL,
    MG_OP_TRUNC, MG_OP_FRACT, MG_OP_MOD, MG_OP_ABS, MG_OP_SIGN,
    MG_OP_SQRT, MG_OP_RSQRT, MG_OP_SIN, MG_OP_COS, MG_OP_TAN, MG_OP_ASIN, MG_OP_ACOS, MG_OP_ATAN, MG_OP_ATAN2,
    MG_OP_POW, MG_OP_EXP, MG_OP_LOG, MG_OP_EXP2, MG_OP_LOG2,
    MG_OP_LT, MG_OP_LE, MG_OP_EQ, MG_OP_NE, MG_OP_AND, MG_OP_OR, MG_OP_NOT, MG_OP_XOR,
    MG_OP_SELECT, MG_OP_TEXTURE, MG_OP_LOAD_PIXEL, MG_OP_CHANNEL,
    MG_OP_COUNT
};

/// One instruction: the same fields in the same order as MediaGraphShaderTiles' `Instruction`
/// (so a Swift buffer of them is read as is; `TileLoop` checks the layout).
typedef struct MGShaderInstruction {
    uint8_t op;
    /// The input frame `texture` and `loadPixel` read (0 for the first).
    uint8_t input;
    int32_t dst, a, b, c;
    int32_t dst1, dst2, dst3;
    float imm;
    int32_t imm2;
} MGShaderInstruction;

/// A `texture` instruction's `c`: the slots of the tile's axis cache holding its horizontal and
/// vertical parts (coordinates to texel indices and weights), and whether an earlier sample of
/// the tile already put them there (same coordinate value, same input). -1: computed, no cache.
#define MG_AXIS_SLOTS 8
#define MG_AXIS_X_SLOT(c) ((c) & 7)
#define MG_AXIS_Y_SLOT(c) (((c) >> 8) & 7)
#define MG_AXIS_X_READY 0x10
#define MG_AXIS_Y_READY 0x1000

/// One input frame of a shader: rgba bytes, `stride` bytes from row to row. Inputs may have
/// different sizes; each is sampled with its own.
typedef struct MGShaderInput {
    const uint8_t *data;
    intptr_t stride, width, height;
} MGShaderInput;

/// Pixels per tile (floats per register).
#define MG_SHADER_LANES 64

/// Runs the setup instructions once, then the pixel instructions for every tile of rows
/// [rowStart, rowEnd) of the width x height destination, storing each tile as rgba bytes from
/// registers output[0…3]. `registers` holds the register file (register r at byte
/// r * MG_SHADER_LANES * 4). `inputs` has an entry for every input an instruction names (the
/// caller checks). `avx2`: run the AVX2 build (the caller has checked the CPU).
void mg_shader_band(bool avx2, intptr_t rowStart, intptr_t rowEnd, void *registers,
                    const MGShaderInput *inputs, intptr_t width, intptr_t height,
                    uint8_t *destination, intptr_t destinationStride,
                    const MGShaderInstruction *setup, intptr_t setupCount,
                    const MGShaderInstruction *pixel, intptr_t pixelCount,
                    const int32_t *output, const float *uniforms);

/// Writes `pixel` (rgba bytes as one little-endian word) to every pixel of rows [rowStart, rowEnd)
/// of a destination `width` pixels wide: a shader whose output is one colour. Streaming stores,
/// which do not read the destination's lines into the cache first, so a frame beyond the cache is
/// written at the memory's write speed (plain stores read each line before writing it).
void mg_fill_rows(uint8_t *destination, intptr_t stride, intptr_t rowStart, intptr_t rowEnd, intptr_t width,
                  uint32_t pixel);

#endif
