import MediaGraphCore
import MediaGraphCodecs

/// `gif`: writes an animated GIF (libimagequant palettes, our own LZW writer), through an output
/// file that appears only when complete.
public final class GifSink: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "gif",
        doc: "Writes an animated GIF: libimagequant palettes per frame or per clip, error-diffusion or ordered dither, "
            + "unchanged pixels transparent and frames cut to the changed rectangle, delays from timestamps in centiseconds.",
        category: .sink,
        inputs: [PortSpec("in", .video([.rgba, .bgra]), doc: "raw video (other formats get a visible convert)")],
        params: ParamSpec.list(pathParam, paletteParam, paletteFramesParam, ditherParam, ditherStrengthParam,
                               transparencyParam, cropParam, loopParam, rateParam, speedParam),
        // a GIF has no display rotation: the frames are turned upright, as ffmpeg's autorotate does
        inputShape: RotateNode.uprightInputs)
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output .gif file")
    static let paletteParam = Param<GifSettings.Palette>("palette", default: .clip,
        doc: "clip: one palette from the first palette-frames frames; frame: a palette per frame")
    static let paletteFramesParam = Param<Int>("palette-frames", 1...64, default: 8,
        doc: "frames whose colours make the clip palette (they wait in memory until it is made)")
    static let ditherParam = Param<GifSettings.Dither>("dither", default: .diffusion,
        doc: "diffusion (libimagequant's Floyd-Steinberg), ordered (Bayer 8x8) or none")
    static let ditherStrengthParam = Param<Double>("dither-strength", 0...1, default: 0.5,
        doc: "dither strength: 0.5 keeps gradients smooth with half the noise of full Floyd-Steinberg (Docs/pictures.md: smaller files, higher SSIM)")
    static let transparencyParam = Param<Bool>("transparency", default: true,
        doc: "pixels unchanged since the previous frame become transparent (smaller files, same picture)")
    static let cropParam = Param<Bool>("crop", default: true, doc: "each frame is cut to the rectangle that changed")
    static let loopParam = Param<Int>("loop", -1...65535, default: 0, doc: "loop count: 0 forever, -1 play once (no loop extension)")
    static let rateParam = Param<Rational?>.rational("rate", doc: "highest frame rate kept (frames in between are dropped); unset: every frame")
    static let speedParam = Param<Int>("speed", 1...10, default: 2,
        doc: "libimagequant speed: 1 best ... 10 fastest (2: the best clip palette measured; 3 and above posterize it)")

    let path: String
    var settings = GifSettings()
    let rate: Rational?
    var file: OutputFile?
    var encoder: GifAnimationEncoder?
    var format: VideoFormat!
    var bytes: [UInt8] = []
    var lastSlot: Int64 = .min
    var firstTime: Double?
    var endTime = 0.0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        path = p[Self.pathParam]
        settings.palette = p[Self.paletteParam]
        settings.paletteFrames = p[Self.paletteFramesParam]
        settings.dither = p[Self.ditherParam]
        settings.ditherStrength = p[Self.ditherStrengthParam]
        settings.transparency = p[Self.transparencyParam]
        settings.crop = p[Self.cropParam]
        settings.loop = p[Self.loopParam] < 0 ? nil : p[Self.loopParam]
        settings.speed = p[Self.speedParam]
        rate = p[Self.rateParam]
        if let rate, rate.num <= 0 { throw NodeFailure("param 'rate': expected a rate above 0, found \(rate.num)/\(rate.den)") }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        format = inputs[0].format.video
        guard format.width <= GifWriter.maxSide, format.height <= GifWriter.maxSide else {
            throw NodeFailure("a GIF is at most \(GifWriter.maxSide) pixels per side; the input is \(format.width)x\(format.height) (add a scale node)")
        }
        return []
    }

    public func start() throws {
        file = try OutputFile(path: path)
        do {
            encoder = try GifAnimationEncoder(width: format.width, height: format.height, settings: settings)
        } catch let e as CodecError { throw NodeFailure(e.message) }
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let time = frame.seconds
        let duration = frame.durationSeconds(defaultRate: format.frameRate)
        endTime = max(endTime, time + duration)
        if firstTime == nil { firstTime = time }
        if let rate {
            // one frame per slot of 1/rate from the first frame on: the first frame of each slot
            let slot = Int64(((time - firstTime!) * Double(rate.num) / Double(rate.den) + 1e-9).rounded(.down))
            if slot <= lastSlot { return }
            lastSlot = slot
        }
        let planes = frame.planes
        bytes.removeAll(keepingCapacity: true)
        do {
            try encoder!.add(planes.data0, stride: planes.stride0, bgra: planes.format == .bgra, time: time, into: &bytes)
        } catch let e as CodecError { throw NodeFailure(e.message) }
        try file!.write(bytes)
    }

    public func finish(output: NodeOutput) throws {
        guard let encoder, let file else { return }
        bytes.removeAll(keepingCapacity: true)
        do { try encoder.finish(endTime: endTime, into: &bytes) } catch let e as CodecError { throw NodeFailure(e.message) }
        if encoder.framesWritten == 0 { throw NodeFailure("no frames reached the GIF sink: nothing to write to \(file.displayName)") }
        try file.write(bytes)
        try file.commit()
    }

    public func abort() { file?.discard() }
}
