/// How large a graph may be (Docs/graph-files.md, "Limits"). Validation and scheduling work per
/// node and per edge; these keep a hostile file from making them take unbounded time, threads or
/// memory.
public enum GraphLimits {
    /// Nodes in one graph (each source, sink and encoder gets a thread of its own).
    public static let maxNodes = 1000
    /// Node references in all chains together (each consecutive pair is an edge).
    public static let maxChainReferences = 10_000
    /// Problems `mediagraph` prints for one graph; the rest are counted.
    public static let maxPrintedDiagnostics = 50
}
