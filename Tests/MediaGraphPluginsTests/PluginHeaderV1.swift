/// mediagraph_plugin.h as it was for ABI version 1 (before version 2 appended fields to
/// mg_node_desc): the tests build a plugin against it to check that plugins built for version 1
/// still load and run.
enum PluginHeaderV1 {
    static let text = #"""
/*
 * mediagraph_plugin.h — the C interface between the `mediagraph` host and run-time plugins.
 *
 * A plugin is a shared library exporting one function, `mediagraph_plugin_entry`, that returns a
 * descriptor of the node types it provides. The host checks `abi_version` first and refuses a
 * plugin built against another version of this header (the message names both versions).
 *
 * Every node type is a video filter: one input port "in", one output port "out" carrying frames
 * of the same pixel format and size. Callbacks, in order, for each node instance:
 *   create(width, height, format)  once, before any frame
 *   set_param(index, value)        once for every declared param (given or default value)
 *   process(in, out)               once per frame, in presentation order
 *   flush()                        when the input has ended
 *   destroy()                      always last, also after an error
 * The host never calls one instance from two threads at once. Callbacks that can fail return
 * 0 on success and non-zero on failure, writing a one-line message into `error->message`.
 *
 * Changing any struct or callback here means a new MG_PLUGIN_ABI_VERSION.
 */
#ifndef MEDIAGRAPH_PLUGIN_H
#define MEDIAGRAPH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this interface. A plugin stores the value it was compiled with. */
#define MG_PLUGIN_ABI_VERSION 1u

/** The symbol the host looks up with dlsym. */
#define MG_PLUGIN_ENTRY_SYMBOL "mediagraph_plugin_entry"

/** Pixel formats, 8 bits per component (the host's PixelFormat). */
typedef enum mg_pixel_format {
    MG_PIXEL_YUV420P = 0, /**< planar Y, U, V; chroma half width, half height (rounded up) */
    MG_PIXEL_YUV422P = 1, /**< planar Y, U, V; chroma half width */
    MG_PIXEL_YUV444P = 2, /**< planar Y, U, V; full size chroma */
    MG_PIXEL_RGBA = 3,    /**< one plane, bytes R G B A per pixel */
    MG_PIXEL_BGRA = 4,    /**< one plane, bytes B G R A per pixel */
    MG_PIXEL_GRAY = 5     /**< one plane, one byte per pixel */
} mg_pixel_format;

/** One video frame. Planes belong to the host; a plugin never frees or keeps them. */
typedef struct mg_frame {
    int32_t format;         /**< an mg_pixel_format */
    int32_t width;          /**< pixels */
    int32_t height;         /**< rows */
    int32_t plane_count;    /**< 1 or 3 */
    uint8_t *planes[4];     /**< first byte of each plane (unused entries NULL) */
    int64_t strides[4];     /**< bytes from one row to the next, per plane */
    int64_t pts;            /**< presentation time in time_base units (INT64_MIN: unknown) */
    int32_t time_base_num;  /**< seconds per pts tick = num / den */
    int32_t time_base_den;
} mg_frame;

/** Param types. */
typedef enum mg_param_type {
    MG_PARAM_DOUBLE = 0, /**< a number, optionally within [min, max] */
    MG_PARAM_INT = 1,    /**< an integer, optionally within [min, max] */
    MG_PARAM_BOOL = 2,   /**< true/false (number 0 or 1) */
    MG_PARAM_STRING = 3  /**< text */
} mg_param_type;

/** The declaration of one param: shown by `mediagraph nodes` and validated by the host. */
typedef struct mg_param_desc {
    const char *name;           /**< an identifier: letters, digits, '_' */
    int32_t type;               /**< an mg_param_type */
    const char *doc;            /**< one line */
    double default_number;      /**< default for DOUBLE, INT, BOOL */
    const char *default_string; /**< default for STRING (NULL: empty) */
    int32_t has_range;          /**< non-zero: the value must be within [min, max] */
    double min;
    double max;
} mg_param_desc;

/** A param value as set_param receives it. */
typedef struct mg_param_value {
    int32_t type;       /**< the declared mg_param_type */
    double number;      /**< DOUBLE, INT, BOOL (0 or 1) */
    const char *string; /**< STRING: valid only during the call */
} mg_param_value;

/** Where a failing callback writes its message. */
typedef struct mg_error {
    char message[512];
} mg_error;

/** Node flags. */
enum {
    /** process() may be called with `in` and `out` describing the same planes. */
    MG_NODE_IN_PLACE = 1u << 0
};

/** One node type. */
typedef struct mg_node_desc {
    const char *name;                /**< the graph file's "type"; unique across all plugins */
    const char *doc;                 /**< one line */
    const int32_t *formats;          /**< accepted mg_pixel_format values, preferred first */
    int32_t format_count;
    const mg_param_desc *params;
    int32_t param_count;
    uint32_t flags;                  /**< MG_NODE_* */
    void *node_data;                 /**< passed back to create() unchanged */

    /** A new instance for frames of this size and format, or NULL with `error` filled. */
    void *(*create)(void *node_data, int32_t width, int32_t height, int32_t format, mg_error *error);
    /** Sets param `index` (into `params`). */
    int (*set_param)(void *instance, int32_t index, const mg_param_value *value, mg_error *error);
    /** Writes `out` from `in` (same format and size). */
    int (*process)(void *instance, const mg_frame *in, mg_frame *out, mg_error *error);
    /** The input has ended (may be NULL). */
    int (*flush)(void *instance, mg_error *error);
    /** Releases the instance. */
    void (*destroy)(void *instance);
} mg_node_desc;

/** What mediagraph_plugin_entry returns; it stays valid while the library is loaded. */
typedef struct mg_plugin_desc {
    uint32_t abi_version;        /**< MG_PLUGIN_ABI_VERSION as the plugin was compiled; checked first */
    const char *name;            /**< the plugin's name, for `mediagraph plugins` */
    const char *version;         /**< the plugin's own version text */
    const mg_node_desc *nodes;
    int32_t node_count;
} mg_plugin_desc;

/** The entry point every plugin exports. */
typedef const mg_plugin_desc *(*mg_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif
#endif
"""#
}
