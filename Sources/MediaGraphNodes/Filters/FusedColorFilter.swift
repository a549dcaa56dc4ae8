import MediaGraphCore
import MediaGraphKernels

/// Several colour filters run as one pass (made by `ColorMapFusion`, never named in a graph
/// file): one `ColorChainKernel` whose maps are the composed stretches of the chain, each frame
/// read and written once.
final class FusedColorFilter: VideoNode, FusedStagesNode {
    let memberIds: [String]
    let kernel: ColorChainKernel
    let threads: Int

    init(memberIds: [String], transforms: [ColorTransform], threads: Int) {
        self.memberIds = memberIds
        kernel = ColorChainKernel(transforms)
        self.threads = threads
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
