#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <errno.h>
