#include <vpx/vpx_encoder.h>
#include <vpx/vp8cx.h>
#include <vpx/vpx_image.h>

// vpx_codec_control() is a variadic macro that Swift cannot call: one typed entry per argument
// type the encoders use, and the init macro (it passes the ABI version).
static inline vpx_codec_err_t mg_vpx_control_int(vpx_codec_ctx_t *ctx, int id, int value) {
    return vpx_codec_control_(ctx, id, value);
}
static inline vpx_codec_err_t mg_vpx_control_uint(vpx_codec_ctx_t *ctx, int id, unsigned int value) {
    return vpx_codec_control_(ctx, id, value);
}
static inline vpx_codec_err_t mg_vpx_enc_init(vpx_codec_ctx_t *ctx, vpx_codec_iface_t *iface,
                                              const vpx_codec_enc_cfg_t *cfg, vpx_codec_flags_t flags) {
    return vpx_codec_enc_init(ctx, iface, cfg, flags);
}
