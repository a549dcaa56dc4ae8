import MediaGraphCore
import MediaGraphKernels

/// `drawbox`: a rectangle's outline (or the whole rectangle) in a colour, as ffmpeg 5.1's
/// drawbox draws it: the same place and thickness rules (`x`, `y`, `width`, `height` and
/// `thickness` as expressions of the input size, zero sizes meaning the frame's, `thickness`
/// "fill" filling it), the same luma bytes (blended in double precision and truncated), and
/// `invert` turning luma over. Colours are the frame's own Y'CbCr (matrix and range) where ffmpeg
/// 5.1 uses BT.601's integer formula, so a few colours differ by one there; a chroma sample any
/// of whose pixels the box covers is blended once, where ffmpeg blends it again for each of them
/// (the same bytes when the colour is opaque). In place when the frame is not shared.
public final class DrawBoxNode: RegisteredNode, VideoNode {
    static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p]
    public static let typeInfo = NodeTypeInfo(
        name: "drawbox",
        doc: "Draws a rectangle's outline, or fills it, in a colour (ffmpeg's drawbox=x:y:w:h:color:t, 'fill' for a solid box, 'invert' to turn luma over); position and size are expressions of the input size; 'enable' picks the frames.",
        category: .filter,
        inputs: [PortSpec("in", .video(formats), doc: "raw video")],
        outputs: [PortSpec("out", .video(formats), doc: "the frames with the box (in place when possible)")],
        params: ParamSpec.list(xParam, yParam, widthParam, heightParam, colorParam, thicknessParam, enableParam))
    static let xParam = ExpressionParam.with("x", default: "0", doc: "left edge: a number or an expression of iw, ih, w, h, … (ffmpeg's drawbox variables)")
    static let yParam = ExpressionParam.with("y", default: "0", doc: "top edge: a number or an expression")
    static let widthParam = ExpressionParam.with("width", default: "0", doc: "width; 0: the input's width")
    static let heightParam = ExpressionParam.with("height", default: "0", doc: "height; 0: the input's height")
    static let colorParam = Param<String>("color", default: "black", doc: "a colour (name, #RRGGBB[AA], @alpha) or \"invert\" (luma turned over)")
    static let thicknessParam = ExpressionParam.with("thickness", default: "3", doc: "line width in pixels, or \"fill\" for a solid box")
    static let enableParam = ExpressionParam.with("enable", default: "1", doc: "draw only on frames where this is not 0: an expression of t, n (from 0), w and h")

    /// ffmpeg's drawbox variables; `fill` is the largest thickness.
    static let variables = ["dar", "hsub", "vsub", "in_h", "ih", "in_w", "iw", "sar", "x", "y", "h", "w", "t", "fill"]
    enum Variable: Int { case dar, hsub, vsub, inH, ih, inW, iw, sar, x, y, h, w, t, fill }

    let x: NumericExpression, y: NumericExpression, width: NumericExpression, height: NumericExpression
    let thickness: NumericExpression, enable: NumericExpression
    let color: RGBAColor?
    var format: VideoFormat?
    var box = (x: 0, y: 0, w: 0, h: 0, t: 0)
    var blend: BlendColor?
    var frameCount = 0
    /// Which chroma samples of a row the box touches (reused from row to row).
    var touched: [Bool] = []

    public init(setup: NodeSetup) throws {
        let p = setup.params
        frameCount = setup.firstFrameNumber
        func expression(_ param: Param<String>, _ names: [String] = DrawBoxNode.variables) throws -> NumericExpression {
            do { return try NumericExpression(p[param], variables: names) } catch {
                throw NodeFailure("param '\(param.name)': \(error)")
            }
        }
        x = try expression(Self.xParam)
        y = try expression(Self.yParam)
        width = try expression(Self.widthParam)
        height = try expression(Self.heightParam)
        thickness = try expression(Self.thicknessParam)
        enable = try expression(Self.enableParam, DrawTextNode.enableVariables)
        if p[Self.colorParam] == "invert" { color = nil } else {
            do { color = try RGBAColor(parsing: p[Self.colorParam]) } catch {
                throw NodeFailure("param 'color': \(error)")
            }
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        format = v
        var values = [Double](repeating: .nan, count: Self.variables.count)
        func set(_ k: Variable, _ value: Double) { values[k.rawValue] = value }
        let shift = v.pixelFormat.chromaShift
        let sar = v.sampleAspect.num > 0 && v.sampleAspect.den > 0 ? Double(v.sampleAspect.num) / Double(v.sampleAspect.den) : 1
        set(.inH, Double(v.height)); set(.ih, Double(v.height)); set(.inW, Double(v.width)); set(.iw, Double(v.width))
        set(.sar, sar); set(.dar, Double(v.width) / Double(v.height) * sar)
        set(.hsub, Double(1 << shift.x)); set(.vsub, Double(1 << shift.y))
        // as ffmpeg: five rounds, so each value may use the others; `fill` is the room left
        for _ in 0...5 {
            // the variables keep the values as evaluated; the box their integer parts (C's int)
            set(.fill, Double(v.width)); set(.x, x.evaluate(values)); let bx = Self.integer(values[Variable.x.rawValue])
            set(.fill, Double(v.height)); set(.y, y.evaluate(values)); let by = Self.integer(values[Variable.y.rawValue])
            set(.fill, Double(v.width - bx)); set(.w, width.evaluate(values))
            set(.fill, Double(v.height - by)); set(.h, height.evaluate(values))
            set(.fill, Double(Int32.max)); set(.t, thickness.evaluate(values))
            box = (bx, by, Self.integer(values[Variable.w.rawValue]), Self.integer(values[Variable.h.rawValue]),
                   Self.integer(values[Variable.t.rawValue]))
        }
        if box.w <= 0 { box.w = v.width }
        if box.h <= 0 { box.h = v.height }
        if box.t < 0 { throw NodeFailure("param 'thickness': \(thickness) gives \(box.t), expected 0 or more") }
        blend = color.map { BlendColor($0, for: v) }
        touched = [Bool](repeating: false, count: (v.width + 1) >> shift.x + 1)
        return [inputs[0].format]
    }

    /// C's double → int (toward zero), NaN and out-of-range values as 0 and the limits.
    static func integer(_ v: Double) -> Int {
        guard !v.isNaN else { return 0 }
        return Int(max(-2e9, min(2e9, v)).rounded(.towardZero))
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        defer { frameCount += 1 }
        guard let format else { return try output.send(consume frame) }
        let t = frame.pts == SampleBuffer.noTime ? Double.nan : Double(frame.pts) * frame.timeBase.doubleValue
        guard box.t > 0, enable.evaluate([t, Double(frameCount), Double(format.width), Double(format.height)]) != 0 else {
            return try output.send(consume frame)
        }
        try output.sendTransformed(consume frame) { src, dst, inPlace in
            if !inPlace { DrawTextNode.copyPixels(src, dst) }
            draw(dst)
        }
    }

    /// The box's pixels on row `row`, as up to two spans clipped to the frame (ffmpeg's test:
    /// within `thickness` of any edge); empty ranges where there are none. No allocation: this
    /// runs for every row of the box.
    func spans(row: Int, frameWidth: Int) -> (Range<Int>, Range<Int>) {
        let b = box, none = 0..<0
        guard row >= max(b.y, 0), row < b.y + b.h else { return (none, none) }
        let left = max(b.x, 0), right = min(b.x + b.w, frameWidth)
        guard left < right else { return (none, none) }
        if row - b.y < b.t || b.y + b.h - 1 - row < b.t || 2 * b.t >= b.w { return (left..<right, none) }
        let first = left..<max(left, min(b.x + b.t, right)), second = min(right, max(b.x + b.w - b.t, left))..<right
        return (first, second)
    }

    func draw(_ planes: FramePlanes) {
        let h = planes.height, w = planes.width
        let top = max(box.y, 0), bottom = min(box.y + box.h, h)
        guard top < bottom else { return }
        guard let blend else {
            // invert: luma turned over where the box is, chroma untouched (ffmpeg's "invert")
            for y in top..<bottom {
                let row = planes.data(0) + y * planes.stride(0)
                let (s0, s1) = spans(row: y, frameWidth: w)
                for x in s0 { row[x] = 255 &- row[x] }
                for x in s1 { row[x] = 255 &- row[x] }
            }
            return
        }
        let alpha = Double(blend.alpha) / 255
        @inline(__always) func mix(_ v: UInt8, _ c: UInt8) -> UInt8 {
            // ffmpeg: (1 − α)·v + α·c in double, stored in a byte (truncated)
            UInt8(truncatingIfNeeded: Int((1 - alpha) * Double(v) + alpha * Double(c)))
        }
        for y in top..<bottom {
            let row = planes.data(0) + y * planes.stride(0)
            let (s0, s1) = spans(row: y, frameWidth: w), c = blend.values[0]
            for x in s0 { row[x] = mix(row[x], c) }
            for x in s1 { row[x] = mix(row[x], c) }
        }
        let shift = planes.format.chromaShift
        let chromaTop = top >> shift.y, chromaBottom = (bottom - 1) >> shift.y + 1
        for cy in chromaTop..<chromaBottom {
            for i in touched.indices { touched[i] = false }
            for ly in (cy << shift.y)..<min((cy + 1) << shift.y, h) {
                let (s0, s1) = spans(row: ly, frameWidth: w)
                if !s0.isEmpty { for cx in (s0.lowerBound >> shift.x)...((s0.upperBound - 1) >> shift.x) { touched[cx] = true } }
                if !s1.isEmpty { for cx in (s1.lowerBound >> shift.x)...((s1.upperBound - 1) >> shift.x) { touched[cx] = true } }
            }
            for p in 1...2 {
                let row = planes.data(p) + cy * planes.stride(p)
                for cx in 0..<planes.planeSize(p).width where touched[cx] { row[cx] = mix(row[cx], blend.values[p]) }
            }
        }
    }
}
