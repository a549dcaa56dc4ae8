import MediaGraphCore
import MediaGraphKernels

/// Several colour filters run as one pass (made by `ColorMapFusion`, never named in a graph
/// file): one kernel — a `ColorChainKernel` of composed matrices, a `ChannelCurvesKernel` or
/// `PlaneCurvesKernel` of composed tables, or a `StripChainKernel` of such pieces — each frame
/// read and written once.
///
/// Its members keep their live params: a change goes to the member filter, which makes its own
/// kernel again, and the pass is composed again from all members (`recompose`), between two
/// frames on this node's thread.
final class FusedColorFilter: VideoNode, LiveFusedStagesNode {
    let memberIds: [String]
    private(set) var kernel: FrameKernel
    let threads: Int
    /// The members as fused (their filters stay configured), and how to compose them again.
    private var members: [FusionMember] = []
    private var recompose: (([FusionMember]) throws -> FrameKernel)?

    init(memberIds: [String], kernel: FrameKernel, threads: Int) {
        self.memberIds = memberIds
        self.kernel = kernel
        self.threads = threads
    }

    /// The matrices of a run, applied in turn (clamped between them).
    convenience init(memberIds: [String], transforms: [ColorTransform], threads: Int) {
        self.init(memberIds: memberIds, kernel: ColorChainKernel(transforms), threads: threads)
    }

    /// Lets the members' live params change: `recompose` makes the pass from the members.
    func takeLiveChanges(of members: [FusionMember], recompose: @escaping ([FusionMember]) throws -> FrameKernel) {
        self.members = members
        self.recompose = recompose
    }

    var memberDeclarations: [(id: String, info: NodeTypeInfo, params: ParamValues, live: Bool)] {
        recompose == nil ? [] : members.map { ($0.id, $0.info, $0.params, $0.instance is LiveParamsNode) }
    }

    func update(member index: Int, params: ParamValues) throws {
        guard let recompose, let filter = members[index].instance as? LiveParamsNode else { return }
        try filter.update(params: params)
        members[index].params = params
        kernel = try recompose(members)
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
