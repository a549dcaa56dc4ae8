// FreeType renders the glyphs of `drawtext` (the same library and calls as ffmpeg's drawtext, so
// the same coverage bitmaps); fontconfig finds a font file by family name.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H
#include FT_STROKER_H
#include <fontconfig/fontconfig.h>
