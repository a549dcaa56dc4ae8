import MediaGraphCore

/// The node types that ship with MediaGraph. Adding a node is one line here.
public enum BuiltinNodes {
    public static func register(into r: NodeRegistry) {
        r.add(TestSource.self)
        r.add(Y4MSource.self)
        r.add(Y4MSink.self)
        r.add(RawSource.self)
        r.add(RawSink.self)
        r.add(NullSink.self)
        r.add(FrameHashSink.self)
    }

    /// A registry with every built-in node type.
    public static func makeRegistry() -> NodeRegistry {
        let r = NodeRegistry()
        register(into: r)
        return r
    }
}
