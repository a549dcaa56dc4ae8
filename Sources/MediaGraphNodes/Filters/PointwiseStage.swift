import MediaGraphCore

/// A node whose every output pixel depends only on the same pixel of its input (a colour map, a
/// point-wise shader): a run of such nodes of one family can become one pass. The node declares
/// its family and whether this instance may fuse; the family's `StageFusion` (registered with
/// `StageFusion.pointwise`) says how a run composes.
///
/// A shader node joins by adopting this protocol with its own family and registering that
/// family's fusion:
/// ```swift
/// extension ShaderFilter: PointwiseStage {
///     public var fusionFamily: String { "shader" }
///     public func fusionBlocker(format: MediaFormat) -> String? { isPointwise ? nil : "it samples neighbours" }
/// }
/// registry.addFusion(.pointwise(family: "shader") { run in … })  // pieces: fused nodes or kept members
/// ```
public protocol PointwiseStage: MediaNode {
    /// The family whose fusion composes this stage (`StageFusion.family`).
    var fusionFamily: String { get }
    /// Why this instance must stay its own pass for frames in `format` (its `fuse` param is
    /// false, a format its family cannot compose, a map not of the family's form…), or nil.
    func fusionBlocker(format: MediaFormat) -> String?
}

extension StageFusion {
    /// The fusion of the `PointwiseStage` nodes of `family`: a node of another family (or none)
    /// ends a run; one whose `fusionBlocker` gives a reason stays on its own, with that reason
    /// shown by `validate`.
    public static func pointwise(family: String, fuse: @escaping @Sendable (_ run: [FusionMember]) throws -> [FusionPiece]) -> StageFusion {
        StageFusion(family: family, role: { node, format in
            guard let stage = node as? PointwiseStage, stage.fusionFamily == family else { return .other }
            if let why = stage.fusionBlocker(format: format) { return .kept(why) }
            return .stage
        }, fuse: fuse)
    }
}
