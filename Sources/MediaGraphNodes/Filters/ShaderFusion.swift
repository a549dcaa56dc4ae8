import MediaGraphCore
import MediaGraphShader

/// How a run of point-wise `shader` nodes becomes one pass: their bound programs are composed by
/// inlining (`BoundShaderProgram.composing`: each stage's output colour, clamped to 0…1, becomes
/// the next one's read of its own pixel). A shader that samples a neighbour, a computed
/// coordinate or a second input is not point-wise: it stays its own pass and ends the run, and
/// `validate` says why. What the fused pass skips is the 8-bit rounding between stages (within
/// 1 LSB for stages that do not amplify; Docs/shaders.md). The graph's `"fuse": false` keeps
/// every stage separate.
public enum ShaderFusion {
    /// The family name (`StageFusion.family`).
    public static let family = "shader"
    /// The registration (`NodeRegistry.addFusion`).
    public static let fusion = StageFusion.pointwise(family: family) { run in try fuse(run) }

    static func fuse(_ run: [FusionMember]) throws -> [FusionPiece] {
        let nodes = run.compactMap { $0.instance as? ShaderFilter }
        guard nodes.count == run.count else { return [] }
        let program = try BoundShaderProgram.composing(nodes.map(\.boundProgram))
        let ids = run.map(\.id)
        let note = "fused " + ids.map { "'\($0)'" }.joined(separator: ", ") + " (shader: \(program.name)) into one pass '\(ids.joined(separator: "+"))': "
            + "one shader program; 8-bit roundings between the stages skipped"
        let node = FusedShaderFilter(memberIds: ids, kernel: ShaderKernel(program: program), threads: nodes[0].threads)
        let info = NodeTypeInfo(name: "fused: " + run.map(\.info.name).joined(separator: "+"),
                                doc: "Point-wise shaders \(ids.joined(separator: ", ")) run as one program.", category: .filter,
                                inputs: [PortSpec("in", .video([.rgba]), doc: "rgba video")],
                                outputs: [PortSpec("out", .video([.rgba]), doc: "rgba video, same size")])
        return [FusionPiece(members: 0..<run.count, node: node, info: info, note: note)]
    }
}

/// A shader node is a stage of the shader family when its program is point-wise.
extension ShaderFilter: PointwiseStage {
    public var fusionFamily: String { ShaderFusion.family }

    public func fusionBlocker(format: MediaFormat) -> String? {
        boundProgram.pointwiseRefusal.map { "\($0), so it is not point-wise" }
    }
}

/// Several point-wise shaders run as one program (made by `ShaderFusion`, never named in a graph
/// file); in place when the frame is unshared, as every point-wise shader.
final class FusedShaderFilter: VideoNode, FusedStagesNode {
    let memberIds: [String]
    let kernel: ShaderKernel
    let threads: Int

    init(memberIds: [String], kernel: ShaderKernel, threads: Int) {
        self.memberIds = memberIds
        self.kernel = kernel
        self.threads = threads
    }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }

    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let kernel = self.kernel, threads = self.threads
        try output.sendTransformed(consume frame) { src, dst, _ in
            try kernel.run(source: src, destination: dst, threads: threads)
        }
    }
}
