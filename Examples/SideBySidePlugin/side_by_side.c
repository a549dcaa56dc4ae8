/*
 * side_by_side.c — an example MediaGraph plugin for interface version 2: two video inputs,
 * "left" and "right", placed side by side in one output frame that is wider than either.
 *
 *   output width  = left width + gap + right width
 *   output height = max(left height, right height)
 *
 * Each input is copied at the top of its column; what no input covers (the gap, below the shorter
 * input, or an input that has no frame at this time) is filled with `background`. Both inputs have
 * one pixel format: rgba, bgra, gray or yuv444p (formats without subsampled chroma, so any column
 * is on the chroma grid).
 *
 * Build:  cc -shared -fPIC -O2 -I ../../Sources/CMediaGraphPlugin/include side_by_side.c -o side_by_side.so
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mediagraph_plugin.h"

typedef struct {
    mg_video_format left, right;
    int gap;         /* pixels between the two */
    int background;  /* grey level 0…255 */
} side_by_side;

static void *sbs_create(void *data, const mg_video_format *in, int32_t n, mg_error *err) {
    (void)data;
    if (n != 2) { snprintf(err->message, sizeof err->message, "expected 2 inputs, got %d", (int)n); return NULL; }
    if (in[0].format != in[1].format) {
        snprintf(err->message, sizeof err->message, "the inputs have different pixel formats (%d and %d)", (int)in[0].format, (int)in[1].format);
        return NULL;
    }
    side_by_side *s = calloc(1, sizeof *s);
    if (s == NULL) { snprintf(err->message, sizeof err->message, "out of memory"); return NULL; }
    s->left = in[0];
    s->right = in[1];
    return s;
}

static int sbs_set(void *inst, int32_t index, const mg_param_value *v, mg_error *err) {
    side_by_side *s = inst;
    if (index == 0) s->gap = (int)v->number;
    else if (index == 1) s->background = (int)v->number;
    else { snprintf(err->message, sizeof err->message, "no param %d", (int)index); return 1; }
    return 0;
}

static int sbs_output(void *inst, const mg_video_format *in, int32_t n, mg_video_format *out, mg_error *err) {
    side_by_side *s = inst;
    (void)in; (void)n; (void)err;
    out->format = s->left.format;
    out->width = s->left.width + s->gap + s->right.width;
    out->height = s->left.height > s->right.height ? s->left.height : s->right.height;
    return 0;
}

static int bytes_per_pixel(int32_t format) { return format == MG_PIXEL_RGBA || format == MG_PIXEL_BGRA ? 4 : 1; }

/* The background value of byte `i` of a pixel in plane `p`. */
static uint8_t fill_value(const side_by_side *s, int32_t format, int p, int i) {
    if (format == MG_PIXEL_YUV444P && p > 0) return 128;
    if ((format == MG_PIXEL_RGBA || format == MG_PIXEL_BGRA) && i == 3) return 255;
    return (uint8_t)s->background;
}

static int sbs_process(void *inst, const mg_frame *const *in, int32_t n, mg_frame *out, mg_error *err) {
    side_by_side *s = inst;
    (void)n; (void)err;
    int bpp = bytes_per_pixel(out->format);
    for (int p = 0; p < out->plane_count; p++) {
        /* background everywhere first, then the inputs over it */
        for (int y = 0; y < out->height; y++) {
            uint8_t *row = out->planes[p] + y * out->strides[p];
            for (int x = 0; x < out->width * bpp; x++) row[x] = fill_value(s, out->format, p, x % bpp);
        }
        for (int k = 0; k < 2; k++) {
            const mg_frame *f = in[k];
            if (f == NULL) continue;
            int x0 = k == 0 ? 0 : s->left.width + s->gap;
            for (int y = 0; y < f->height; y++)
                memcpy(out->planes[p] + y * out->strides[p] + x0 * bpp, f->planes[p] + y * f->strides[p], (size_t)(f->width * bpp));
        }
    }
    return 0;
}

static void sbs_destroy(void *inst) { free(inst); }

static const int32_t formats[] = { MG_PIXEL_RGBA, MG_PIXEL_BGRA, MG_PIXEL_GRAY, MG_PIXEL_YUV444P };
static const mg_param_desc params[] = {
    { "gap", MG_PARAM_INT, "pixels of background between the two inputs", 0, NULL, 1, 0, 256 },
    { "background", MG_PARAM_INT, "grey level of what no input covers", 0, NULL, 1, 0, 255 },
};
static const char *const input_names[] = { "left", "right" };

static const mg_node_desc nodes[] = {
    {
        .name = "example.sidebyside",
        .doc = "Two inputs side by side (left, gap, right); the output is as wide as both and as tall as the taller.",
        .formats = formats, .format_count = 4,
        .params = params, .param_count = 2,
        .set_param = sbs_set,
        .destroy = sbs_destroy,
        .input_count = 2,
        .input_names = input_names,
        .create_n = sbs_create,
        .output_format = sbs_output,
        .process_n = sbs_process,
    },
};

static const mg_plugin_desc plugin = { MG_PLUGIN_ABI_VERSION, "side-by-side", "1.0", nodes, 1 };

const mg_plugin_desc *mediagraph_plugin_entry(void) { return &plugin; }
