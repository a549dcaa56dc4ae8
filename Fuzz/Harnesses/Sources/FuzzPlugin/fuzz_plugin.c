/* See include/fuzz_plugin.h. Everything the host may read is allocated to the size declared
 * (counts over the host's limits are refused before it reads the arrays) and every string is
 * NUL-terminated: the host cannot defend against a plugin that lies about its own memory. */
#include "fuzz_plugin.h"
#include "../../../../Sources/CMediaGraphPlugin/include/mediagraph_plugin.h"
#include "../../../../Sources/CMediaGraphPlugin/include/frei0r_host.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading the fuzzer's bytes (zeros once they run out) ---- */
static const uint8_t *in; static size_t in_size, at;
static uint8_t r8(void) { return at < in_size ? in[at++] : (at++, 0); }
static uint32_t r32(void) { uint32_t v = r8(); v |= (uint32_t)r8() << 8; v |= (uint32_t)r8() << 16; return v | (uint32_t)r8() << 24; }
static int32_t rcount(int small) { uint8_t b = r8(); return b == 255 ? (int32_t)r32() : b % small; }
static double rdouble(void) {
    static const double table[] = { 0, 1, -1, 0.5, 2.5, 255, 1e15, -1e15, 1e15 + 2, 1e300, -1e300, DBL_MAX, -DBL_MIN, 4294967296.0 };
    uint8_t b = r8();
    if (b < sizeof table / sizeof table[0]) return table[b];
    if (b == 250) return NAN;
    if (b == 251) return INFINITY;
    if (b == 252) return -INFINITY;
    if (b == 253) { uint64_t v = r32(); v |= (uint64_t)r32() << 32; double d; memcpy(&d, &v, 8); return d; }
    return (double)(int8_t)b / 4;
}

/* ---- allocations of the current declaration, freed when the next one is built ---- */
static void **owned; static size_t owned_count, owned_capacity;
static void *keep(void *p) {
    if (owned_count == owned_capacity) {
        owned_capacity = owned_capacity ? owned_capacity * 2 : 64;
        owned = realloc(owned, owned_capacity * sizeof *owned);
    }
    owned[owned_count++] = p;
    return p;
}
static void *alloc(size_t n) { return keep(calloc(n ? n : 1, 1)); }

/* NULL, a string from the input (any bytes but NUL), or one just past a host limit. */
static const char *rstr(void) {
    uint8_t b = r8();
    if (b == 0) return NULL;
    size_t n = b == 254 ? 257 : b == 255 ? 4097 : (size_t)(b - 1) % 48;
    char *s = alloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = b >= 254 ? 'a' : r8();
        s[i] = (char)(c ? c : 'x');
    }
    return s;
}

/* ---- the C plugin interface ---- */
static void *create(void *d, int32_t w, int32_t h, int32_t f, mg_error *e) { (void)d; (void)w; (void)h; (void)f; (void)e; return NULL; }
static int set_param(void *i, int32_t k, const mg_param_value *v, mg_error *e) { (void)i; (void)k; (void)v; (void)e; return 0; }
static int process(void *i, const mg_frame *a, mg_frame *b, mg_error *e) { (void)i; (void)a; (void)b; (void)e; return 0; }
static void destroy(void *i) { (void)i; }
static void *create_n(void *d, const mg_video_format *f, int32_t n, mg_error *e) { (void)d; (void)f; (void)n; (void)e; return NULL; }
static int output_format(void *i, const mg_video_format *f, int32_t n, mg_video_format *o, mg_error *e) { (void)i; (void)f; (void)n; (void)o; (void)e; return 0; }
static int process_n(void *i, const mg_frame *const *f, int32_t n, mg_frame *o, mg_error *e) { (void)i; (void)f; (void)n; (void)o; (void)e; return 0; }

static mg_plugin_desc plugin;

static void build_node(mg_node_desc *n) {
    uint8_t callbacks = r8();
    n->name = rstr();
    n->doc = rstr();
    n->format_count = rcount(4);
    if (n->format_count > 0 && n->format_count <= 17 && !(callbacks & 16)) {
        int32_t *f = alloc((size_t)n->format_count * sizeof *f);
        for (int32_t i = 0; i < n->format_count; i++) { uint8_t b = r8(); f[i] = b == 255 ? (int32_t)r32() : b % 8; }
        n->formats = f;
    }
    n->param_count = rcount(5);
    if (n->param_count > 0 && n->param_count <= 257 && !(callbacks & 32)) {
        mg_param_desc *p = alloc((size_t)n->param_count * sizeof *p);
        for (int32_t i = 0; i < n->param_count; i++) {
            p[i].name = rstr();
            uint8_t t = r8();
            p[i].type = t == 255 ? (int32_t)r32() : t % 5;
            p[i].doc = rstr();
            p[i].default_number = rdouble();
            p[i].default_string = rstr();
            p[i].has_range = r8() & 1;
            p[i].min = rdouble();
            p[i].max = rdouble();
        }
        n->params = p;
    }
    n->flags = r32();
    n->create = callbacks & 1 ? NULL : create;
    n->set_param = callbacks & 2 ? NULL : set_param;
    n->process = callbacks & 4 ? NULL : process;
    n->destroy = callbacks & 8 ? NULL : destroy;
    /* version 2: several inputs, their names, and the callbacks that go with them */
    uint8_t v2 = r8();
    if (v2 & 1) {
        n->input_count = rcount(18);
        if (n->input_count > 0 && n->input_count <= MG_MAX_INPUTS && !(v2 & 2)) {
            const char **names = alloc((size_t)n->input_count * sizeof *names);
            for (int32_t i = 0; i < n->input_count; i++) names[i] = rstr();
            n->input_names = names;
        }
        n->create_n = v2 & 4 ? NULL : create_n;
        n->output_format = v2 & 8 ? NULL : output_format;
        n->process_n = v2 & 16 ? NULL : process_n;
    }
}

