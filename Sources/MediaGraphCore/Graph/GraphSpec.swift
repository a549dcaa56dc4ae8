/// A reference to a node's port in a chain: `"id"` or `"id.port"`.
public struct PortRef: Hashable, Sendable, CustomStringConvertible {
    public var node: String
    public var port: String?

    public init(node: String, port: String? = nil) {
        self.node = node
        self.port = port
    }

    public var description: String { port.map { "\(node).\($0)" } ?? node }
}

/// A graph as written (in a file or in code), before validation.
public struct GraphSpec: Sendable {
    public struct Node: Sendable {
        public var id: String
        public var type: String
        public var params: JSONValue?
        public var location: SourceLocation?
        /// The params given with `--set`, by name (the last `--set` of a param wins).
        public var commandLine: [String: CommandLineValue] = [:]

        public init(id: String, type: String, params: JSONValue? = nil, location: SourceLocation? = nil) {
            self.id = id
            self.type = type
            self.params = params
            self.location = location
        }
    }

    public struct Edge: Sendable {
        public var from: PortRef
        public var to: PortRef
        public var location: SourceLocation?

        public init(from: PortRef, to: PortRef, location: SourceLocation? = nil) {
            self.from = from
            self.to = to
            self.location = location
        }
    }

    public var nodes: [Node] = []
    public var edges: [Edge] = []
    /// Plugin files or directories named by the graph (resolved against the graph's directory).
    public var plugins: [String] = []
    /// The same entries as written, with their place in the file (for the plugin trust check).
    public var pluginEntries: [PluginEntry] = []

    /// One entry of a graph's `"plugins"` list as written.
    public struct PluginEntry: Sendable {
        public var text: String
        public var location: SourceLocation?
        public init(text: String, location: SourceLocation? = nil) {
            self.text = text
            self.location = location
        }
    }
    /// Whether runs of point-wise stages may become one pass (`StageFusion`); false keeps every
    /// node its own stage (the graph file's `"fuse": false`), for bit-exact stage-by-stage output.
    public var fuse: Bool = true
    /// The number, in a longer run, of the first video frame this run's nodes see: a segment of
    /// a planned run (`mediagraph run-segment`) starts past 0, and nodes whose params count
    /// frames (`n`) count from it, so they see the whole run's numbers. Not in graph files.
    public var firstFrameNumber = 0
    /// The file the graph came from, for messages; nil for graphs built in code.
    public var file: String?
    /// Directory that relative paths in params are taken against.
    public var baseDirectory: String = "."

    public init() {}

    /// Adds a node (for graphs built in code).
    @discardableResult
    public mutating func add(_ id: String, _ type: String, _ params: [(String, JSONValue)] = []) -> String {
        nodes.append(Node(id: id, type: type, params: params.isEmpty ? nil : .obj(params)))
        return id
    }

    /// Connects a chain of references, as a graph file's `"chains"` does: `["src", "invert", "sink"]`.
    public mutating func chain(_ refs: String...) {
        let parsed = refs.map { GraphFile.parseRef($0) }
        for k in 1..<parsed.count {
            edges.append(Edge(from: PortRef(node: parsed[k - 1].node, port: k - 1 == 0 ? parsed[k - 1].port : nil), to: parsed[k]))
        }
    }
}
