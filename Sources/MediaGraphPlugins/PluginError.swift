/// Why a plugin file could not be loaded, or why a plugin node failed. The message names the
/// plugin file and, where there is one, the node type.
public struct PluginError: Error, Sendable, CustomStringConvertible {
    /// The plugin file (or directory) the problem is about.
    public var file: String
    public var message: String
    /// A valid plugin of a kind this host does not run (a frei0r source or mixer): listed as
    /// skipped, not as a failure.
    public var unsupported: Bool

    public init(file: String, _ message: String, unsupported: Bool = false) {
        self.file = file
        self.message = message
        self.unsupported = unsupported
    }

    public var description: String { "plugin \(file): \(message)" }
}
