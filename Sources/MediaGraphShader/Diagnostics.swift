/// A position in shader source: 1-based line and column (named apart from the graph loader's
/// SourceLocation so both modules can be imported together).
public struct ShaderSourceLocation: Hashable, Sendable, Comparable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    public static func < (a: ShaderSourceLocation, b: ShaderSourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// One message about a shader: where, how bad, what.
public struct ShaderDiagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }
    public var severity: Severity
    public var location: ShaderSourceLocation
    public var message: String
    public var description: String { "\(location.line):\(location.column): \(severity.rawValue): \(message)" }
}

/// Every error found while compiling a shader, formatted like a compiler's output:
/// `file:line:column: error: message`, the source line, and a caret under the column.
public struct ShaderCompileError: Error, CustomStringConvertible, Sendable {
    public var fileName: String
    public var diagnostics: [ShaderDiagnostic]
    let sourceLines: [Substring]

    init(fileName: String, source: String, diagnostics: [ShaderDiagnostic]) {
        self.fileName = fileName
        self.diagnostics = diagnostics
        self.sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// All diagnostics, each as `file:line:column: error: message`, source line, caret.
    public var description: String {
        diagnostics.map { ShaderCompileError.format($0, fileName: fileName, lines: sourceLines) }
            .joined(separator: "\n")
    }

    static func format(_ d: ShaderDiagnostic, fileName: String, lines: [Substring]) -> String {
        var text = "\(fileName):\(d.location.line):\(d.location.column): \(d.severity.rawValue): \(d.message)"
        if d.location.line >= 1 && d.location.line <= lines.count {
            let line = lines[d.location.line - 1].replacingTabs()
            text += "\n" + line
            text += "\n" + String(repeating: " ", count: max(0, d.location.column - 1)) + "^"
        }
        return text
    }
}

extension Substring {
    /// Tabs become single spaces so the caret lines up with the column (columns count characters).
    func replacingTabs() -> String { String(self.map { $0 == "\t" ? " " : $0 }).trimmingTrailingCR() }
}

extension String {
    func trimmingTrailingCR() -> String { hasSuffix("\r") ? String(dropLast()) : self }
}

/// Collects diagnostics; the same message at the same place is kept once (a function body is
/// checked again each time it is inlined).
struct DiagnosticList {
    private(set) var items: [ShaderDiagnostic] = []
    private var seen = Set<ShaderDiagnostic>()
    /// While positive, errors are dropped (used when re-lowering code already checked once).
    var muted = 0

    var hasErrors: Bool { items.contains { $0.severity == .error } }

    func hasError(onLine line: Int) -> Bool { items.contains { $0.severity == .error && $0.location.line == line } }

    mutating func error(_ location: ShaderSourceLocation, _ message: String) {
        add(ShaderDiagnostic(severity: .error, location: location, message: message))
    }

    mutating func add(_ d: ShaderDiagnostic) {
        guard muted == 0, !seen.contains(d) else { return }
        seen.insert(d)
        items.append(d)
    }
}
