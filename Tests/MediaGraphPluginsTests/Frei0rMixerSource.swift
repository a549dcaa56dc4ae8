/// A tiny frei0r two-input mixer written in C against frei0r's specification (function names and
/// layouts as in Sources/CMediaGraphPlugin/include/frei0r_host.h), compiled by the tests: it
/// shows what the host hands `f0r_update2`. Output = inframe2, except pixel 0, which holds the
/// `time` argument in milliseconds (rounded), and pixel 1, which holds the `level` param × 1000
/// and the width in its high 16 bits. Its third input must be NULL.
enum Frei0rMixerSource {
    static let text = #"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "frei0r_host.h"

typedef struct { unsigned w, h; double level; } tmix;

int f0r_init(void) { return 1; }
void f0r_deinit(void) {}
void f0r_get_plugin_info(mgf0r_plugin_info *i) {
    i->name = "tmix"; i->author = "tests"; i->plugin_type = MGF0R_TYPE_MIXER2;
    i->color_model = MGF0R_COLOR_RGBA8888; i->frei0r_version = 1; i->major_version = 0;
    i->minor_version = 1; i->num_params = 2; i->explanation = "test mixer";
}
void f0r_get_param_info(mgf0r_param_info *p, int k) {
    /* the second param's name collides with the host's sync param 'end' */
    p->name = k == 0 ? "Level" : "end"; p->type = MGF0R_PARAM_DOUBLE; p->explanation = "a number";
}
void *f0r_construct(unsigned w, unsigned h) {
    tmix *t = calloc(1, sizeof *t); t->w = w; t->h = h; t->level = 0.5; return t;
}
void f0r_destruct(void *t) { free(t); }
void f0r_set_param_value(void *t, void *v, int k) { if (k == 0) ((tmix *)t)->level = *(double *)v; }
void f0r_get_param_value(void *t, void *v, int k) { *(double *)v = k == 0 ? ((tmix *)t)->level : 0; }
void f0r_update2(void *inst, double time, const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out) {
    tmix *t = inst;
    (void)a;
    memcpy(out, b, (size_t)t->w * t->h * 4);
    out[0] = (uint32_t)lround(time * 1000);
    out[1] = (uint32_t)lround(t->level * 1000) | (t->w << 16);
    if (c != NULL) out[2] = 0xdeadbeef;
}
"""#
}
