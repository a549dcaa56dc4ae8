#include <libavcodec/avcodec.h>
#include <libavutil/opt.h>
#include <libavutil/imgutils.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/md5.h>
#include <libavutil/pixdesc.h>
#include <libavutil/tx.h>
#include <errno.h>

// Function-like macros do not reach Swift: expose the error codes the encoders test for.
static inline int mg_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int mg_averror_eof(void) { return AVERROR_EOF; }
static inline int mg_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int mg_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }

// libavcodec 59 warns about frame threading with a get_buffer2 callback unless this deprecated
// field says the callback is thread-safe (the field is gone in 60, where all must be).
static inline void mg_declare_thread_safe_callbacks(AVCodecContext *c) {
#if LIBAVCODEC_VERSION_MAJOR < 60
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    c->thread_safe_callbacks = 1;
#pragma clang diagnostic pop
#endif
}
