import MediaGraphCodecs
import MediaGraphCore

/// `scale`: resizes (and optionally converts) with libswscale.
public final class ScaleNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "scale",
        doc: "Resizes with libswscale to a width and height of the picture as shown, numbers or ffmpeg's expressions (ffmpeg's scale=w:h: \"iw/2\", -1 or -2 to keep the aspect ratio, force-original-aspect-ratio to fit a box).",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video")],
        outputs: [PortSpec("out", .anyVideo, doc: "raw video of the new size")],
        params: ParamSpec.list(widthParam, heightParam, fitParam, divisibleParam, algorithmParam, formatParam, rangeParam))
    static let widthParam = ExpressionParam.with("width", default: "iw", doc: "output width: pixels or an expression (iw, ih, ow, oh, a, sar, dar, hsub, vsub, ohsub, ovsub); 0 the input's, -1 from the height keeping the aspect ratio, -n the same rounded to a multiple of n")
    static let heightParam = ExpressionParam.with("height", default: "ih", doc: "output height, as width")
    static let fitParam = Param<ScaleSize.AspectFit>("force-original-aspect-ratio", default: .disable,
                                                     doc: "decrease: the largest size with the input's aspect ratio inside width x height; increase: the smallest around it")
    static let divisibleParam = Param<Int>("force-divisible-by", 1...256, default: 1, doc: "with force-original-aspect-ratio: round both sides to a multiple of this (down to decrease, up to increase)")
    static let algorithmParam = Param<ScalingAlgorithm>("algorithm", default: .bicubic, doc: "libswscale algorithm")
    static let formatParam = Param<PixelFormat?>("format", choices: PixelFormat.allCases, doc: "output pixel format (default: the input's)")
    static let rangeParam = Param<ColorRange?>("range", choices: ColorRange.choices, doc: "output range of YUV (default: the input's; limited from RGB)")

    /// Where a node needs its video inputs at one size and pixel format (`InputMatching`), resize
    /// and convert the others to the first one's.
    public static let adapter = FormatAdapter(nodeType: "scale", label: "scale", params: { _, _, _ in nil }, reshape: { format, shape in
        // a shape that asks for another rotation (or upright, of a mirrored stream) is the
        // `rotate` adapter's
        guard let v = format.video, shape.isVideoShape, (shape.rotation ?? v.rotation) == v.rotation,
              !(shape.rotation == 0 && v.mirrored) else { return nil }
        var p: [String: JSONValue] = [:]
        // the shape is of frames as stored; the node's sizes are of the picture as shown
        let (w, h) = (shape.width ?? v.width, shape.height ?? v.height)
        let quarter = v.rotation % 180 != 0
        p["width"] = .number(Double(quarter ? h : w), nil)
        p["height"] = .number(Double(quarter ? w : h), nil)
        if let f = shape.pixelFormat, f != v.pixelFormat { p["format"] = .string(f.rawValue, nil) }
        // the first input's range, where the values would otherwise stay in another one
        let target = shape.pixelFormat ?? v.pixelFormat
        let given: ColorRange = v.pixelFormat.isRGB ? .limited : (v.range == .full ? .full : .limited)
        if let r = shape.range, !target.isRGB, r != given { p["range"] = .string(r.rawValue, nil) }
        return p
    })

    let size: ScaleSize
    let fit: ScaleSize.AspectFit
    let divisibleBy: Int
    let algorithm: ScalingAlgorithm
    let format: PixelFormat?
    let range: ColorRange?
    var converter: PixelConverter?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        size = try ScaleSize(width: p[Self.widthParam], height: p[Self.heightParam])
        fit = p[Self.fitParam]
        divisibleBy = p[Self.divisibleParam]
        algorithm = p[Self.algorithmParam]
        format = p[Self.formatParam]
        range = p[Self.rangeParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let input = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        var out = input
        out.pixelFormat = format ?? input.pixelFormat
        // sizes are of the picture as shown: a quarter-turn display rotation swaps the sides, the
        // chroma grids and the sample aspect
        let quarter = input.rotation % 180 != 0
        func grid(_ f: PixelFormat) -> (x: Int, y: Int) {
            let s = f.chromaShift
            return quarter ? (1 << s.y, 1 << s.x) : (1 << s.x, 1 << s.y)
        }
        let known = input.sampleAspect.num > 0 && input.sampleAspect.den > 0
        let sar = known ? (quarter ? 1 / input.sampleAspect.doubleValue : input.sampleAspect.doubleValue) : 1
        let shown = try size.evaluate(size: quarter ? (input.height, input.width) : (input.width, input.height), sar: sar,
                                      grid: grid(input.pixelFormat), outputGrid: grid(out.pixelFormat), fit: fit, divisibleBy: divisibleBy)
        (out.width, out.height) = quarter ? (shown.h, shown.w) : (shown.w, shown.h)
        // the display aspect stays the input's, as ffmpeg's scale sets the sample aspect
        if known {
            out.sampleAspect = Rational(Int64(out.height) * Int64(input.width) * input.sampleAspect.num,
                                        Int64(out.width) * Int64(input.height) * input.sampleAspect.den)
        }
        if !input.pixelFormat.isRGB && out.pixelFormat.isRGB { out.range = .full }
        if input.pixelFormat.isRGB && !out.pixelFormat.isRGB { out.range = .limited }
        if let range, !out.pixelFormat.isRGB { out.range = range }
        if out != input { converter = try PixelConverter(from: input, to: out, algorithm: algorithm) }
        return [.video(out)]
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let converter else { return try output.send(consume frame) }
        try output.sendTransformed(consume frame, to: converter.destination) { src, dst, _ in
            try converter.convert(source: src, destination: dst)
        }
    }
}
