import CFreeType

/// A glyph's coverage as FreeType renders it: 8 bits a pixel (0 uncovered … 255 covered), `rows`
/// rows of `width` bytes, placed `left` pixels right of the pen and `top` pixels above the
/// baseline.
public struct GlyphBitmap: Sendable {
    public var coverage: [UInt8]
    public var width: Int
    public var rows: Int
    public var left: Int
    public var top: Int
}

/// One character of a font at one size, rendered as ffmpeg's drawtext renders it (FreeType's
/// default load flags, the normal anti-aliased render mode): the same library and calls, so the
/// same coverage bytes.
public struct RenderedGlyph: Sendable {
    public var bitmap: GlyphBitmap
    /// The outline of `border` pixels around it (FreeType's stroker, round caps and joins), when
    /// the face was opened with a border.
    public var border: GlyphBitmap?
    /// Pen advance in whole pixels (the 26.6 advance, truncated).
    public var advance: Int
    /// The bitmap's box in pixels (FreeType's control box): y up from the baseline.
    public var xMin: Int, yMin: Int, xMax: Int, yMax: Int
}

/// An error opening a font or rendering one of its glyphs, with the file and FreeType's reason.
public struct FontError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A font file opened at one pixel size. Not shared between threads: each node opens its own.
public final class FontFace: @unchecked Sendable {
    private var library: FT_Library?
    private var face: FT_Face?
    private var stroker: FT_Stroker?
    public let path: String
    /// Whether the font has a kerning table FreeType reads (`FT_HAS_KERNING`).
    public let hasKerning: Bool

    /// Opens face `index` of `path` at `pixelSize` pixels (the em height, as ffmpeg's fontsize);
    /// `borderWidth` > 0 also strokes each glyph's outline that many pixels wide.
    public init(path: String, index: Int = 0, pixelSize: Int, borderWidth: Int = 0) throws {
        self.path = path
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw FontError("FreeType could not start") }
        library = lib
        var f: FT_Face?
        let err = FT_New_Face(lib, path, FT_Long(index), &f)
        guard err == 0, let f else {
            FT_Done_FreeType(lib)
            throw FontError("cannot open font '\(path)': " + (err == 1 ? "no such file or not readable" : "not a font FreeType reads (FreeType error \(err))"))
        }
        face = f
        hasKerning = (f.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0
        if FT_Set_Pixel_Sizes(f, 0, FT_UInt(pixelSize)) != 0 {
            FT_Done_Face(f); FT_Done_FreeType(lib)
            throw FontError("font '\(path)' has no size \(pixelSize) (a bitmap font offers only its own sizes)")
        }
        if borderWidth > 0 {
            var s: FT_Stroker?
            guard FT_Stroker_New(lib, &s) == 0, let s else {
                FT_Done_Face(f); FT_Done_FreeType(lib)
                throw FontError("FreeType could not make a stroker for the border")
            }
            FT_Stroker_Set(s, FT_Fixed(borderWidth << 6), FT_STROKER_LINECAP_ROUND, FT_STROKER_LINEJOIN_ROUND, 0)
            stroker = s
        }
    }

    deinit {
        if let stroker { FT_Stroker_Done(stroker) }
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// Renders character `code` (a Unicode scalar; one the font lacks renders as its missing
    /// glyph, as in ffmpeg).
    public func glyph(_ code: UInt32) throws -> RenderedGlyph {
        guard let face else { throw FontError("font '\(path)' is closed") }
        if FT_Load_Char(face, FT_ULong(code), FT_Int32(FT_LOAD_DEFAULT)) != 0 {
            throw FontError("font '\(path)' cannot load the glyph of U+\(String(code, radix: 16, uppercase: true))")
        }
        var g: FT_Glyph?
        guard FT_Get_Glyph(face.pointee.glyph, &g) == 0, var glyph = g else {
            throw FontError("font '\(path)': FreeType could not copy the glyph of U+\(String(code, radix: 16, uppercase: true))")
        }
        var border: GlyphBitmap?
        if let stroker {
            var stroked: FT_Glyph? = glyph
            // destroy = 0: the outline stays for the fill below
            guard FT_Glyph_StrokeBorder(&stroked, stroker, 0, 0) == 0,
                  FT_Glyph_To_Bitmap(&stroked, FT_RENDER_MODE_NORMAL, nil, 1) == 0, let s = stroked else {
                FT_Done_Glyph(glyph)
                throw FontError("font '\(path)': FreeType could not stroke the glyph of U+\(String(code, radix: 16, uppercase: true))")
            }
            border = Self.bitmap(of: s)
            FT_Done_Glyph(s)
        }
        var rendered: FT_Glyph? = glyph
        guard FT_Glyph_To_Bitmap(&rendered, FT_RENDER_MODE_NORMAL, nil, 1) == 0, let r = rendered else {
            FT_Done_Glyph(glyph)
            throw FontError("font '\(path)': FreeType could not render the glyph of U+\(String(code, radix: 16, uppercase: true))")
        }
        glyph = r
        defer { FT_Done_Glyph(glyph) }
        var box = FT_BBox()
        FT_Glyph_Get_CBox(glyph, FT_UInt(FT_GLYPH_BBOX_PIXELS.rawValue), &box)
        return RenderedGlyph(bitmap: Self.bitmap(of: glyph), border: border,
                             advance: Int(face.pointee.glyph.pointee.advance.x >> 6),
                             xMin: Int(box.xMin), yMin: Int(box.yMin), xMax: Int(box.xMax), yMax: Int(box.yMax))
    }

    /// Kerning between two characters in whole pixels (0 for fonts without a kerning table).
    public func kerning(_ left: UInt32, _ right: UInt32) -> Int {
        guard hasKerning, let face else { return 0 }
        var delta = FT_Vector()
        let l = FT_Get_Char_Index(face, FT_ULong(left)), r = FT_Get_Char_Index(face, FT_ULong(right))
        guard FT_Get_Kerning(face, l, r, FT_KERNING_DEFAULT.rawValue, &delta) == 0 else { return 0 }
        return Int(delta.x >> 6)
    }

    /// The coverage of a bitmap glyph as 8-bit bytes (a 1-bit bitmap's set pixels become 255).
    private static func bitmap(of glyph: FT_Glyph) -> GlyphBitmap {
        let bg = UnsafeMutableRawPointer(glyph).assumingMemoryBound(to: FT_BitmapGlyphRec.self)
        let b = bg.pointee.bitmap
        let w = Int(b.width), h = Int(b.rows), pitch = Int(b.pitch)
        var coverage = [UInt8](repeating: 0, count: w * h)
        if let buffer = b.buffer, w > 0, h > 0 {
            let mono = b.pixel_mode == UInt8(FT_PIXEL_MODE_MONO.rawValue)
            for y in 0..<h {
                // a negative pitch stores rows bottom up
                let row = buffer + (pitch >= 0 ? y * pitch : (h - 1 - y) * -pitch)
                for x in 0..<w {
                    coverage[y * w + x] = mono ? ((row[x >> 3] >> (7 - UInt8(x & 7))) & 1) * 255 : row[x]
                }
            }
        }
        return GlyphBitmap(coverage: coverage, width: w, rows: h, left: Int(bg.pointee.left), top: Int(bg.pointee.top))
    }
}
