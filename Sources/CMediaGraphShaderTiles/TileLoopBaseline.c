// The tile loop for any CPU (baseline x86-64: SSE2), and the entry point that picks a build.
#include "TileLoopBands.h"

#define MG_TARGET
#define MG_BAND mg_shader_band_baseline
#include "TileLoopBody.h"

void mg_shader_band(bool avx2, MG_BAND_PARAMETERS) {
#if defined(__x86_64__)
    if (avx2) {
        mg_shader_band_avx2(rowStart, rowEnd, registers, inputs, width, height, destination,
                            destinationStride, setup, setupCount, pixel, pixelCount, output, uniforms);
        return;
    }
#else
    (void)avx2;
#endif
    mg_shader_band_baseline(rowStart, rowEnd, registers, inputs, width, height, destination,
                            destinationStride, setup, setupCount, pixel, pixelCount, output, uniforms);
}