const mg_plugin_desc *mediagraph_plugin_entry(void) { return &plugin; }

/* ---- frei0r ---- */
static mgf0r_plugin_info f0r_info;
static mgf0r_param_info *f0r_params; static int f0r_param_count;
static double *f0r_values; static const char **f0r_strings; static int f0r_constructs;

int f0r_init(void) { return 1; }
void f0r_deinit(void) {}
void f0r_get_plugin_info(mgf0r_plugin_info *info) { *info = f0r_info; }
void f0r_get_param_info(mgf0r_param_info *info, int index) {
    if (index >= 0 && index < f0r_param_count) *info = f0r_params[index];
    else memset(info, 0, sizeof *info);
}
void *f0r_construct(unsigned int w, unsigned int h) { (void)w; (void)h; return f0r_constructs ? (void *)&f0r_info : NULL; }
void f0r_destruct(void *i) { (void)i; }
void f0r_set_param_value(void *i, void *p, int k) { (void)i; (void)p; (void)k; }
void f0r_get_param_value(void *i, void *param, int index) {
    (void)i;
    if (index < 0 || index >= f0r_param_count) return;
    double v = f0r_values[index];
    switch (f0r_params[index].type) {
    case MGF0R_PARAM_BOOL: case MGF0R_PARAM_DOUBLE: *(double *)param = v; break;
    case MGF0R_PARAM_COLOR: { mgf0r_color c = { (float)v, (float)-v, (float)(v * 2) }; *(mgf0r_color *)param = c; break; }
    case MGF0R_PARAM_POSITION: { mgf0r_position p = { v, -v }; *(mgf0r_position *)param = p; break; }
    case MGF0R_PARAM_STRING: *(const char **)param = f0r_strings[index]; break;
    default: break;
    }
}
void f0r_update(void *i, double t, const uint32_t *a, uint32_t *b) { (void)i; (void)t; (void)a; (void)b; }

/* ---- building both declarations from the bytes ---- */
void fuzz_plugin_set(const uint8_t *data, size_t size) {
    for (size_t i = 0; i < owned_count; i++) free(owned[i]);
    owned_count = 0;
    in = data; in_size = size; at = 0;

    uint8_t flags = r8();
    plugin.abi_version = flags & 1 ? r32() : flags & 4 ? 1 : MG_PLUGIN_ABI_VERSION;
    plugin.name = rstr();
    plugin.version = rstr();
    plugin.node_count = rcount(4);
    plugin.nodes = NULL;
    if (plugin.node_count > 0 && plugin.node_count <= 257 && !(flags & 2)) {
        mg_node_desc *n = alloc((size_t)plugin.node_count * sizeof *n);
        for (int32_t i = 0; i < plugin.node_count; i++) build_node(&n[i]);
        plugin.nodes = n;
        if (plugin.abi_version == 1) {
            /* a version-1 plugin's array has version 1's stride: its fields are a prefix */
            mg_node_desc_v1 *v1 = alloc((size_t)plugin.node_count * sizeof *v1);
            for (int32_t i = 0; i < plugin.node_count; i++) memcpy(&v1[i], &n[i], sizeof *v1);
            plugin.nodes = (const mg_node_desc *)(const void *)v1;
        }
    }

    memset(&f0r_info, 0, sizeof f0r_info);
    f0r_info.name = rstr();
    f0r_info.author = rstr();
    uint8_t kinds = r8();
    f0r_info.plugin_type = kinds % 5 == 4 ? (int)r32() : kinds % 5 < 2 ? MGF0R_TYPE_FILTER : kinds % 5 - 1;
    f0r_info.color_model = (kinds >> 3) % 4;
    f0r_info.frei0r_version = 1;
    f0r_info.major_version = r8();
    f0r_info.minor_version = r8();
    f0r_info.num_params = rcount(5);
    f0r_info.explanation = rstr();
    f0r_constructs = !(kinds & 0x80);
    f0r_param_count = f0r_info.num_params > 0 && f0r_info.num_params <= 257 ? f0r_info.num_params : 0;
    f0r_params = alloc((size_t)f0r_param_count * sizeof *f0r_params);
    f0r_values = alloc((size_t)f0r_param_count * sizeof *f0r_values);
    f0r_strings = alloc((size_t)f0r_param_count * sizeof *f0r_strings);
    for (int i = 0; i < f0r_param_count; i++) {
        f0r_params[i].name = rstr();
        uint8_t t = r8();
        f0r_params[i].type = t == 255 ? (int)r32() : t % 5;
        f0r_params[i].explanation = rstr();
        f0r_values[i] = rdouble();
        f0r_strings[i] = rstr();
    }
}
