// The tile loop for CPUs with AVX2 and FMA: the same source as the baseline build, compiled for
// them by the function attribute (called only after the CPU check).
#if defined(__x86_64__)
#include "TileLoopBands.h"

#define MG_TARGET __attribute__((target("avx2,fma")))
#define MG_BAND mg_shader_band_avx2
#include "TileLoopBody.h"
#endif
