// The benchmarks' OpenGL ES 2 harness (see the header). EGL and GL entry points are looked up
// with dlopen/dlsym, and the few types and constants it needs are spelled here (values from the
// Khronos registry), so neither the libraries nor their headers are needed to build.
#include "CGLESHarness.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *EGLDisplay, *EGLConfig, *EGLContext, *EGLSurface;
typedef int32_t EGLint;
typedef unsigned int EGLBoolean, EGLenum;
typedef unsigned int GLenum, GLuint, GLbitfield;
typedef int GLint, GLsizei;
typedef float GLfloat;
typedef unsigned char GLboolean, GLubyte;
typedef char GLchar;

enum {
    EGL_ALPHA_SIZE = 0x3021, EGL_BLUE_SIZE = 0x3022, EGL_GREEN_SIZE = 0x3023, EGL_RED_SIZE = 0x3024,
    EGL_SURFACE_TYPE = 0x3033, EGL_NONE = 0x3038, EGL_RENDERABLE_TYPE = 0x3040,
    EGL_PBUFFER_BIT = 0x0001, EGL_OPENGL_ES2_BIT = 0x0004, EGL_CONTEXT_CLIENT_VERSION = 0x3098,
    EGL_OPENGL_ES_API = 0x30A0, EGL_PLATFORM_SURFACELESS_MESA = 0x31DD,
};
enum {
    GL_TRIANGLE_STRIP = 0x0005, GL_UNPACK_ALIGNMENT = 0x0CF5, GL_PACK_ALIGNMENT = 0x0D05,
    GL_TEXTURE_2D = 0x0DE1, GL_UNSIGNED_BYTE = 0x1401, GL_FLOAT = 0x1406, GL_RGBA = 0x1908,
    GL_RENDERER = 0x1F01, GL_LINEAR = 0x2601, GL_TEXTURE_MAG_FILTER = 0x2800,
    GL_TEXTURE_MIN_FILTER = 0x2801, GL_TEXTURE_WRAP_S = 0x2802, GL_TEXTURE_WRAP_T = 0x2803,
    GL_CLAMP_TO_EDGE = 0x812F, GL_TEXTURE0 = 0x84C0, GL_FRAGMENT_SHADER = 0x8B30,
    GL_VERTEX_SHADER = 0x8B31, GL_COMPILE_STATUS = 0x8B81, GL_LINK_STATUS = 0x8B82,
    GL_FRAMEBUFFER_COMPLETE = 0x8CD5, GL_COLOR_ATTACHMENT0 = 0x8CE0, GL_FRAMEBUFFER = 0x8D40,
};

// Every entry point used, as a table of function pointers filled by name.
#define EGL_FUNCTIONS(X) \
    X(EGLDisplay, eglGetDisplay, (void *)) \
    X(EGLBoolean, eglInitialize, (EGLDisplay, EGLint *, EGLint *)) \
    X(EGLBoolean, eglBindAPI, (EGLenum)) \
    X(EGLBoolean, eglChooseConfig, (EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *)) \
    X(EGLContext, eglCreateContext, (EGLDisplay, EGLConfig, EGLContext, const EGLint *)) \
    X(EGLBoolean, eglMakeCurrent, (EGLDisplay, EGLSurface, EGLSurface, EGLContext)) \
    X(EGLBoolean, eglDestroyContext, (EGLDisplay, EGLContext)) \
    X(EGLBoolean, eglTerminate, (EGLDisplay)) \
    X(EGLint, eglGetError, (void))
