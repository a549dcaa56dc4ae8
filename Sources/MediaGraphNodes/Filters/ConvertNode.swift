import MediaGraphCodecs
import MediaGraphCore

/// `convert`: pixel format and range conversion through libswscale, with the colour matrix and
/// range taken from the formats. The graph inserts it where raw-video formats do not meet.
public final class ConvertNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "convert",
        doc: "Converts pixel format and range with libswscale (the graph inserts it where formats differ).",
        category: .converter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video")],
        outputs: [PortSpec("out", .anyVideo, doc: "raw video in the requested format")],
        params: ParamSpec.list(formatParam, rangeParam, matrixParam, algorithmParam))
    static let formatParam = Param<PixelFormat?>("format", choices: PixelFormat.allCases, required: true, doc: "output pixel format")
    static let rangeParam = Param<ColorRange?>("range", choices: ColorRange.choices, doc: "output range (default: limited for YUV, full for RGB)")
    static let matrixParam = Param<YCbCrMatrix?>("matrix", choices: YCbCrMatrix.choices, doc: "Y'CbCr matrix of YUV output (default: the input's)")
    static let algorithmParam = Param<ScalingAlgorithm>("algorithm", default: .bicubic, doc: "libswscale algorithm (chroma resampling)")

    /// Where raw-video pixel formats do not meet, the graph inserts a `convert` to the format the
    /// input prefers: the same layout with 8 bits when a 10-bit stream meets an 8-bit input
    /// (no detour through RGB), else the input's first choice.
    public static let adapter = FormatAdapter(nodeType: "convert", label: "convert") { format, caps, _ in
        guard case .video(let have) = format, case .video(let want) = caps, let first = want.first else { return nil }
        let target = want.contains(have.pixelFormat.eightBitEquivalent) ? have.pixelFormat.eightBitEquivalent : first
        return ["format": .string(target.rawValue, nil)]
    }

    let target: PixelFormat
    let range: ColorRange?
    let matrix: YCbCrMatrix?
    let algorithm: ScalingAlgorithm
    var converter: PixelConverter?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        guard let target = p[Self.formatParam] else { throw NodeFailure("param 'format': missing") }
        self.target = target
        range = p[Self.rangeParam]
        matrix = p[Self.matrixParam]
        algorithm = p[Self.algorithmParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let input = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        var out = input
        out.pixelFormat = target
        out.range = range ?? (target.isRGB ? .full : (input.pixelFormat.isRGB ? .limited : input.range))
        out.matrix = matrix ?? input.matrix
        if target.chromaShift.x > 0 && out.width % 2 != 0 || target.chromaShift.y > 0 && out.height % 2 != 0 {
            // libswscale rounds chroma up, as ffmpeg does; allowed
        }
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
