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
            let (line, caret) = window(of: lines[d.location.line - 1].replacingTabs(), column: d.location.column)
            text += "\n" + line
            text += "\n" + String(repeating: " ", count: caret) + "^"
        }
        return text
    }

    /// Characters of a source line shown under a message: a longer line is cut to this many
    /// around the column, so a one-line megabyte shader does not print a megabyte per error.
    static let shownLineLength = 160

    /// The part of `line` shown and the caret's offset in it.
    static func window(of line: String, column: Int) -> (String, Int) {
        let caret = max(0, column - 1)
        guard line.count > shownLineLength else { return (line, caret) }
        let start = max(0, min(caret - shownLineLength / 2, line.count - shownLineLength))
        let slice = line.dropFirst(start).prefix(shownLineLength)
        let prefix = start > 0 ? "..." : ""
        let suffix = start + shownLineLength < line.count ? "..." : ""
        return (prefix + slice + suffix, caret - start + prefix.count)
    }
}

extension Substring {
    /// Tabs become single spaces so the caret lines up with the column (columns count characters).
    func replacingTabs() -> String { String(self.map { $0 == "\t" ? " " : $0 }).trimmingTrailingCR() }
}

extension String {
    func trimmingTrailingCR() -> String { hasSuffix("\r") ? String(dropLast()) : self }

    /// The text for a message: at most `limit` characters, longer text cut with "...".
    func clipped(_ limit: Int = 64) -> String { count <= limit ? self : prefix(limit) + "..." }
}

/// Collects diagnostics; the same message at the same place is kept once (a function body is
/// checked again each time it is inlined). After `ShaderLimits.errors` errors the rest are only
/// counted. Every query is O(1): the parser asks after each syntax error.
struct DiagnosticList {
    private(set) var items: [ShaderDiagnostic] = []
    private var seen = Set<ShaderDiagnostic>()
    private var errorLines = Set<Int>()
    private(set) var errorCount = 0
    /// Errors past the limit, not listed, and where the first of them was.
    private(set) var dropped = 0
    private(set) var firstDropped: ShaderSourceLocation?
    /// While positive, errors are dropped (used when re-lowering code already checked once).
    var muted = 0

    var hasErrors: Bool { errorCount > 0 }

    func hasError(onLine line: Int) -> Bool { errorLines.contains(line) }

    mutating func error(_ location: ShaderSourceLocation, _ message: String) {
        add(ShaderDiagnostic(severity: .error, location: location, message: message))
    }

    /// An error even while muted: a limit was exceeded, which no earlier check has reported.
    mutating func limitError(_ location: ShaderSourceLocation, _ message: String) {
        let saved = muted
        muted = 0
        error(location, message)
        muted = saved
    }

    mutating func add(_ d: ShaderDiagnostic) {
        guard muted == 0, !seen.contains(d) else { return }
        if d.severity == .error && errorCount >= ShaderLimits.errors {
            dropped += 1
            if firstDropped == nil { firstDropped = d.location }
            return
        }
        seen.insert(d)
        items.append(d)
        if d.severity == .error {
            errorCount += 1
            errorLines.insert(d.location.line)
        }
    }

    /// The diagnostics in source order, with a last one saying how many errors were left out.
    func sorted() -> [ShaderDiagnostic] {
        var all = items.sorted { $0.location < $1.location }
        if dropped > 0, let at = firstDropped {
            all.append(ShaderDiagnostic(severity: .error, location: at,
                                        message: "too many errors: \(dropped) more after the first \(ShaderLimits.errors) are not listed"))
        }
        return all
    }
}
