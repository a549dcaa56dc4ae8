// The fill for shaders whose output is one colour (see mg_fill_rows in the header).
#include "CMediaGraphShaderTiles.h"
#include <string.h>

typedef uint32_t v4u __attribute__((ext_vector_type(4)));

void mg_fill_rows(uint8_t *destination, intptr_t stride, intptr_t rowStart, intptr_t rowEnd, intptr_t width,
                  uint32_t pixel) {
    const v4u pixels = (v4u)pixel;
    for (intptr_t y = rowStart; y < rowEnd; y++) {
        uint8_t *p = destination + y * stride, *end = p + width * 4;
        while (p < end && ((uintptr_t)p & 15) != 0) { memcpy(p, &pixel, 4); p += 4; }
#if defined(__x86_64__)
        for (; end - p >= 16; p += 16) __builtin_nontemporal_store(pixels, (v4u *)p);
#endif
        for (; p < end; p += 4) memcpy(p, &pixel, 4);
    }
#if defined(__x86_64__)
    __builtin_ia32_sfence();  // the streaming stores are visible before the band reports done
#endif
}
