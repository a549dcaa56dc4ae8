import MediaGraphCodecs
import MediaGraphCore

/// `scale`: resizes (and optionally converts) with libswscale.
public final class ScaleNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "scale",
        doc: "Resizes with libswscale; one of width/height may be -1 to keep the aspect ratio.",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video")],
        outputs: [PortSpec("out", .anyVideo, doc: "raw video of the new size")],
        params: ParamSpec.list(widthParam, heightParam, algorithmParam, formatParam, rangeParam))
    static let widthParam = Param<Int>("width", -1...16384, default: -1, doc: "output width (-1: from height and aspect)")
    static let heightParam = Param<Int>("height", -1...16384, default: -1, doc: "output height (-1: from width and aspect)")
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
        p["width"] = .number(Double(shape.width ?? v.width), nil)
        p["height"] = .number(Double(shape.height ?? v.height), nil)
        if let f = shape.pixelFormat, f != v.pixelFormat { p["format"] = .string(f.rawValue, nil) }
        // the first input's range, where the values would otherwise stay in another one
        let target = shape.pixelFormat ?? v.pixelFormat
        let given: ColorRange = v.pixelFormat.isRGB ? .limited : (v.range == .full ? .full : .limited)
        if let r = shape.range, !target.isRGB, r != given { p["range"] = .string(r.rawValue, nil) }
        return p
    })

    let width: Int
    let height: Int
    let algorithm: ScalingAlgorithm
    let format: PixelFormat?
    let range: ColorRange?
    var converter: PixelConverter?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        width = p[Self.widthParam]
        height = p[Self.heightParam]
        algorithm = p[Self.algorithmParam]
        format = p[Self.formatParam]
        range = p[Self.rangeParam]
        if width == 0 { throw NodeFailure("param 'width': expected a size of 1…16384 or -1, found 0") }
        if height == 0 { throw NodeFailure("param 'height': expected a size of 1…16384 or -1, found 0") }
        if width == -1 && height == -1 { throw NodeFailure("params 'width' and 'height': at most one may be -1") }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let input = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        var out = input
        out.pixelFormat = format ?? input.pixelFormat
        // -1 keeps the display aspect ratio, rounded to the chroma grid as ffmpeg's scale=-2 does
        let grid = 1 << max(out.pixelFormat.chromaShift.x, out.pixelFormat.chromaShift.y)
        out.width = width > 0 ? width : max(grid, Int((Double(height) * Double(input.width) / Double(input.height) / Double(grid)).rounded()) * grid)
        out.height = height > 0 ? height : max(grid, Int((Double(width) * Double(input.height) / Double(input.width) / Double(grid)).rounded()) * grid)
        // -1 follows the input's aspect ratio, which can make the other side absurd (16384 x 2 → 134 million wide)
        if out.width > 16384 || out.height > 16384 {
            throw NodeFailure("params 'width'/'height': keeping the aspect ratio of \(input.width)x\(input.height) gives \(out.width)x\(out.height); each side must be at most 16384")
        }
        if out.pixelFormat.chromaShift.x > 0 && out.width % 2 != 0 {
            throw NodeFailure("param 'width': \(out.pixelFormat) needs an even width, found \(out.width)")
        }
        if out.pixelFormat.chromaShift.y > 0 && out.height % 2 != 0 {
            throw NodeFailure("param 'height': \(out.pixelFormat) needs an even height, found \(out.height)")
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
