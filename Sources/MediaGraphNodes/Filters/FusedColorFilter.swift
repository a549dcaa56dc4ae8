import MediaGraphCore
import MediaGraphKernels

/// Several colour filters run as one pass (made by `ColorMapFusion` and `ColorCurvesFusion`,
/// never named in a graph file): one kernel — a `ColorChainKernel` of composed matrices, or a
/// `ChannelCurvesKernel` of composed tables — each frame read and written once.
final class FusedColorFilter: VideoNode, FusedStagesNode {
    let memberIds: [String]
    let kernel: FrameKernel
    let threads: Int

    init(memberIds: [String], kernel: FrameKernel, threads: Int) {
        self.memberIds = memberIds
        self.kernel = kernel
        self.threads = threads
    }

    /// The matrices of a run, applied in turn (clamped between them).
    convenience init(memberIds: [String], transforms: [ColorTransform], threads: Int) {
        self.init(memberIds: memberIds, kernel: ColorChainKernel(transforms), threads: threads)
    }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }

    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let kernel = self.kernel, threads = self.threads
        if kernel.isIdentity {
            try output.send(consume frame)
            return
        }
        try output.sendTransformed(consume frame) { src, dst, _ in
            try kernel.run(source: src, destination: dst, threads: threads)
        }
    }
}

extension ColorChainKernel: FrameKernel {}
