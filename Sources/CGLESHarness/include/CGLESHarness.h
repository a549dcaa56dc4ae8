// A tiny OpenGL ES 2 harness for the benchmarks: runs a GLSL ES fragment shader over rgba frames
// on whatever EGL gives (Mesa's llvmpipe with EGL_PLATFORM=surfaceless), with a full upload,
// draw and readback per frame. libEGL and libGLESv2 are opened at run time (dlopen), so the
// package builds and runs without them; `mg_gles_create` then fails with a message.
#ifndef CGLES_HARNESS_H
#define CGLES_HARNESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct MGGLES MGGLES;

/// Opens EGL and GLES 2, makes a context and a width x height rgba texture and framebuffer, and
/// compiles the two shaders (the vertex shader reads `attribute vec4 position` and
/// `attribute vec4 inputTextureCoordinate`, as GPUImage's do). NULL on failure, with the reason
/// in `error` (at most `errorSize` bytes, NUL-terminated).
MGGLES *mg_gles_create(int width, int height, const char *vertexSource, const char *fragmentSource,
                       char *error, size_t errorSize);

/// Sets a float uniform of 1 to 4 components; 0 if the shader has no such active uniform.
int mg_gles_uniform_float(MGGLES *gles, const char *name, int components, const float *values);

/// Sets a size x size float matrix uniform from column-major values; 0 if the shader has no such
/// active uniform.
int mg_gles_uniform_matrix(MGGLES *gles, const char *name, int size, const float *values);

/// Sets an int (or bool) uniform; 0 if the shader has no such active uniform.
int mg_gles_uniform_int(MGGLES *gles, const char *name, int value);

/// One frame: uploads `source` (width * height * 4 bytes, rows top first), draws, reads the
/// result back into `destination` (same layout). 0 on success, else the GL error code.
int mg_gles_frame(MGGLES *gles, const uint8_t *source, uint8_t *destination);

/// Makes a second input texture (unit 1) for a shader of two samplers, `firstSampler` on the
/// first texture (unit 0) and `secondSampler` on this one; the vertex attribute
/// `inputTextureCoordinate2` is the same quad's. 0 if GL failed.
int mg_gles_second_input(MGGLES *gles, const char *firstSampler, const char *secondSampler);

/// One frame of a two-input shader: uploads `source2` to the second texture, then as `mg_gles_frame`.
int mg_gles_frame2(MGGLES *gles, const uint8_t *source, const uint8_t *source2, uint8_t *destination);

/// The GL_RENDERER string ("llvmpipe (LLVM 15.0.6, 256 bits)"), for the report.
const char *mg_gles_renderer(MGGLES *gles);

void mg_gles_destroy(MGGLES *gles);

#endif
