/// A tiny plugin written in C against mediagraph_plugin.h, compiled by the tests with
/// `cc -shared -fPIC`: it proves the interface needs no Swift. `-DABI=N` builds it for another
/// ABI version, `-DNO_ENTRY` without the entry point.
enum CPluginSource {
    static let text = #"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mediagraph_plugin.h"

#ifndef ABI
#define ABI MG_PLUGIN_ABI_VERSION
#endif

/* ctest.offset: x' = clamp(x + amount) on the first plane, and on the others when chroma is set. */
typedef struct { int amount; int chroma; } offset_state;

static void *offset_create(void *data, int32_t w, int32_t h, int32_t format, mg_error *err) {
    (void)data; (void)w; (void)h; (void)format; (void)err;
    return calloc(1, sizeof(offset_state));
}

static int offset_set(void *inst, int32_t index, const mg_param_value *v, mg_error *err) {
    offset_state *s = inst;
    if (index == 0) s->amount = (int)v->number;
    else if (index == 1) s->chroma = v->number != 0;
    else { snprintf(err->message, sizeof err->message, "no param %d", index); return 1; }
    return 0;
}

static int plane_rows(const mg_frame *f, int p) {
    if (p == 0 || f->format != MG_PIXEL_YUV420P) return f->height;
    return (f->height + 1) / 2;
}

static int plane_bytes(const mg_frame *f, int p) {
    if (f->format == MG_PIXEL_RGBA || f->format == MG_PIXEL_BGRA) return f->width * 4;
    if (p == 0 || f->format == MG_PIXEL_YUV444P) return f->width;
    return (f->width + 1) / 2;
}

static int offset_process(void *inst, const mg_frame *in, mg_frame *out, mg_error *err) {
    offset_state *s = inst;
    (void)err;
    for (int p = 0; p < in->plane_count; p++) {
        int amount = (p == 0 || s->chroma) ? s->amount : 0;
        for (int y = 0; y < plane_rows(in, p); y++) {
            const uint8_t *a = in->planes[p] + y * in->strides[p];
            uint8_t *b = out->planes[p] + y * out->strides[p];
            for (int x = 0; x < plane_bytes(in, p); x++) {
                int v = a[x] + amount;
                b[x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    }
    return 0;
}

static void offset_destroy(void *inst) { free(inst); }

/* ctest.failat: copies frames, and fails on frame number `frame`. */
typedef struct { int frame; int seen; } failat_state;

static void *failat_create(void *data, int32_t w, int32_t h, int32_t format, mg_error *err) {
    (void)data; (void)w; (void)h; (void)format; (void)err;
    return calloc(1, sizeof(failat_state));
}

static int failat_set(void *inst, int32_t index, const mg_param_value *v, mg_error *err) {
    (void)index; (void)err;
    ((failat_state *)inst)->frame = (int)v->number;
    return 0;
}

static int failat_process(void *inst, const mg_frame *in, mg_frame *out, mg_error *err) {
    failat_state *s = inst;
    if (s->seen++ == s->frame) {
        snprintf(err->message, sizeof err->message, "synthetic failure on frame %d", s->frame);
        return 1;
    }
    for (int p = 0; p < in->plane_count; p++)
        for (int y = 0; y < plane_rows(in, p); y++)
            memcpy(out->planes[p] + y * out->strides[p], in->planes[p] + y * in->strides[p], (size_t)plane_bytes(in, p));
    return 0;
}

static const int32_t offset_formats[] = { MG_PIXEL_YUV420P, MG_PIXEL_GRAY, MG_PIXEL_RGBA };
static const mg_param_desc offset_params[] = {
    { "amount", MG_PARAM_INT, "added to every sample", 10, NULL, 1, -255, 255 },
    { "chroma", MG_PARAM_BOOL, "also offset the chroma planes", 0, NULL, 0, 0, 0 },
};
static const mg_param_desc failat_params[] = {
    { "frame", MG_PARAM_INT, "the frame number that fails", 2, NULL, 1, 0, 1000000 },
};

static const mg_node_desc nodes[] = {
    { "ctest.offset", "Adds a constant to every sample.", offset_formats, 3, offset_params, 2,
      MG_NODE_IN_PLACE, NULL, offset_create, offset_set, offset_process, NULL, offset_destroy },
    { "ctest.failat", "Copies frames; fails on one.", offset_formats, 3, failat_params, 1,
      0, NULL, failat_create, failat_set, failat_process, NULL, offset_destroy },
};

static const mg_plugin_desc plugin = { ABI, "ctest", "0.1", nodes, 2 };

#ifndef NO_ENTRY
const mg_plugin_desc *mediagraph_plugin_entry(void) { return &plugin; }
#else
const mg_plugin_desc *some_other_function(void) { return &plugin; }
#endif
"""#
}
