/// A family of point-wise stages that can run as one pass (colour maps; point-wise shaders): the
/// node modules register one (`NodeRegistry.addFusion`), the core finds the runs and rewires the
/// graph but names no node type. A run is a linear stretch of stages of one family: each feeds
/// only the next (no fan-out), one input and one output each, the same format throughout.
public struct StageFusion: Sendable {
    /// What a configured node is to this family.
    public enum Role: Sendable, Equatable {
        /// A stage that may fuse with its neighbours.
        case stage
        /// A stage of this family that must stay on its own; the reason is shown by `validate`.
        case kept(String)
        /// Not a stage of this family (a neighbour-sampling filter, a converter, a sink…).
        case other
    }

    /// Short name for messages: "colour map".
    public var family: String
    /// The role of a configured node whose input and output are `format`.
    public var role: @Sendable (_ node: MediaNode, _ format: MediaFormat) -> Role
    /// Splits a run of at least two stages into pieces, each either fused into one node or kept
    /// as it is; `note` says why a piece ended where it did (a clamp that cannot be composed…).
    public var fuse: @Sendable (_ run: [FusionMember]) throws -> [FusionPiece]

    public init(family: String, role: @escaping @Sendable (_ node: MediaNode, _ format: MediaFormat) -> Role,
                fuse: @escaping @Sendable (_ run: [FusionMember]) throws -> [FusionPiece]) {
        self.family = family
        self.role = role
        self.fuse = fuse
    }
}

/// One stage of a run, as the fusion pass hands it to its family.
public struct FusionMember {
    public var id: String
    public var info: NodeTypeInfo
    public var params: ParamValues
    public var instance: MediaNode
    /// The format the stage takes and gives.
    public var format: MediaFormat
}

/// Part of a run: `members` (indices into the run, consecutive) fused into `node` with its
/// `info`, or kept as they are when `node` is nil.
public struct FusionPiece {
    public var members: Range<Int>
    public var node: MediaNode?
    public var info: NodeTypeInfo?
    /// What `validate` says about this piece (how it was fused, where and why it was split).
    public var note: String?

    public init(members: Range<Int>, node: MediaNode? = nil, info: NodeTypeInfo? = nil, note: String? = nil) {
        self.members = members
        self.node = node
        self.info = info
        self.note = note
    }
}

/// A node the fusion pass made from several: the ids of the nodes it stands for, so that a
/// live param change aimed at one of them can say where it went.
public protocol FusedStagesNode: MediaNode {
    var memberIds: [String] { get }
}

/// A fused node whose members keep their live params: a change aimed at a member (by its id,
/// `GraphRunner.setParam`) is checked against the member's own declaration and handed to the
/// fused node, which makes its pass again from its members.
public protocol LiveFusedStagesNode: FusedStagesNode {
    /// The members as the graph declared them (id, type, params), in `memberIds` order.
    var memberDeclarations: [(id: String, info: NodeTypeInfo, params: ParamValues, live: Bool)] { get }
    /// Member `index`'s params after a change, complete and validated. Called on the node's own
    /// thread between two buffers, as `LiveParamsNode.update` is.
    func update(member index: Int, params: ParamValues) throws
}
