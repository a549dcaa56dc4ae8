/// Why a plugin file could not be loaded, or why a plugin node failed. The message names the
/// plugin file and, where there is one, the node type.
public struct PluginError: Error, Sendable, CustomStringConvertible {
    /// The plugin file (or directory) the problem is about.
    public var file: String
    public var message: String

    public init(file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "plugin \(file): \(message)" }
}
