import MediaGraphCore
import MediaGraphKernels
import MediaGraphCodecs

/// `drawtext`: text drawn on every frame with FreeType, as ffmpeg 5.1's drawtext draws it (the
/// same glyph bitmaps, layout and blending arithmetic, so the same bytes on BT.601 and RGB
/// frames), with its expansion (`%{pts:hms}`, `%{n}`, `%{eif:…}`) and expressions for the
/// position, the opacity and when to draw. Colours on YUV frames use the frame's own matrix and
/// range (ffmpeg 5.1 always uses BT.601 limited range). In place when the frame is not shared.
public final class DrawTextNode: RegisteredNode, VideoNode {
    static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p, .yuv420p10, .yuv422p10, .yuv444p10, .rgba, .bgra, .gray]
    public static let typeInfo = NodeTypeInfo(
        name: "drawtext",
        doc: "Draws text on the video with FreeType (ffmpeg's drawtext: the same glyphs, layout and bytes): a font file or fontconfig name, size, colour, position expressions such as (w-text_w)/2, a box, border and shadow, %{pts:hms} / %{n} / %{eif:…} expansion, and 'enable' and 'alpha' expressions over time (Docs/filters.md).",
        category: .filter,
        inputs: [PortSpec("in", .video(formats), doc: "raw video")],
        outputs: [PortSpec("out", .video(formats), doc: "the frames with the text (in place when possible)")],
        params: ParamSpec.list(textParam, textFileParam, expansionParam, fontFileParam, fontParam, sizeParam, colorParam,
                               xParam, yParam, alphaParam, enableParam, boxParam, boxColorParam, boxBorderParam,
                               borderParam, borderColorParam, shadowXParam, shadowYParam, shadowColorParam,
                               lineSpacingParam, tabSizeParam, startNumberParam))

    static let textParam = Param<String?>("text", doc: "the text; %{…} is expanded per frame unless 'expansion' is none (Docs/filters.md lists the functions); \\ escapes the next character")
    static let textFileParam = Param<String?>.path("text-file", role: .input, doc: "read the text from this UTF-8 file instead (once, at the start)")
    static let expansionParam = Param<String>("expansion", oneOf: ["normal", "none"], default: "normal", doc: "normal: expand %{…} and \\; none: draw the text as written")
    static let fontFileParam = Param<String?>.path("font-file", role: .input, doc: "a TrueType/OpenType font file; default: the font fontconfig matches to 'font'")
    static let fontParam = Param<String>("font", default: "Sans", doc: "a fontconfig font name (\"DejaVu Serif\", \"Sans:bold\"), used without 'font-file'")
    static let sizeParam = Param<Int?>("size", 1...1000, doc: "font size in pixels (the em height); default 16 with 'font-file', fontconfig's size for 'font' (12), as ffmpeg")
    static let colorParam = Param<String>("color", default: "black", doc: "text colour: a name, #RRGGBB[AA] or 0xRRGGBB[AA], optionally @alpha (ffmpeg's colour syntax)")
    static let xParam = ExpressionParam.with("x", default: "0", doc: "left edge of the text: a number or an expression of w, h, text_w, text_h, t, n, … (ffmpeg's, e.g. (w-text_w)/2)")
    static let yParam = ExpressionParam.with("y", default: "0", doc: "top edge of the text: a number or an expression (e.g. h-text_h-10)")
    static let alphaParam = ExpressionParam.with("alpha", default: "1", doc: "opacity 0…1 of everything drawn: a number or an expression (e.g. if(lt(t,1),t,1) to fade in)")
    static let enableParam = ExpressionParam.with("enable", default: "1", doc: "draw only on frames where this is not 0: an expression of t, n (counted from 0), w and h (ffmpeg's enable, e.g. between(t,2,5))")
    static let boxParam = Param<Bool>("box", default: false, doc: "fill a box behind the text")
    static let boxColorParam = Param<String>("box-color", default: "white", doc: "the box's colour")
    static let boxBorderParam = Param<Int>("box-border", 0...1000, default: 0, doc: "pixels the box extends beyond the text on each side")
    static let borderParam = Param<Int>("border", 0...100, default: 0, doc: "width in pixels of an outline around each glyph")
    static let borderColorParam = Param<String>("border-color", default: "black", doc: "the outline's colour")
    static let shadowXParam = Param<Int>("shadow-x", -1000...1000, default: 0, doc: "horizontal offset of a shadow (0 and shadow-y 0: none)")
    static let shadowYParam = Param<Int>("shadow-y", -1000...1000, default: 0, doc: "vertical offset of a shadow")
    static let shadowColorParam = Param<String>("shadow-color", default: "black", doc: "the shadow's colour")
    static let lineSpacingParam = Param<Int>("line-spacing", -1000...1000, default: 0, doc: "extra pixels between lines")
    static let tabSizeParam = Param<Int>("tab-size", 1...100, default: 4, doc: "a tab advances to the next multiple of this many spaces")
    static let startNumberParam = Param<Int>("start-number", 0...Int(Int32.max), default: 0, doc: "the number of the first frame, for n and %{n}")

    /// The names expressions may use, in ffmpeg's meaning; `Variable` gives their slots.
    static let variables = ["dar", "hsub", "vsub", "line_h", "lh", "main_h", "h", "H", "main_w", "w", "W",
                            "max_glyph_a", "ascent", "max_glyph_d", "descent", "max_glyph_h", "max_glyph_w",
                            "n", "sar", "t", "text_h", "th", "text_w", "tw", "x", "y"]
    /// ffmpeg's timeline variables, which `enable` reads: n counts from 0 whatever `start-number`.
    static let enableVariables = ["t", "n", "w", "h"]
    enum Variable: Int {
        case dar, hsub, vsub, lineH, lh, mainH, h, H, mainW, w, W, maxGlyphA, ascent, maxGlyphD, descent
        case maxGlyphH, maxGlyphW, n, sar, t, textH, th, textW, tw, x, y
    }

    let template: TextTemplate
    let x: NumericExpression, y: NumericExpression, alpha: NumericExpression, enable: NumericExpression
    let glyphs: GlyphCache
    let colors: (text: RGBAColor, box: RGBAColor, border: RGBAColor, shadow: RGBAColor)
    let drawBox: Bool
    let boxBorder: Int, border: Int, shadow: (x: Int, y: Int), lineSpacing: Int, tabPixels: Int, startNumber: Int

    var values = [Double](repeating: 0, count: variables.count)
    var format: VideoFormat?
    var frameCount = 0
    var staticText: String?
    var lastText: String?
    var lastLayout: TextLayout?
    /// The colours blended at the last opacity (box, shadow, border, text).
    var blendColors: (opacity: Int, box: BlendColor, shadow: BlendColor, border: BlendColor, text: BlendColor)?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        frameCount = setup.firstFrameNumber
        var text: String
        switch (p[Self.textParam], p[Self.textFileParam]) {
        case (let t?, nil): text = t
        case (nil, let file?):
            do { text = String(decoding: try SmallFileReader.read(file, limit: 1 << 20), as: UTF8.self) } catch {
                throw NodeFailure("param 'text-file' (\(file)): \(error.message(for: "text file"))")
            }
        case (_?, _?): throw NodeFailure("give 'text' or 'text-file', not both")
        case (nil, nil): throw NodeFailure("'text' or 'text-file' is required")
        }
        template = try TextTemplate(text, expand: p[Self.expansionParam] == "normal", variables: Self.variables)
        func expression(_ param: Param<String>) throws -> NumericExpression {
            do { return try NumericExpression(p[param], variables: Self.variables) } catch {
                throw NodeFailure("param '\(param.name)': \(error)")
            }
        }
        x = try expression(Self.xParam)
        y = try expression(Self.yParam)
        alpha = try expression(Self.alphaParam)
        do { enable = try NumericExpression(p[Self.enableParam], variables: Self.enableVariables) } catch {
            throw NodeFailure("param 'enable': \(error)")
        }
        func color(_ param: Param<String>) throws -> RGBAColor {
            do { return try RGBAColor(parsing: p[param]) } catch { throw NodeFailure("param '\(param.name)': \(error)") }
        }
        colors = (try color(Self.colorParam), try color(Self.boxColorParam), try color(Self.borderColorParam), try color(Self.shadowColorParam))
        drawBox = p[Self.boxParam]
        boxBorder = p[Self.boxBorderParam]
        border = p[Self.borderParam]
        shadow = (p[Self.shadowXParam], p[Self.shadowYParam])
        lineSpacing = p[Self.lineSpacingParam]
        startNumber = p[Self.startNumberParam]
        do {
            let (path, index, size) = try p[Self.fontFileParam].map { ($0, 0, 16) } ?? FontLookup.file(family: p[Self.fontParam])
            let face = try FontFace(path: path, index: index, pixelSize: p[Self.sizeParam] ?? size, borderWidth: border)
            glyphs = GlyphCache(face: face)
            tabPixels = p[Self.tabSizeParam] * (try glyphs.glyph(0x20)).advance
        } catch let e as FontError {
            throw NodeFailure("\(p[Self.fontFileParam] == nil ? "param 'font'" : "param 'font-file'"): \(e)")
        }
        if template.isStatic { staticText = template.expand(seconds: 0, frame: 0, variables: []) }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        format = v
        let shift = v.pixelFormat.chromaShift
        set(.hsub, Double(1 << shift.x)); set(.vsub, Double(1 << shift.y))
        set(.mainW, Double(v.width)); set(.w, Double(v.width)); set(.W, Double(v.width))
        set(.mainH, Double(v.height)); set(.h, Double(v.height)); set(.H, Double(v.height))
        let sar = v.sampleAspect.num > 0 && v.sampleAspect.den > 0 ? Double(v.sampleAspect.num) / Double(v.sampleAspect.den) : 1
        set(.sar, sar)
        set(.dar, Double(v.width) / Double(v.height) * sar)
        values[Variable.x.rawValue] = .nan
        values[Variable.y.rawValue] = .nan
        return [inputs[0].format]
    }

    func set(_ v: Variable, _ value: Double) { values[v.rawValue] = value }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        defer { frameCount += 1 }
        guard let format else { return try output.send(consume frame) }
        set(.n, Double(frameCount + startNumber))
        set(.t, frame.pts == SampleBuffer.noTime ? .nan : Double(frame.pts) * frame.timeBase.doubleValue)
        let shown = enable.evaluate([values[Variable.t.rawValue], Double(frameCount), Double(format.width), Double(format.height)])
        guard shown != 0 else { return try output.send(consume frame) }
        let text = staticText ?? template.expand(seconds: values[Variable.t.rawValue], frame: frameCount + startNumber, variables: values)
        let layout: TextLayout
        if let lastLayout, text == lastText { layout = lastLayout } else {
            do { layout = try TextLayout(text, glyphs: glyphs, lineSpacing: lineSpacing, tabSize: tabPixels) } catch {
                throw NodeFailure("\(error)")
            }
            lastText = text; lastLayout = layout
        }
        set(.tw, Double(layout.width)); set(.textW, Double(layout.width))
        set(.th, Double(layout.height)); set(.textH, Double(layout.height))
        set(.maxGlyphW, Double(layout.maxGlyphWidth)); set(.maxGlyphH, Double(layout.maxGlyphHeight))
        set(.maxGlyphA, Double(layout.ascent)); set(.ascent, Double(layout.ascent))
        set(.maxGlyphD, Double(layout.descent)); set(.descent, Double(layout.descent))
        set(.lineH, Double(layout.maxGlyphHeight)); set(.lh, Double(layout.maxGlyphHeight))
        // ffmpeg evaluates x, then y, then x again, so each may use the other
        set(.x, x.evaluate(values)); set(.y, y.evaluate(values)); set(.x, x.evaluate(values))
        let left = Self.pixel(values[Variable.x.rawValue]), top = Self.pixel(values[Variable.y.rawValue])
        let opacity = Self.opacity(alpha.evaluate(values))
        // the colours are worked out again only when the opacity changes (a fade), not per frame
        let current: (opacity: Int, box: BlendColor, shadow: BlendColor, border: BlendColor, text: BlendColor)
        if let cached = blendColors, cached.opacity == opacity { current = cached } else {
            func blend(_ c: RGBAColor) -> BlendColor {
                var c = c
                c.alpha = UInt8(Int(c.alpha) * opacity / 255)
                return BlendColor(c, for: format)
            }
            current = (opacity, blend(colors.box), blend(colors.shadow), blend(colors.border), blend(colors.text))
            blendColors = current
        }
        let (box, shadowColor, borderColor, textColor) = (current.box, current.shadow, current.border, current.text)
        try output.sendTransformed(consume frame) { src, dst, inPlace in
            if !inPlace { Self.copyPixels(src, dst) }
            if drawBox {
                MaskBlend.fill(box, into: dst, x: left - boxBorder, y: top - boxBorder,
                               width: min(format.width - 1, layout.width) + 2 * boxBorder,
                               height: min(format.height - 1, layout.height) + 2 * boxBorder)
            }
            if shadow.x != 0 || shadow.y != 0 { draw(layout, shadowColor, dst, left + shadow.x, top + shadow.y, outline: false) }
            if border > 0 { draw(layout, borderColor, dst, left, top, outline: true) }
            draw(layout, textColor, dst, left, top, outline: false)
        }
    }

    /// Blends every glyph (or its outline) of `layout` with its text origin at (`x`, `y`).
    func draw(_ layout: TextLayout, _ color: BlendColor, _ planes: FramePlanes, _ x: Int, _ y: Int, outline: Bool) {
        Self.draw(layout, glyphs, color, planes, x, y, outline: outline ? border : nil)
    }

    /// Blends every glyph of `layout`, or with `outline` its outline of that width (which ffmpeg
    /// places that many pixels up and left of its glyph), with the text origin at (`x`, `y`).
    static func draw(_ layout: TextLayout, _ glyphs: GlyphCache, _ color: BlendColor, _ planes: FramePlanes, _ x: Int, _ y: Int, outline: Int?) {
        guard color.alpha > 0 else { return }
        let shift = outline ?? 0
        for g in layout.placed {
            guard let glyph = try? glyphs.glyph(g.code), let bitmap = outline == nil ? glyph.bitmap : glyph.border,
                  bitmap.width > 0, bitmap.rows > 0 else { continue }
            bitmap.coverage.withUnsafeBufferPointer { mask in
                MaskBlend.blend(color, into: planes, mask: mask.baseAddress!, maskStride: bitmap.width,
                                width: bitmap.width, height: bitmap.rows, x: g.x + x - shift, y: g.y + y - shift)
            }
        }
    }

    /// C's double → int conversion (toward zero); NaN and values beyond any frame give a place
    /// off every frame.
    static func pixel(_ v: Double) -> Int {
        guard v.isFinite else { return Int(Int32.min) / 2 }
        return Int(max(-1e9, min(1e9, v)).rounded(.towardZero))
    }

    /// ffmpeg's opacity byte: 255 from 1 up, 0 from 0 down, 256·alpha between; NaN keeps it opaque.
    static func opacity(_ a: Double) -> Int {
        if a.isNaN || a >= 1 { return 255 }
        if a <= 0 { return 0 }
        return Int(256 * a)
    }

    /// The frame's pixels into a new frame of the same format (the copy path of a shared frame).
    static func copyPixels(_ src: FramePlanes, _ dst: FramePlanes) {
        for p in 0..<src.planeCount {
            let rowBytes = src.rowBytes(p)
            for row in 0..<src.planeSize(p).height {
                (dst.data(p) + row * dst.stride(p)).update(from: src.data(p) + row * src.stride(p), count: rowBytes)
            }
        }
    }
}
