/* A plugin whose declaration is whatever the fuzzer says: fuzz_plugin_set() takes bytes and
 * builds from them the descriptor mediagraph_plugin_entry() returns (C plugin interface) and
 * what the f0r_* functions report (frei0r), so the host's checks of both run on hostile
 * declarations through the real loading path (dlopen, dlsym, the loaders). */
#ifndef FUZZ_PLUGIN_H
#define FUZZ_PLUGIN_H
#include <stddef.h>
#include <stdint.h>
void fuzz_plugin_set(const uint8_t *data, size_t size);
#endif
