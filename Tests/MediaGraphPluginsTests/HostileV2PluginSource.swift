/// A version-2 plugin whose declaration the tests make hostile with -D flags: INPUTS (input
/// count), OUT_W / OUT_H (what output_format sets), NAN_MIN (a param range of NaN), BAD_INPUT
/// (an input name that is not an identifier), OUT_F (the output's format code), SAME (the flag
/// MG_NODE_SAME_INPUT_SIZE). Without flags it is a valid two-input node that
/// copies its first input.
enum HostileV2PluginSource {
    static let text = #"""
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mediagraph_plugin.h"

#ifndef INPUTS
#define INPUTS 2
#endif
#ifndef NAN_MIN
#define NAN_MIN 0
#endif

static void *h_create(void *d, const mg_video_format *in, int32_t n, mg_error *e) {
    (void)d; (void)in; (void)n; (void)e;
    return calloc(1, 1);
}
static int h_set(void *i, int32_t k, const mg_param_value *v, mg_error *e) { (void)i; (void)k; (void)v; (void)e; return 0; }
static int h_output(void *i, const mg_video_format *in, int32_t n, mg_video_format *out, mg_error *e) {
    (void)i; (void)in; (void)n; (void)e;
#ifdef OUT_W
    out->width = (int32_t)(OUT_W);
#endif
#ifdef OUT_H
    out->height = (int32_t)(OUT_H);
#endif
#ifdef OUT_F
    out->format = (int32_t)(OUT_F);
#endif
    return 0;
}
static int h_process(void *i, const mg_frame *const *in, int32_t n, mg_frame *out, mg_error *e) {
    (void)i; (void)n; (void)e;
    if (in[0] == NULL) return 0;
    for (int y = 0; y < out->height; y++) memcpy(out->planes[0] + y * out->strides[0], in[0]->planes[0] + y * in[0]->strides[0], (size_t)out->width * 4);
    return 0;
}
static void h_destroy(void *i) { free(i); }

static const int32_t formats[] = { MG_PIXEL_RGBA };
static const mg_param_desc params[] = {
    { "level", MG_PARAM_DOUBLE, "a number", 0.5, NULL, 1, NAN_MIN ? NAN : 0, 1 },
};
#ifdef SAME
#define FLAGS MG_NODE_SAME_INPUT_SIZE
#else
#define FLAGS 0
#endif
#ifdef BAD_INPUT
static const char *const names[] = { "first", "second input" };
#endif

static const mg_node_desc nodes[] = {
    {
        .name = "hostile.node", .doc = "hostile", .formats = formats, .format_count = 1,
        .params = params, .param_count = 1, .flags = FLAGS, .set_param = h_set, .destroy = h_destroy,
        .input_count = INPUTS,
#ifdef BAD_INPUT
        .input_names = names,
#endif
        .create_n = h_create, .output_format = h_output, .process_n = h_process,
    },
};
static const mg_plugin_desc plugin = { MG_PLUGIN_ABI_VERSION, "hostile", "0", nodes, 1 };
const mg_plugin_desc *mediagraph_plugin_entry(void) { return &plugin; }
"""#
}
