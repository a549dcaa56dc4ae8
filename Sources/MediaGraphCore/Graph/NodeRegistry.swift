/// Every node type the graph loader knows, by name.
///
/// `@unchecked Sendable`: the tables are filled while the program sets up (built-in nodes, then
/// plugins), before any graph runs; from then on they are only read, from any thread.
public final class NodeRegistry: @unchecked Sendable {
    public typealias Factory = @Sendable (NodeSetup) throws -> MediaNode

    public struct Entry: Sendable {
        public var info: NodeTypeInfo
        public var make: Factory
    }

    public private(set) var entries: [String: Entry] = [:]
    /// Node types the graph may insert where formats do not meet, tried in this order.
    public private(set) var adapters: [FormatAdapter] = []
    /// Families of point-wise stages the graph may fuse into one pass, tried in this order.
    public private(set) var fusions: [StageFusion] = []
    /// What a name that is not a node type means here, by name: ffmpeg's filter, encoder and
    /// muxer names a user migrating from it types first (`negate` is `invert`).
    public private(set) var hints: [String: String] = [:]

    public init() {}

    /// Registers a node type; a second type of the same name is an error naming both origins.
    public func register(_ info: NodeTypeInfo, make: @escaping Factory) throws {
        if let existing = entries[info.name] {
            throw NodeFailure("node type '\(info.name)' from \(info.origin) is already defined by \(existing.info.origin)")
        }
        entries[info.name] = Entry(info: info, make: make)
    }

    /// Registers a Swift node type: `registry.add(InvertNode.self)`.
    public func add<N: RegisteredNode & SendableMetatype>(_ type: N.Type) {
        entries[N.typeInfo.name] = Entry(info: N.typeInfo, make: { try N(setup: $0) })
    }

    public func entry(_ name: String) -> Entry? { entries[name] }

    /// Lets the graph insert `adapter.nodeType` where an edge's formats do not meet.
    public func addAdapter(_ adapter: FormatAdapter) { adapters.append(adapter) }

    /// Lets the graph fuse runs of the stages of `fusion`'s family into one pass.
    public func addFusion(_ fusion: StageFusion) { fusions.append(fusion) }

    /// Says what `name`, which is no node type, means here (`unknownTypeAdvice`).
    public func addHint(_ name: String, _ text: String) { hints[name] = text }

    /// What to tell a user who wrote the unknown type `name`: its hint, or the closest type name.
    public func unknownTypeAdvice(_ name: String) -> String? {
        if let hint = hints[name.lowercased()] { return hint }
        return ClosestName.find(name, in: typeNames).map { "did you mean '\($0)'?" }
    }

    /// Type names in alphabetical order.
    public var typeNames: [String] { entries.keys.sorted() }
}
