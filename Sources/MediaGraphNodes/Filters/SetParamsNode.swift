import MediaGraphCore

/// `setparams`: states what a stream is without touching its pixels — range, colour matrix,
/// primaries, transfer, chroma siting, sample aspect ratio, display rotation, language — for
/// sources that do not say (raw files, Y4M) or say it wrong. ffmpeg's `setparams` and `setsar`
/// filters and its `-metadata:s:v rotate`/`language` in one node. What it sets travels on to the
/// encoders (VUI) and the MP4 muxer (colr, pasp, track matrix, mdhd language).
public final class SetParamsNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "setparams",
        doc: "Sets a stream's range, colour, chroma siting, aspect ratio, rotation or language without changing its pixels (ffmpeg's setparams/setsar); encoders and the mp4 sink write what it sets.",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video")],
        outputs: [PortSpec("out", .anyVideo, doc: "the same frames, described as the params say")],
        params: [.choice("range", ColorRange.allCases.map(\.rawValue), doc: "YUV range (limited: 16-235, full: 0-255)"),
                 .choice("matrix", YCbCrMatrix.allCases.map(\.rawValue), doc: "Y'CbCr matrix (ffmpeg's colorspace)"),
                 .choice("primaries", ColorPrimaries.allCases.map(\.rawValue), doc: "colour primaries"),
                 .choice("transfer", TransferCharacteristic.allCases.map(\.rawValue), doc: "transfer characteristic (ffmpeg's color_trc)"),
                 .choice("chroma-location", ChromaLocation.allCases.map(\.rawValue), doc: "where chroma samples sit"),
                 .rational("sar", doc: "sample (pixel) aspect ratio, e.g. \"4/3\""),
                 .choice("rotation", ["0", "90", "180", "270"], doc: "display rotation in degrees, as ffmpeg's rotate tag"),
                 .string("language", doc: "ISO 639-2 language code, e.g. \"eng\"")])

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
        range = p.string("range").flatMap(ColorRange.init(rawValue:))
        matrix = p.string("matrix").flatMap(YCbCrMatrix.init(rawValue:))
        primaries = p.string("primaries").flatMap(ColorPrimaries.init(rawValue:))
        transfer = p.string("transfer").flatMap(TransferCharacteristic.init(rawValue:))
        chromaLocation = p.string("chroma-location").flatMap(ChromaLocation.init(rawValue:))
        sampleAspect = p.rational("sar")
        rotation = p.string("rotation").flatMap { Int($0) }
        language = p.string("language")
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
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard changes, let format = self.output else { return try output.send(consume buffer) }
        let frame = SampleBuffer.writable(consume buffer)
        frame.format = .video(format)
        try output.send(consume frame)
    }
}
