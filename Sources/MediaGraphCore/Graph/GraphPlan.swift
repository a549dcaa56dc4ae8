/// A graph file that passed validation, as a value: every node's type resolved and its params
/// validated, every edge checked against the ports its node types declare, no cycle, no two
/// outputs that are one file. Making one creates no node and writes nothing
/// (`GraphPlan(validating:registry:)`); `instantiate` creates the nodes and negotiates formats,
/// as often as wanted — each call gives a graph of its own that runs independently.
///
/// Everything instantiation needs is captured (factories, the adapters registered at the time),
/// so a plan does not change when the registry does.
public struct GraphPlan: Sendable {
    /// One node of the file, its type resolved.
    public struct Node: Sendable {
        public var id: String
        public var info: NodeTypeInfo
        /// Params validated against `info.params`, defaults filled in.
        public var params: ParamValues
        public var location: SourceLocation?
        let make: NodeRegistry.Factory
        /// The params given with `--set` (`GraphSpec.Node.commandLine`).
        var commandLine: [String: CommandLineValue] = [:]
    }

    /// Which output of its producer an edge leaves.
    public enum OutputRef: Sendable, Equatable {
        /// An output the producer's type declares, by index.
        case index(Int)
        /// A member of a port family (`video1`, `audio_eng`) that the created node names
        /// (`DynamicOutputs`); nil for the producer's first output. Resolved at instantiation.
        case named(String?)
    }

    /// One edge, between indices into `nodes`.
    public struct Edge: Sendable {
        public var from: Int
        public var output: OutputRef
        public var to: Int
        /// The input port as connected (`in`, `video1`, …).
        public var input: String
        public var location: SourceLocation?
    }

    /// An adapter registered when the plan was made, with the node type it inserts (nil when
    /// no such type is registered: using it is then an error naming the type).
    struct Adapter: Sendable {
        var adapter: FormatAdapter
        var entry: NodeRegistry.Entry?
    }

    /// The nodes in the order of the file.
    public internal(set) var nodes: [Node] = []
    public internal(set) var edges: [Edge] = []
    /// Indices into `nodes` in the order they are instantiated (every producer before its consumers).
    public internal(set) var order: [Int] = []
    /// Problems that do not stop the graph (outputs connected nowhere).
    public internal(set) var warnings: [GraphDiagnostic] = []
    /// The graph as written.
    public let spec: GraphSpec
    var adapters: [Adapter] = []
    /// The stage families registered when the plan was made (`StageFusion`).
    var fusions: [StageFusion] = []

    init(spec: GraphSpec) { self.spec = spec }

    /// The edges arriving at node `n`, in the order its `process` indexes its inputs: by the
    /// declared port order, then `video`, `video1`, `video2`, … within a family.
    public func incoming(_ n: Int) -> [Edge] {
        let info = nodes[n].info
        return edges.filter { $0.to == n }.sorted { a, b in
            let ia = info.inputs.firstIndex { $0.matches(a.input) } ?? 0
            let ib = info.inputs.firstIndex { $0.matches(b.input) } ?? 0
            return ia != ib ? ia < ib : a.input.count != b.input.count ? a.input.count < b.input.count : a.input < b.input
        }
    }
}
