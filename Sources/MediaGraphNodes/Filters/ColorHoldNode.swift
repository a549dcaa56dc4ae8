import MediaGraphCore
import MediaGraphKernels

/// `colorhold`: keeps one colour and turns the rest grey, as ffmpeg 5.1's `colorhold` (the same
/// bytes, `ColorKeyKernel`). The params are colorkey's. In place when the frame is not shared.
public final class ColorHoldNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "colorhold",
        doc: "Keeps the colours near one colour and turns the rest grey (ffmpeg's colorhold=color:similarity:blend, the same bytes).",
        category: .filter,
        inputs: [PortSpec("in", .video(ColorKeyKernel.formats), doc: "raw video (others are converted to rgba)")],
        outputs: [PortSpec("out", .video(ColorKeyKernel.formats), doc: "the frames, grey away from the colour")],
        params: ParamSpec.list(ColorKeyNode.colorParam, ColorKeyNode.similarityParam, ColorKeyNode.blendParam))

    let kernel: ColorKeyKernel

    public init(setup: NodeSetup) throws {
        kernel = try ColorKeyNode.kernel(.hold, setup.params)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        try output.sendTransformed(consume frame) { src, dst, _ in try kernel.run(source: src, destination: dst) }
    }
}
