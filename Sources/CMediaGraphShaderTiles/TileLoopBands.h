// The two builds of the tile loop (private to this module).
#include "CMediaGraphShaderTiles.h"

#define MG_BAND_PARAMETERS intptr_t rowStart, intptr_t rowEnd, void *registers, \
    const MGShaderInput *inputs, intptr_t width, intptr_t height, \
    uint8_t *destination, intptr_t destinationStride, \
    const MGShaderInstruction *setup, intptr_t setupCount, \
    const MGShaderInstruction *pixel, intptr_t pixelCount, \
    const int32_t *output, const float *uniforms

void mg_shader_band_baseline(MG_BAND_PARAMETERS);
#if defined(__x86_64__)
void mg_shader_band_avx2(MG_BAND_PARAMETERS);
#endif
