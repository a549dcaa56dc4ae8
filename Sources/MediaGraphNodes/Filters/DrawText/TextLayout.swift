import MediaGraphCodecs

/// Each character's glyph, rendered the first time the text uses it.
final class GlyphCache {
    let face: FontFace
    private var glyphs: [UInt32: RenderedGlyph] = [:]
    private var bytes = 0
    /// Coverage bytes kept at most: thousands of distinct characters at a large size (a text file
    /// of CJK at 1000 pixels) would otherwise hold gigabytes. Past it the cache starts over; a
    /// glyph dropped mid-frame is rendered again, so memory stays bounded and the text right.
    static let byteLimit = 64 << 20

    init(face: FontFace) { self.face = face }

    func glyph(_ code: UInt32) throws -> RenderedGlyph {
        if let g = glyphs[code] { return g }
        let g = try face.glyph(code)
        let size = g.bitmap.coverage.count + (g.border?.coverage.count ?? 0) + 64
        if bytes + size > Self.byteLimit { glyphs.removeAll(keepingCapacity: true); bytes = 0 }
        glyphs[code] = g
        bytes += size
        return g
    }
}

/// Text placed as ffmpeg 5.1's drawtext places it: every line is as tall as the tallest glyph of
/// the whole text (from the lowest descent to the highest ascent, newline characters included,
/// as ffmpeg measures them), glyph tops hang from the text's highest ascent, pens advance by
/// whole pixels with the font's kerning, a tab moves to the next multiple of `tabSize` pixels,
/// and "\r\n" is one line break ("\n", "\r", "\f" and "\v" each break the line).
struct TextLayout {
    /// A glyph to draw: its character and the top-left corner of its bitmap, relative to the
    /// text's top-left corner.
    struct Placed {
        var code: UInt32
        var x: Int
        var y: Int
    }

    var placed: [Placed] = []
    /// The longest line's advance (text_w) and the lines' total height (text_h).
    var width = 0, height = 0
    /// The highest glyph top above the baseline (ascent) and the lowest bottom (descent, ≤ 0).
    var ascent = 0, descent = 0
    var maxGlyphWidth = 0, maxGlyphHeight = 0

    init(_ text: String, glyphs: GlyphCache, lineSpacing: Int, tabSize: Int) throws {
        let codes = text.unicodeScalars.map(\.value)
        var yMin = 32000, yMax = -32000, xMin = 32000, xMax = -32000
        for c in codes {
            let g = try glyphs.glyph(c)
            yMin = min(yMin, g.yMin); yMax = max(yMax, g.yMax)
            xMin = min(xMin, g.xMin); xMax = max(xMax, g.xMax)
        }
        if codes.isEmpty { yMin = 0; yMax = 0; xMin = 0; xMax = 0 }
        maxGlyphHeight = yMax - yMin
        maxGlyphWidth = xMax - xMin
        ascent = yMax
        descent = yMin
        var x = 0, y = 0, widest = 0
        var previous: UInt32 = 0, previousGlyph: UInt32?
        for c in codes {
            if previous == 0x0D && c == 0x0A { continue }
            previous = c
            if Self.isNewline(c) {
                widest = max(widest, x)
                y += maxGlyphHeight + lineSpacing
                x = 0
                continue
            }
            let g = try glyphs.glyph(c)
            if let p = previousGlyph, c != 0 { x += glyphs.face.kerning(p, c) }
            previousGlyph = c
            if c != 0x09 { placed.append(Placed(code: c, x: x + g.bitmap.left, y: y - g.bitmap.top + yMax)) }
            x = c == 0x09 ? (x / max(tabSize, 1) + 1) * max(tabSize, 1) : x + g.advance
        }
        width = max(widest, x)
        height = y + maxGlyphHeight
    }

    static func isNewline(_ c: UInt32) -> Bool { c == 0x0A || c == 0x0D || c == 0x0C || c == 0x0B }
}
