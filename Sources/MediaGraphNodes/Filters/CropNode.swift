import MediaGraphCore

/// `crop`: keeps a rectangle of each frame (ffmpeg's `crop=w:h:x:y`). The rectangle is given in
/// the picture as shown, as ffmpeg's crop sees it after its autorotate, and mapped through the
/// display rotation onto the pixels as stored; the rotation stays the input's. Like ffmpeg (5.1,
/// without `exact`), sizes and offsets round down to the chroma grid: even on 4:2:0, an even
/// width on 4:2:2. A fixed rectangle reaching outside the frame is refused at validation (ffmpeg
/// moves it back inside). An x or y that reads the frame's number `n` or time `t` is evaluated for
/// every frame, as ffmpeg's, and moved back inside the frame as ffmpeg moves it. Rows are copied into a pooled frame: a frame's planes lie where its pool
/// lays them out, so a crop cannot be a view of the input's memory.
public final class CropNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "crop",
        doc: "Keeps a width x height rectangle at x, y of the picture as shown (ffmpeg's crop=w:h:x:y after its autorotate): by default the whole frame, centered. Sizes and offsets round down to the chroma grid (even on 4:2:0), as ffmpeg's; a fixed rectangle outside the frame is refused; x and y may move with n and t (e.g. \"t*40\").",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video, any pixel format")],
        outputs: [PortSpec("out", .anyVideo, doc: "the rectangle (same format and display rotation)")],
        params: ParamSpec.list(widthParam, heightParam, xParam, yParam))
    static let widthParam = ExpressionParam.optional("width", doc: "width kept: pixels or an expression of iw, ih, oh, a, sar, dar, hsub, vsub (ffmpeg's, e.g. iw/2; default: the input's)")
    static let heightParam = ExpressionParam.optional("height", doc: "height kept: pixels or an expression (e.g. ih-100; default: the input's)")
    static let xParam = ExpressionParam.optional("x", doc: "left edge of the rectangle: pixels or an expression of iw, ow, y, …, and of the frame's n and t (seconds) for a moving crop (default: centered, (input width - width) / 2, a half rounded to even)")
    static let yParam = ExpressionParam.optional("y", doc: "top edge of the rectangle: pixels or an expression (default: centered, (input height - height) / 2, a half rounded to even)")

    let expressions: PlacementExpressions
    var width: Int?, height: Int?, x: Int?, y: Int?
    /// The rectangle in stored pixels (nil: the whole frame, passed on as it is).
    var rect: (x: Int, y: Int, format: VideoFormat)?
    /// A rectangle that moves: where it is evaluated (the picture as shown) and where it was.
    var moving: MovingPlace?
    /// What n counts from (a segment of a planned run starts past 0).
    let firstFrameNumber: Int

    struct MovingPlace {
        var values: [Double]
        let shown: (w: Int, h: Int), size: (w: Int, h: Int), grid: (x: Int, y: Int)
        /// Where a side that does not move lies.
        let fixed: (x: Int, y: Int)
        /// The last frame's place: a NaN keeps it, as in ffmpeg.
        var last: (x: Int, y: Int)
        var frames = 0
        let input: VideoFormat
    }

    public init(setup: NodeSetup) throws {
        let p = setup.params
        firstFrameNumber = setup.firstFrameNumber
        expressions = try PlacementExpressions(width: p[Self.widthParam], height: p[Self.heightParam], x: p[Self.xParam], y: p[Self.yParam],
                                               names: ("width", "height", "x", "y"), perFrame: true)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let input = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        // the picture as shown: a quarter-turn display rotation swaps sides and chroma grid
        let quarter = input.rotation % 180 != 0
        let (W, H) = quarter ? (input.height, input.width) : (input.width, input.height)
        let shift = input.pixelFormat.chromaShift
        let (gx, gy) = quarter ? (1 << shift.y, 1 << shift.x) : (1 << shift.x, 1 << shift.y)
        let down = { (v: Int, grid: Int) in v / grid * grid }
        let sar = input.sampleAspect.num > 0 && input.sampleAspect.den > 0 ? input.sampleAspect.doubleValue : 1
        // ffmpeg's crop turns each value into pixels with lrint
        (width, height, x, y) = try expressions.evaluate(shown: (W, H), grid: (gx, gy), sar: sar, integer: PlacementExpressions.nearest)
        if let v = width, v < 1 { throw NodeFailure("param 'width': expected at least 1, found \(v)") }
        if let v = height, v < 1 { throw NodeFailure("param 'height': expected at least 1, found \(v)") }
        if let v = x, v < 0 { throw NodeFailure("param 'x': expected 0 or more, found \(v)") }
        if let v = y, v < 0 { throw NodeFailure("param 'y': expected 0 or more, found \(v)") }
        // ffmpeg's crop: sizes and offsets each rounded down to the grid
        let w = down(width ?? W, gx), h = down(height ?? H, gy)
        guard w <= W, w > 0 else { throw NodeFailure(sizeProblem("width", given: width ?? W, rounded: w, limit: W, grid: gx, input)) }
        guard h <= H, h > 0 else { throw NodeFailure(sizeProblem("height", given: height ?? H, rounded: h, limit: H, grid: gy, input)) }
        // centered as ffmpeg's lrint((in - out) / 2), with the size as given (before its rounding):
        // a half rounds to even (15.5 → 16, 8.5 → 8)
        let center = { (room: Int) in Int((Double(room) / 2).rounded(.toNearestOrEven)) }
        let x0 = down(x ?? center(W - (width ?? W)), gx), y0 = down(y ?? center(H - (height ?? H)), gy)
        if x0 + w > W {
            throw NodeFailure("params 'x' and 'width': the rectangle \(x0)+\(w) reaches past the input's width \(W)\(shownNote(input)); expected x at most \(W - w), found \(x ?? x0)")
        }
        if y0 + h > H {
            throw NodeFailure("params 'y' and 'height': the rectangle \(y0)+\(h) reaches past the input's height \(H)\(shownNote(input)); expected y at most \(H - h), found \(y ?? y0)")
        }
        guard w != W || h != H else { rect = nil; return [.video(input)] }
        let stored = Self.stored(x: x0, y: y0, width: w, height: h, of: input)
        var out = input
        (out.width, out.height) = (stored.width, stored.height)
        if expressions.moving {
            let values = expressions.sizeValues(shown: (W, H), grid: (gx, gy), sar: sar, integer: PlacementExpressions.nearest)
            // before a first NaN: centered, as ffmpeg's default
            moving = MovingPlace(values: values, shown: (W, H), size: (w, h), grid: (gx, gy), fixed: (x0, y0),
                                 last: (down((W - w) / 2, gx), down((H - h) / 2, gy)), frames: firstFrameNumber, input: input)
        }
        // an odd side mapped through a rotation or mirror can put an offset off the grid: down onto it
        rect = (down(stored.x, 1 << shift.x), down(stored.y, 1 << shift.y), out)
        return [.video(out)]
    }

    /// The rectangle `x, y, width, height` of the picture as shown, in the pixels as stored:
    /// undoes the mirror, then the clockwise turn (`QuarterTurn.upright`) that shows them.
    static func stored(x: Int, y: Int, width w: Int, height h: Int, of f: VideoFormat) -> (x: Int, y: Int, width: Int, height: Int) {
        let (W, H) = (f.width, f.height)
        let way = QuarterTurn.upright(f)
        let shownWidth = way.degrees % 180 == 0 ? W : H
        let x = way.mirrored ? shownWidth - x - w : x
        switch way.degrees {
        case 90: return (y, H - x - w, h, w)
        case 180: return (W - x - w, H - y - h, w, h)
        case 270: return (W - y - h, x, h, w)
        default: return (x, y, w, h)
        }
    }

    private func sizeProblem(_ name: String, given: Int, rounded: Int, limit: Int, grid: Int, _ f: VideoFormat) -> String {
        if rounded <= 0 { return "param '\(name)': \(f.pixelFormat) needs at least \(grid) (its chroma grid), found \(given)" }
        return "param '\(name)': expected at most the input's \(name), \(limit)\(shownNote(f)), found \(given)"
    }

    private func shownNote(_ f: VideoFormat) -> String {
        f.rotation % 180 != 0 ? " (as shown: its display rotation is \(f.rotation)°)" : ""
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard var rect else { return try output.send(consume frame) }
        if moving != nil {
            let t = frame.pts == SampleBuffer.noTime ? Double.nan : Double(frame.pts) * frame.timeBase.doubleValue
            (rect.x, rect.y) = nextPlace(time: t)
        }
        try output.sendTransformed(consume frame, to: rect.format, inPlace: false) { src, dst, _ in
            FrameRegion.copy(src, x: rect.x, y: rect.y, into: dst)
        }
    }

    /// This frame's place of a moving rectangle in stored pixels: evaluated, kept from the last
    /// frame when NaN, moved inside the frame and down onto the chroma grid, as ffmpeg's crop.
    private func nextPlace(time t: Double) -> (x: Int, y: Int) {
        guard var m = moving else { return (0, 0) }
        let (dx, dy) = expressions.place(&m.values, n: m.frames, t: t)
        func resolve(_ d: Double?, last: Int, fixed: Int, size: Int, limit: Int, grid: Int) -> Int {
            guard let d else { return fixed }
            var v = last
            if !d.isNaN { v = d >= Double(Int32.max) ? Int(Int32.max) : d <= Double(Int32.min) ? Int(Int32.min) : Int(d.rounded(.toNearestOrEven)) }
            if v < 0 { v = 0 }
            if v + size > limit { v = limit - size }
            return v / grid * grid
        }
        let x = resolve(dx, last: m.last.x, fixed: m.fixed.x, size: m.size.w, limit: m.shown.w, grid: m.grid.x)
        let y = resolve(dy, last: m.last.y, fixed: m.fixed.y, size: m.size.h, limit: m.shown.h, grid: m.grid.y)
        m.last = (x, y)
        m.frames += 1
        moving = m
        let stored = Self.stored(x: x, y: y, width: m.size.w, height: m.size.h, of: m.input)
        let shift = m.input.pixelFormat.chromaShift
        return ((stored.x >> shift.x) << shift.x, (stored.y >> shift.y) << shift.y)
    }
}
