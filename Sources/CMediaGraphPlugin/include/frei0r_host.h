/*
 * frei0r_host.h — what the host needs of the frei0r 1.x plugin interface, declared from the
 * frei0r specification (function names, struct layouts and constants) for use with dlsym.
 * Plugins export plain C functions: f0r_init, f0r_deinit, f0r_get_plugin_info,
 * f0r_get_param_info, f0r_construct, f0r_destruct, f0r_set_param_value, f0r_get_param_value,
 * f0r_update (filters and sources) and f0r_update2 (mixers).
 */
#ifndef MEDIAGRAPH_FREI0R_HOST_H
#define MEDIAGRAPH_FREI0R_HOST_H

#include <stdint.h>

/* plugin_type */
#define MGF0R_TYPE_FILTER 0
#define MGF0R_TYPE_SOURCE 1
#define MGF0R_TYPE_MIXER2 2
#define MGF0R_TYPE_MIXER3 3

/* color_model */
#define MGF0R_COLOR_BGRA8888 0
#define MGF0R_COLOR_RGBA8888 1
#define MGF0R_COLOR_PACKED32 2

/* param types */
#define MGF0R_PARAM_BOOL 0
#define MGF0R_PARAM_DOUBLE 1
#define MGF0R_PARAM_COLOR 2
#define MGF0R_PARAM_POSITION 3
#define MGF0R_PARAM_STRING 4

typedef struct mgf0r_plugin_info {
    const char *name;
    const char *author;
    int plugin_type;
    int color_model;
    int frei0r_version;
    int major_version;
    int minor_version;
    int num_params;
    const char *explanation;
} mgf0r_plugin_info;

typedef struct mgf0r_param_info {
    const char *name;
    int type;
    const char *explanation;
} mgf0r_param_info;

typedef struct mgf0r_color { float r, g, b; } mgf0r_color;
typedef struct mgf0r_position { double x, y; } mgf0r_position;

typedef int (*mgf0r_init_fn)(void);
typedef void (*mgf0r_deinit_fn)(void);
typedef void (*mgf0r_get_plugin_info_fn)(mgf0r_plugin_info *info);
typedef void (*mgf0r_get_param_info_fn)(mgf0r_param_info *info, int index);
typedef void *(*mgf0r_construct_fn)(unsigned int width, unsigned int height);
typedef void (*mgf0r_destruct_fn)(void *instance);
/* param points at a double (bool, double), an mgf0r_color, an mgf0r_position or a char * (string) */
typedef void (*mgf0r_set_param_value_fn)(void *instance, void *param, int index);
typedef void (*mgf0r_get_param_value_fn)(void *instance, void *param, int index);
typedef void (*mgf0r_update_fn)(void *instance, double time, const uint32_t *in, uint32_t *out);
/* mixers: inframe3 is NULL for a two-input mixer; sources get NULL inputs */
typedef void (*mgf0r_update2_fn)(void *instance, double time, const uint32_t *inframe1,
                                 const uint32_t *inframe2, const uint32_t *inframe3, uint32_t *outframe);

#endif
