/// One problem found in a graph before it runs: an error (the graph cannot run) or a warning.
/// It names what it can (node, port, param), says what was expected and what was found, and
/// where the JSON allows it, the file, line and column.
public struct GraphDiagnostic: Error, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    public var message: String
    public var node: String?
    public var port: String?
    public var param: String?
    public var file: String?
    public var location: SourceLocation?

    public static func error(_ message: String, node: String? = nil, port: String? = nil, param: String? = nil,
                             file: String? = nil, at location: SourceLocation? = nil) -> GraphDiagnostic {
        GraphDiagnostic(severity: .error, message: message, node: node, port: port, param: param, file: file, location: location)
    }

    public static func warning(_ message: String, node: String? = nil, port: String? = nil, param: String? = nil,
                               file: String? = nil, at location: SourceLocation? = nil) -> GraphDiagnostic {
        GraphDiagnostic(severity: .warning, message: message, node: node, port: port, param: param, file: file, location: location)
    }

    /// `file:line:column: error: message`, as compilers print it.
    public var description: String {
        var prefix = ""
        if let file { prefix = file + ":" }
        if let location { prefix += "\(location.line):\(location.column):" }
        if !prefix.isEmpty { prefix += " " }
        return prefix + severity.rawValue + ": " + message
    }
}

/// The graph could not be loaded or validated; every problem found is listed. Exit code 2.
public struct GraphValidationError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [GraphDiagnostic]

    public init(_ diagnostics: [GraphDiagnostic]) { self.diagnostics = diagnostics }

    public var errors: [GraphDiagnostic] { diagnostics.filter { $0.severity == .error } }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// A failure inside a node, with a message a person can act on. Nodes throw it (or any error).
public struct NodeFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A run stopped by the first error: which node failed and why. Exit code 1.
public struct GraphRunError: Error, CustomStringConvertible {
    public var node: String
    public var type: String
    public var underlying: Error

    public var description: String { "node '\(node)' (\(type)): \(underlying)" }
}
