import MediaGraphCore
import MediaGraphKernels

/// `pad`: puts each frame on a larger one of a colour, black by default (ffmpeg's
/// `pad=w:h:x:y:color`). Sizes and offsets are in the picture as shown, as ffmpeg's pad sees it
/// after its autorotate, and mapped through the display rotation onto the pixels as stored; the
/// rotation stays the input's. As ffmpeg 5.1 does, the padded size and the offsets round down to
/// the chroma grid, and so does the input's width (an odd 4:2:0 frame loses its last column, not
/// its last row). The colour is its Y'CbCr in the frame's matrix and range (black: Y' 16 in
/// limited range, 0 in full, neutral chroma), its bytes and alpha in RGB.
public final class PadNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "pad",
        doc: "Puts the picture at x, y on a width x height frame of a colour, black by default (ffmpeg's pad=w:h:x:y:color after its autorotate); centered by default; sizes and places may be expressions (iw+40, (ow-iw)/2). Sizes and offsets round down to the chroma grid (even on 4:2:0), as ffmpeg's.",
        category: .filter,
        inputs: [PortSpec("in", .video([.yuv420p, .yuv422p, .yuv444p, .gray, .rgba, .bgra]), doc: "raw video")],
        outputs: [PortSpec("out", .video([.yuv420p, .yuv422p, .yuv444p, .gray, .rgba, .bgra]), doc: "the padded frames (same format and display rotation)")],
        params: ParamSpec.list(widthParam, heightParam, xParam, yParam, colorParam))
    static let widthParam = ExpressionParam.optional("width", doc: "padded width: pixels or an expression of iw, ih, oh, a, sar, dar, hsub, vsub (ffmpeg's, e.g. iw+40; 0 or default: the input's)")
    static let heightParam = ExpressionParam.optional("height", doc: "padded height: pixels or an expression (e.g. ih*4/3; 0 or default: the input's)")
    static let xParam = ExpressionParam.optional("x", doc: "where the picture's left edge goes: pixels or an expression of ow, iw, … (default: centered, (width - input width) / 2; ffmpeg's default is 0)")
    static let yParam = ExpressionParam.optional("y", doc: "where the picture's top edge goes: pixels or an expression (default: centered, (height - input height) / 2; ffmpeg's default is 0)")

    static let colorParam = Param<String>("color", default: "black", doc: "the padding's colour: a name, #RRGGBB[AA] or 0xRRGGBB[AA], optionally @alpha (ffmpeg's colour syntax; alpha reaches rgba/bgra frames)")

    let expressions: PlacementExpressions
    let color: RGBAColor
    var fillColor: BlendColor?
    var width: Int?, height: Int?, x: Int?, y: Int?
    /// Where the input goes in stored pixels, and the padded format (nil: nothing to pad).
    var placement: (x: Int, y: Int, format: VideoFormat)?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        expressions = try PlacementExpressions(width: p[Self.widthParam], height: p[Self.heightParam], x: p[Self.xParam], y: p[Self.yParam],
                                               names: ("width", "height", "x", "y"))
        do { color = try RGBAColor(parsing: p[Self.colorParam]) } catch { throw NodeFailure("param 'color': \(error)") }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let input = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        let quarter = input.rotation % 180 != 0
        let shift = input.pixelFormat.chromaShift
        let (gx, gy) = quarter ? (1 << shift.y, 1 << shift.x) : (1 << shift.x, 1 << shift.y)
        let down = { (v: Int, grid: Int) in v / grid * grid }
        // the input as shown, copied whole (an odd side too, as ffmpeg's)
        let (W, H) = quarter ? (input.height, input.width) : (input.width, input.height)
        let sar = input.sampleAspect.num > 0 && input.sampleAspect.den > 0 ? input.sampleAspect.doubleValue : 1
        // ffmpeg's pad truncates each value to an int; a zero size is the input's
        (width, height, x, y) = try expressions.evaluate(shown: (W, H), grid: (gx, gy), sar: sar, zeroIsInput: true,
                                                         integer: PlacementExpressions.truncated)
        for (name, v) in [("width", width), ("height", height), ("x", x), ("y", y)] {
            if let v, v < 0 { throw NodeFailure("param '\(name)': expected 0 or more, found \(v)") }
        }
        let w = down(width ?? W, gx), h = down(height ?? H, gy)
        guard w >= W else { throw NodeFailure("param 'width': expected at least the input's width, \(W)\(shownNote(input)), found \(width ?? w)") }
        guard h >= H else { throw NodeFailure("param 'height': expected at least the input's height, \(H)\(shownNote(input)), found \(height ?? h)") }
        // centered as ffmpeg's (ow-iw)/2 evaluates it: with the size as given, before its rounding
        let x0 = down(x ?? ((width ?? W) - W) / 2, gx), y0 = down(y ?? ((height ?? H) - H) / 2, gy)
        if x0 + W > w { throw NodeFailure("params 'x' and 'width': the picture at \(x0) (\(W) wide\(shownNote(input))) reaches past the padded width \(w); expected x at most \(w - W), found \(x ?? x0)") }
        if y0 + H > h { throw NodeFailure("params 'y' and 'height': the picture at \(y0) (\(H) high\(shownNote(input))) reaches past the padded height \(h); expected y at most \(h - H), found \(y ?? y0)") }
        guard w != W || h != H else { placement = nil; return [.video(input)] }
        var out = input
        (out.width, out.height) = quarter ? (h, w) : (w, h)
        let stored = CropNode.stored(x: x0, y: y0, width: W, height: H, of: out)
        placement = (down(stored.x, 1 << shift.x), down(stored.y, 1 << shift.y), out)
        fillColor = BlendColor(color, for: out)
        return [.video(out)]
    }

    private func shownNote(_ f: VideoFormat) -> String {
        f.rotation % 180 != 0 ? " as shown (its display rotation is \(f.rotation)°)" : ""
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let placement, let fillColor else { return try output.send(consume frame) }
        let alpha = color.alpha
        try output.sendTransformed(consume frame, to: placement.format, inPlace: false) { src, dst, _ in
            let f = placement.format
            FrameRegion.fill(dst, color: fillColor, alpha: alpha, x: 0, y: 0, width: f.width, height: f.height)
            // as ffmpeg 5.1's pad: an odd width on a subsampled grid loses its last column
            var kept = src
            kept.width = (src.width >> src.format.chromaShift.x) << src.format.chromaShift.x
            FrameRegion.copy(kept, into: dst, x: placement.x, y: placement.y)
        }
    }
}