#define GL_FUNCTIONS(X) \
    X(GLuint, glCreateShader, (GLenum)) \
    X(void, glShaderSource, (GLuint, GLsizei, const GLchar *const *, const GLint *)) \
    X(void, glCompileShader, (GLuint)) \
    X(void, glGetShaderiv, (GLuint, GLenum, GLint *)) \
    X(void, glGetShaderInfoLog, (GLuint, GLsizei, GLsizei *, GLchar *)) \
    X(void, glDeleteShader, (GLuint)) \
    X(GLuint, glCreateProgram, (void)) \
    X(void, glAttachShader, (GLuint, GLuint)) \
    X(void, glBindAttribLocation, (GLuint, GLuint, const GLchar *)) \
    X(void, glLinkProgram, (GLuint)) \
    X(void, glGetProgramiv, (GLuint, GLenum, GLint *)) \
    X(void, glGetProgramInfoLog, (GLuint, GLsizei, GLsizei *, GLchar *)) \
    X(void, glUseProgram, (GLuint)) \
    X(void, glDeleteProgram, (GLuint)) \
    X(GLint, glGetUniformLocation, (GLuint, const GLchar *)) \
    X(void, glUniform1fv, (GLint, GLsizei, const GLfloat *)) \
    X(void, glUniform2fv, (GLint, GLsizei, const GLfloat *)) \
    X(void, glUniform3fv, (GLint, GLsizei, const GLfloat *)) \
    X(void, glUniform4fv, (GLint, GLsizei, const GLfloat *)) \
    X(void, glUniform1i, (GLint, GLint)) \
    X(void, glUniformMatrix2fv, (GLint, GLsizei, GLboolean, const GLfloat *)) \
    X(void, glUniformMatrix3fv, (GLint, GLsizei, GLboolean, const GLfloat *)) \
    X(void, glUniformMatrix4fv, (GLint, GLsizei, GLboolean, const GLfloat *)) \
    X(void, glGenTextures, (GLsizei, GLuint *)) \
    X(void, glDeleteTextures, (GLsizei, const GLuint *)) \
    X(void, glBindTexture, (GLenum, GLuint)) \
    X(void, glActiveTexture, (GLenum)) \
    X(void, glTexParameteri, (GLenum, GLenum, GLint)) \
    X(void, glTexImage2D, (GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void *)) \
    X(void, glTexSubImage2D, (GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, const void *)) \
    X(void, glGenFramebuffers, (GLsizei, GLuint *)) \
    X(void, glDeleteFramebuffers, (GLsizei, const GLuint *)) \
    X(void, glBindFramebuffer, (GLenum, GLuint)) \
    X(void, glFramebufferTexture2D, (GLenum, GLenum, GLenum, GLuint, GLint)) \
    X(GLenum, glCheckFramebufferStatus, (GLenum)) \
    X(void, glViewport, (GLint, GLint, GLsizei, GLsizei)) \
    X(void, glVertexAttribPointer, (GLuint, GLint, GLenum, GLboolean, GLsizei, const void *)) \
    X(void, glEnableVertexAttribArray, (GLuint)) \
    X(void, glDrawArrays, (GLenum, GLint, GLsizei)) \
    X(void, glPixelStorei, (GLenum, GLint)) \
    X(void, glReadPixels, (GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *)) \
    X(GLenum, glGetError, (void)) \
    X(const GLubyte *, glGetString, (GLenum))

#define DECLARE(ret, name, args) ret (*name) args;
struct MGGLES {
    void *egl, *gles;
    EGL_FUNCTIONS(DECLARE)
    GL_FUNCTIONS(DECLARE)
    EGLDisplay (*eglGetPlatformDisplay)(EGLenum, void *, const intptr_t *);
    EGLDisplay display;
    EGLContext context;
    GLuint program, input, input2, output, framebuffer;
    int width, height;
};
#undef DECLARE

static void fail(char *error, size_t size, const char *format, ...) {
    if (!error || size == 0) return;
    va_list list;
    va_start(list, format);
    vsnprintf(error, size, format, list);
    va_end(list);
}

static void *open_first(const char *a, const char *b) {
    void *h = dlopen(a, RTLD_NOW | RTLD_LOCAL);
    return h ? h : dlopen(b, RTLD_NOW | RTLD_LOCAL);
}

static GLuint compile(MGGLES *g, GLenum kind, const char *source, char *error, size_t size) {
    GLuint s = g->glCreateShader(kind);
    g->glShaderSource(s, 1, &source, NULL);
    g->glCompileShader(s);
    GLint ok = 0;
    g->glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {0};
        g->glGetShaderInfoLog(s, sizeof log - 1, NULL, log);
        fail(error, size, "%s shader does not compile: %s", kind == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
        g->glDeleteShader(s);
        return 0;
    }
    return s;
}

MGGLES *mg_gles_create(int width, int height, const char *vertexSource, const char *fragmentSource,
                       char *error, size_t errorSize) {
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
        fail(error, errorSize, "frame size %dx%d out of range", width, height);
        return NULL;
    }
    MGGLES *g = calloc(1, sizeof *g);
    if (!g) { fail(error, errorSize, "out of memory"); return NULL; }
    g->width = width; g->height = height;
    g->egl = open_first("libEGL.so.1", "libEGL.so");
    g->gles = open_first("libGLESv2.so.2", "libGLESv2.so");
    if (!g->egl || !g->gles) {
        fail(error, errorSize, "libEGL.so.1 or libGLESv2.so.2 not found (Debian: apt-get install libegl1 libegl-mesa0 libgles2)");
        mg_gles_destroy(g);
        return NULL;
    }
