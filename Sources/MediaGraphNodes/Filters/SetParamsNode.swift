import MediaGraphCore

/// `setparams`: states what a stream is without touching its pixels — range, colour matrix,
/// primaries, transfer, chroma siting, sample aspect ratio, display rotation, language — for
/// sources that do not say (raw files, Y4M) or say it wrong. ffmpeg's `setparams` and `setsar`
/// filters and its `-metadata:s:v rotate`/`language` in one node. What it sets travels on to the
/// encoders (VUI) and the MP4 muxer (colr, pasp, track matrix, mdhd language).
public final class SetParamsNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "setparams",
        doc: "Sets a stream's range, colour, chroma siting, aspect ratio, rotation or language without changing its pixels (ffmpeg's setparams/setsar); encoders and the mp4 sink write what it sets.",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video")],
        outputs: [PortSpec("out", .anyVideo, doc: "the same frames, described as the params say")],
        params: ParamSpec.list(rangeParam, matrixParam, primariesParam, transferParam, chromaLocationParam, sarParam,
                               rotationParam, languageParam))
    static let rangeParam = Param<ColorRange?>("range", choices: ColorRange.allCases, doc: "YUV range (limited: 16-235, full: 0-255)")
    static let matrixParam = Param<YCbCrMatrix?>("matrix", choices: YCbCrMatrix.allCases, doc: "Y'CbCr matrix (ffmpeg's colorspace)")
    static let primariesParam = Param<ColorPrimaries?>("primaries", choices: ColorPrimaries.allCases, doc: "colour primaries")
    static let transferParam = Param<TransferCharacteristic?>("transfer", choices: TransferCharacteristic.allCases,
                                                              doc: "transfer characteristic (ffmpeg's color_trc)")
    static let chromaLocationParam = Param<ChromaLocation?>("chroma-location", choices: ChromaLocation.allCases, doc: "where chroma samples sit")
    static let sarParam = Param<Rational?>.rational("sar", doc: "sample (pixel) aspect ratio, e.g. \"4/3\"")
    static let rotationParam = Param<String?>("rotation", oneOf: ["0", "90", "180", "270"], doc: "display rotation in degrees, as ffmpeg's rotate tag")
    static let languageParam = Param<String?>("language", doc: "ISO 639-2 language code, e.g. \"eng\"")

    let range: ColorRange?
    let matrix: YCbCrMatrix?
    let primaries: ColorPrimaries?
    let transfer: TransferCharacteristic?
    let chromaLocation: ChromaLocation?
    let sampleAspect: Rational?
    let rotation: Int?
    let language: String?
    var output: VideoFormat?
    var changes = false

    public init(setup: NodeSetup) throws {
        let p = setup.params
        range = p[Self.rangeParam]
        matrix = p[Self.matrixParam]
        primaries = p[Self.primariesParam]
        transfer = p[Self.transferParam]
        chromaLocation = p[Self.chromaLocationParam]
        sampleAspect = p[Self.sarParam]
        rotation = p[Self.rotationParam].flatMap { Int($0) }
        language = p[Self.languageParam]
        if let l = language, l.utf8.count != 3 || !l.utf8.allSatisfy({ (0x61...0x7A).contains($0) }) {
            throw NodeFailure("param 'language': expected a three-letter ISO 639-2 code in lower case such as \"eng\", found \"\(l)\"")
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let input = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        var f = input
        if let range { f.range = range }
        if let matrix { f.matrix = matrix }
        if let primaries { f.color.primaries = primaries }
        if let transfer { f.color.transfer = transfer }
        if let chromaLocation { f.color.chromaLocation = chromaLocation }
        if let sampleAspect { f.sampleAspect = sampleAspect }
        if let rotation { f.rotation = rotation }
        if let language { f.tags.language = language }
        output = f
        changes = f != input
        return [.video(f)]
    }

    /// Frames pass through; their format is restated in place when this node holds the only
    /// reference (a shared frame is copied first, so other branches keep their description).
    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard changes, let format = self.output else { return try output.send(consume frame) }
        var restated = SampleBuffer.writable(frame.take())
        restated.format = .video(format)
        try output.send(consume restated)
    }
}
