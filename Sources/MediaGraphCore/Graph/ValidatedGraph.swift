/// A graph that passed validation, instantiated (`GraphPlan.instantiate`): nodes created and
/// configured, every producer before its consumers, with the negotiated format on every
/// connection. The adapters the engine inserted are nodes too. Run it once with `GraphRunner`;
/// instantiate the plan again for another run.
public final class ValidatedGraph {
    public struct Node {
        public var id: String
        public var info: NodeTypeInfo
        /// The validated params the node was created with.
        public var params: ParamValues
        public var instance: MediaNode
        /// Connected input port names, in the order `process` indexes them.
        public var inputNames: [String]
        public var inputFormats: [MediaFormat]
        public var outputFormats: [MediaFormat]
        /// Output port names, in the order of `outputFormats`.
        public var outputNames: [String]
        /// True for converters the engine inserted between ports whose formats differ.
        public var inserted: Bool
    }

    public struct Connection {
        public var from: Int
        public var fromPort: Int
        public var to: Int
        public var toInput: Int
        public var format: MediaFormat
    }

    public internal(set) var nodes: [Node] = []
    public internal(set) var connections: [Connection] = []
    /// Warnings found while validating (the graph can run).
    public internal(set) var warnings: [GraphDiagnostic] = []
    /// What the engine decided on its own (inserted converters), for the log and `validate`.
    public internal(set) var notes: [String] = []
    public internal(set) var spec: GraphSpec

    init(spec: GraphSpec) { self.spec = spec }

    public func index(of id: String) -> Int? { nodes.firstIndex { $0.id == id } }

    /// Connections leaving node `n`'s output `port`.
    public func consumers(of n: Int, port: Int) -> [Connection] {
        connections.filter { $0.from == n && $0.fromPort == port }
    }

    /// Whether connection `c` carries encoded packets into a node that keeps them encoded (a
    /// muxer, a file or hash sink): a stream copy. Packets into a converter (an inserted
    /// decoder) are decoded.
    public func isStreamCopy(_ c: Connection) -> Bool {
        c.format.isEncoded && nodes[c.to].info.category != .converter
    }

    /// Connections arriving at node `n`, by input index.
    public func producers(of n: Int) -> [Connection] {
        connections.filter { $0.to == n }.sorted { $0.toInput < $1.toInput }
    }
}