#define LOAD_EGL(ret, name, args) \
    if (!(g->name = (ret (*) args)dlsym(g->egl, #name))) { fail(error, errorSize, "%s not found in libEGL", #name); mg_gles_destroy(g); return NULL; }
#define LOAD_GL(ret, name, args) \
    if (!(g->name = (ret (*) args)dlsym(g->gles, #name))) { fail(error, errorSize, "%s not found in libGLESv2", #name); mg_gles_destroy(g); return NULL; }
    EGL_FUNCTIONS(LOAD_EGL)
    GL_FUNCTIONS(LOAD_GL)
    g->eglGetPlatformDisplay = (EGLDisplay (*)(EGLenum, void *, const intptr_t *))dlsym(g->egl, "eglGetPlatformDisplay");

    // Surfaceless: no window system; the context renders into a framebuffer object (the config
    // asks for pbuffer support since EGL_SURFACE_TYPE defaults to windows, which it has none of).
    g->display = g->eglGetPlatformDisplay ? g->eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, NULL, NULL) : NULL;
    if (!g->display) g->display = g->eglGetDisplay(NULL);
    EGLint major = 0, minor = 0;
    if (!g->display || !g->eglInitialize(g->display, &major, &minor)) {
        fail(error, errorSize, "eglInitialize failed (EGL error 0x%x; set EGL_PLATFORM=surfaceless)", g->eglGetError());
        mg_gles_destroy(g);
        return NULL;
    }
    g->eglBindAPI(EGL_OPENGL_ES_API);
    const EGLint attributes[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                  EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE };
    EGLConfig config = NULL;
    EGLint configs = 0;
    if (!g->eglChooseConfig(g->display, attributes, &config, 1, &configs) || configs < 1) {
        fail(error, errorSize, "no EGL config for OpenGL ES 2 rgba8 (EGL error 0x%x)", g->eglGetError());
        mg_gles_destroy(g);
        return NULL;
    }
    const EGLint contextAttributes[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    g->context = g->eglCreateContext(g->display, config, NULL, contextAttributes);
    if (!g->context || !g->eglMakeCurrent(g->display, NULL, NULL, g->context)) {
        fail(error, errorSize, "no surfaceless OpenGL ES 2 context (EGL error 0x%x)", g->eglGetError());
        mg_gles_destroy(g);
        return NULL;
    }

    GLuint vs = compile(g, GL_VERTEX_SHADER, vertexSource, error, errorSize);
    if (!vs) { mg_gles_destroy(g); return NULL; }
    GLuint fs = compile(g, GL_FRAGMENT_SHADER, fragmentSource, error, errorSize);
    if (!fs) { g->glDeleteShader(vs); mg_gles_destroy(g); return NULL; }
    g->program = g->glCreateProgram();
    g->glAttachShader(g->program, vs);
    g->glAttachShader(g->program, fs);
    g->glBindAttribLocation(g->program, 0, "position");
    g->glBindAttribLocation(g->program, 1, "inputTextureCoordinate");
    g->glBindAttribLocation(g->program, 2, "inputTextureCoordinate2");
    g->glLinkProgram(g->program);
    g->glDeleteShader(vs);
    g->glDeleteShader(fs);
    GLint linked = 0;
    g->glGetProgramiv(g->program, GL_LINK_STATUS, &linked);
    if (!linked) {
        char log[1024] = {0};
        g->glGetProgramInfoLog(g->program, sizeof log - 1, NULL, log);
        fail(error, errorSize, "shaders do not link: %s", log);
        mg_gles_destroy(g);
        return NULL;
    }
    g->glUseProgram(g->program);

    // Input texture (unit 0): bilinear, clamp to edge, as GPUImage sets its textures.
    g->glGenTextures(1, &g->input);
    g->glActiveTexture(GL_TEXTURE0);
    g->glBindTexture(GL_TEXTURE_2D, g->input);
    g->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    g->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    g->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    g->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    g->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    GLint sampler = g->glGetUniformLocation(g->program, "inputImageTexture");
    if (sampler >= 0) g->glUniform1i(sampler, 0);

    // Output: an rgba8 texture behind a framebuffer object.
    g->glGenTextures(1, &g->output);
    g->glBindTexture(GL_TEXTURE_2D, g->output);
    g->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    g->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    g->glGenFramebuffers(1, &g->framebuffer);
    g->glBindFramebuffer(GL_FRAMEBUFFER, g->framebuffer);
    g->glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g->output, 0);
    if (g->glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fail(error, errorSize, "rgba8 framebuffer of %dx%d is not complete", width, height);
        mg_gles_destroy(g);
        return NULL;
    }
    g->glBindTexture(GL_TEXTURE_2D, g->input);
    g->glViewport(0, 0, width, height);
    g->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    g->glPixelStorei(GL_PACK_ALIGNMENT, 4);

    // The full-frame quad; texture row 0 (the frame's first row) is at window row 0, so the
    // readback has the frame's row order.
    static const GLfloat positions[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
    static const GLfloat coordinates[] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    g->glVertexAttribPointer(0, 2, GL_FLOAT, 0, 0, positions);
    g->glEnableVertexAttribArray(0);
    g->glVertexAttribPointer(1, 2, GL_FLOAT, 0, 0, coordinates);
    g->glEnableVertexAttribArray(1);
    g->glVertexAttribPointer(2, 2, GL_FLOAT, 0, 0, coordinates);
    g->glEnableVertexAttribArray(2);
    GLenum e = g->glGetError();
    if (e != 0) {
        fail(error, errorSize, "GL error 0x%x while setting up", e);
        mg_gles_destroy(g);
        return NULL;
    }
    return g;
}

int mg_gles_uniform_float(MGGLES *g, const char *name, int components, const float *values) {
    GLint at = g->glGetUniformLocation(g->program, name);
    if (at < 0) return 0;
    switch (components) {
    case 1: g->glUniform1fv(at, 1, values); break;
    case 2: g->glUniform2fv(at, 1, values); break;
    case 3: g->glUniform3fv(at, 1, values); break;
    case 4: g->glUniform4fv(at, 1, values); break;
    default: return 0;
    }
    return 1;
}

int mg_gles_uniform_matrix(MGGLES *g, const char *name, int size, const float *values) {
    GLint at = g->glGetUniformLocation(g->program, name);
    if (at < 0) return 0;
    switch (size) {
    case 2: g->glUniformMatrix2fv(at, 1, 0, values); break;
    case 3: g->glUniformMatrix3fv(at, 1, 0, values); break;
    case 4: g->glUniformMatrix4fv(at, 1, 0, values); break;
    default: return 0;
    }
    return 1;
}

int mg_gles_uniform_int(MGGLES *g, const char *name, int value) {
    GLint at = g->glGetUniformLocation(g->program, name);
    if (at < 0) return 0;
    g->glUniform1i(at, value);
    return 1;
}

int mg_gles_frame(MGGLES *g, const uint8_t *source, uint8_t *destination) {
    g->glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, g->width, g->height, GL_RGBA, GL_UNSIGNED_BYTE, source);
    g->glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    // glReadPixels waits for the draw to finish.
    g->glReadPixels(0, 0, g->width, g->height, GL_RGBA, GL_UNSIGNED_BYTE, destination);
    return (int)g->glGetError();
}

int mg_gles_second_input(MGGLES *g, const char *firstSampler, const char *secondSampler) {
    // A sampler the GLSL compiler found unused is not active (location -1): the texture is
    // still made and uploaded, as the filter would.
    GLint first = g->glGetUniformLocation(g->program, firstSampler);
    GLint sampler = g->glGetUniformLocation(g->program, secondSampler);
    if (first >= 0) g->glUniform1i(first, 0);
    g->glGenTextures(1, &g->input2);
    g->glActiveTexture(GL_TEXTURE0 + 1);
    g->glBindTexture(GL_TEXTURE_2D, g->input2);
    g->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    g->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    g->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    g->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    g->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, g->width, g->height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    if (sampler >= 0) g->glUniform1i(sampler, 1);
    g->glActiveTexture(GL_TEXTURE0);
    return g->glGetError() == 0;
}

int mg_gles_frame2(MGGLES *g, const uint8_t *source, const uint8_t *source2, uint8_t *destination) {
    g->glActiveTexture(GL_TEXTURE0 + 1);
    g->glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, g->width, g->height, GL_RGBA, GL_UNSIGNED_BYTE, source2);
    g->glActiveTexture(GL_TEXTURE0);
    return mg_gles_frame(g, source, destination);
}

const char *mg_gles_renderer(MGGLES *g) {
    const GLubyte *s = g->glGetString(GL_RENDERER);
    return s ? (const char *)s : "unknown";
}

void mg_gles_destroy(MGGLES *g) {
    if (!g) return;
    if (g->context && g->glDeleteProgram) {
        if (g->program) g->glDeleteProgram(g->program);
        if (g->input) g->glDeleteTextures(1, &g->input);
        if (g->input2) g->glDeleteTextures(1, &g->input2);
        if (g->output) g->glDeleteTextures(1, &g->output);
        if (g->framebuffer) g->glDeleteFramebuffers(1, &g->framebuffer);
    }
    if (g->display && g->eglMakeCurrent) {
        g->eglMakeCurrent(g->display, NULL, NULL, NULL);
        if (g->context) g->eglDestroyContext(g->display, g->context);
        g->eglTerminate(g->display);
    }
    // The libraries stay loaded: Mesa's threads and atexit handlers may still refer to them.
    free(g);
}
