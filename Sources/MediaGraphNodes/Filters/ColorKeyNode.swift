import MediaGraphCore
import MediaGraphKernels

/// `colorkey`: makes one colour transparent, as ffmpeg 5.1's `colorkey` (the same bytes,
/// `ColorKeyKernel`): each pixel's alpha from its distance to the key colour, for a green screen
/// laid over another picture with `overlay`. rgba/bgra (other formats are converted first). In
/// place when the frame is not shared.
public final class ColorKeyNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "colorkey",
        doc: "Makes the pixels near a colour transparent (ffmpeg's colorkey=color:similarity:blend, the same bytes): a green screen for overlay.",
        category: .filter,
        inputs: [PortSpec("in", .video(ColorKeyKernel.formats), doc: "raw video (others are converted to rgba)")],
        outputs: [PortSpec("out", .video(ColorKeyKernel.formats), doc: "the frames with the key colour's alpha at 0")],
        params: ParamSpec.list(colorParam, similarityParam, blendParam))
    static let colorParam = Param<String>("color", default: "black", doc: "the key colour: a name, #RRGGBB or 0xRRGGBB (ffmpeg's colour syntax)")
    static let similarityParam = Param<Double>("similarity", 0.00001...1, default: 0.01, doc: "how far from the key colour a pixel still counts as it (0…1 of the largest distance)")
    static let blendParam = Param<Double>("blend", 0...1, default: 0, doc: "0: all or nothing; above 0 the alpha rises over this distance beyond the similarity")

    let kernel: ColorKeyKernel

    public init(setup: NodeSetup) throws {
        kernel = try Self.kernel(.key, setup.params)
    }

    /// The kernel for `mode` from the params both colorkey and colorhold take.
    static func kernel(_ mode: ColorKeyKernel.Mode, _ p: ParamValues) throws -> ColorKeyKernel {
        let color: RGBAColor
        do { color = try RGBAColor(parsing: p[colorParam]) } catch { throw NodeFailure("param 'color': \(error)") }
        return ColorKeyKernel(mode: mode, key: (color.red, color.green, color.blue),
                              similarity: Float(p[similarityParam]), blend: Float(p[blendParam]))
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        try output.sendTransformed(consume frame) { src, dst, _ in try kernel.run(source: src, destination: dst) }
    }
}
