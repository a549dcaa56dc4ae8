// libass renders ASS/SSA subtitles for the `ass` node: the same library and calls as ffmpeg's
// ass filter (vf_subtitles.c), so the same coverage bitmaps to blend.
#include <ass/ass.h>
