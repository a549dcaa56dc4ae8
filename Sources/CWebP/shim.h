#include <webp/encode.h>
#include <webp/mux.h>
// the animation decoder: the tests read our animated WebP back with libwebp's own demuxer
// (ffmpeg 5.1 cannot decode animated WebP)
#include <webp/demux.h>
