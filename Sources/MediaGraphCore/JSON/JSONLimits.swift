/// What the JSON parser accepts at most. Graph files may come from strangers: these bound the
/// memory, the stack and the time a file can make the parser use (Docs/graph-files.md, "Limits").
public enum JSONLimits {
    /// The whole text, in bytes (4 MiB; real graph files are a few KiB).
    public static let maxBytes = 4 << 20
    /// Objects and arrays inside one another (a graph file needs about 5).
    public static let maxDepth = 64
    /// Characters of one number, sign and exponent included.
    public static let maxNumberLength = 100
}
