/// Splits shader source into tokens and applies the preprocessor on the way: comments,
/// `#define` of object-like macros, `#undef`, `#ifdef`/`#ifndef`/`#if`/`#else`/`#endif`
/// (GL_ES is defined, as on a GPU), `#version 100`, `#pragma` (ignored).
///
/// Bounded on any input (`ShaderLimits`): the source size, identifier length, token count, the
/// number of macro expansions and their nesting, and `#if` nesting. A macro is not expanded again
/// inside its own expansion (as in C), so `#define A A` and mutual references end.
struct Lexer {
    private let bytes: [UInt8]
    private var pos = 0
    private var line = 1
    private var lineStart = 0
    private var macros: [String: [Token]] = ["GL_ES": [Token(kind: .intLiteral, text: "1", location: ShaderSourceLocation(line: 0, column: 0), intValue: 1)]]
    /// One entry per open #if: whether this branch is emitted, whether any branch was taken.
    private var conditionals: [(active: Bool, taken: Bool, location: ShaderSourceLocation)] = []
    /// Entries of `conditionals` that are not active (kept so `emitting` is O(1)).
    private var inactiveConditionals = 0
    var diagnostics: DiagnosticList

    init(source: String, diagnostics: DiagnosticList) {
        bytes = Array(source.utf8)
        self.diagnostics = diagnostics
    }

    private var emitting: Bool { inactiveConditionals == 0 }

    private mutating func pushConditional(_ active: Bool, taken: Bool, _ location: ShaderSourceLocation) {
        if conditionals.count == ShaderLimits.conditionalNesting {
            diagnostics.error(location, "'#if' nested more than \(ShaderLimits.conditionalNesting) deep")
        }
        conditionals.append((active, taken, location))
        if !active { inactiveConditionals += 1 }
    }

    private mutating func popConditional() -> (active: Bool, taken: Bool, location: ShaderSourceLocation)? {
        guard let top = conditionals.popLast() else { return nil }
        if !top.active { inactiveConditionals -= 1 }
        return top
    }

    /// Whether the levels around the innermost `#if` are all emitted.
    private var enclosingEmitting: Bool {
        inactiveConditionals - (conditionals.last.map { $0.active ? 0 : 1 } ?? 0) == 0
    }
    private var here: ShaderSourceLocation { ShaderSourceLocation(line: line, column: pos - lineStart + 1) }

    /// All tokens of the source with macros expanded, ending in one `.end` token.
    mutating func tokenize() -> [Token] {
        var out: [Token] = []
        if bytes.count > ShaderLimits.sourceBytes {
            // Nothing is lexed: the error names the place where the limit falls.
            expansionFailed = true
            diagnostics.error(location(ofOffset: ShaderLimits.sourceBytes),
                              "shader source is larger than \(ShaderLimits.sourceBytes) bytes")
            return [Token(kind: .end, text: "end of file", location: ShaderSourceLocation(line: 1, column: 1))]
        }
        var atLineStart = true
        while !expansionFailed {
            skipSpaceAndComments(&atLineStart)
            if pos >= bytes.count { break }
            if bytes[pos] == UInt8(ascii: "#") && atLineStart {
                directive()
                atLineStart = true
                continue
            }
            atLineStart = false
            guard let token = nextToken() else { continue }
            guard emitting else { continue }
            expand(token, into: &out, depth: 0)
        }
        for open in conditionals {
            diagnostics.error(open.location, "unterminated conditional directive: missing '#endif'")
        }
        out.append(Token(kind: .end, text: "end of file", location: here))
        return out
    }

    /// The line and column of a byte offset (only for the source-size error).
    private func location(ofOffset offset: Int) -> ShaderSourceLocation {
        var line = 1, start = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == UInt8(ascii: "\n") { line += 1; start = i + 1 }
        return ShaderSourceLocation(line: line, column: offset - start + 1)
    }

    /// Set once a token or expansion limit is exceeded: lexing stops there.
    private var expansionFailed = false
    /// Whether lexing stopped at a limit (source size, tokens, macro expansion).
    var failed: Bool { expansionFailed }
    /// Macros expanded so far (`ShaderLimits.macroExpansions`).
    private var expansions = 0
    /// Macros being expanded, innermost last: a name in it is not expanded again.
    private var expanding: [String] = []

    private mutating func expansionLimit(_ location: ShaderSourceLocation, _ message: String) {
        expansionFailed = true
        diagnostics.error(location, message)
    }

    /// Appends `token`, or the expansion of the macro it names, to `out`. Every expansion counts,
    /// so macros that expand to nothing (and produce no tokens) are bounded too; each token of a
    /// body either is an expansion or is output, so the work is at most expansions plus tokens.
    /// Expanded tokens carry the location of the macro's use in the source.
    private mutating func expand(_ token: Token, into out: inout [Token], depth: Int) {
        if expansionFailed { return }
        guard token.kind == .identifier, let body = macros[token.text], !expanding.contains(token.text) else {
            if out.count >= ShaderLimits.tokens {
                expansionLimit(token.location, depth == 0 ? "shader has more than \(ShaderLimits.tokens) tokens"
                                                          : "macro expansion produces more than \(ShaderLimits.tokens) tokens")
                return
            }
            out.append(token)
            return
        }
        expansions += 1
        if expansions > ShaderLimits.macroExpansions {
            expansionLimit(token.location, "macros expanded more than \(ShaderLimits.macroExpansions) times")
            return
        }
        if depth >= ShaderLimits.macroNesting {
            expansionLimit(token.location, "macros nested more than \(ShaderLimits.macroNesting) deep (expanding '\(token.text.clipped())')")
            return
        }
        expanding.append(token.text)
        defer { expanding.removeLast() }
        for var t in body {
            t.location = token.location
            expand(t, into: &out, depth: depth + 1)
            if expansionFailed { return }
        }
    }

    private mutating func newline() {
        pos += 1
        line += 1
        lineStart = pos
    }

    private mutating func skipSpaceAndComments(_ atLineStart: inout Bool) {
        while pos < bytes.count {
            let c = bytes[pos]
            if c == UInt8(ascii: "\n") {
                newline(); atLineStart = true
            } else if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                pos += 1
            } else if c == UInt8(ascii: "\\") && pos + 1 < bytes.count && bytes[pos + 1] == UInt8(ascii: "\n") {
                pos += 1; newline()  // line continuation
            } else if c == UInt8(ascii: "/") && pos + 1 < bytes.count && bytes[pos + 1] == UInt8(ascii: "/") {
                while pos < bytes.count && bytes[pos] != UInt8(ascii: "\n") { pos += 1 }
            } else if c == UInt8(ascii: "/") && pos + 1 < bytes.count && bytes[pos + 1] == UInt8(ascii: "*") {
                let start = here
                pos += 2
                var closed = false
                while pos < bytes.count {
                    if bytes[pos] == UInt8(ascii: "*") && pos + 1 < bytes.count && bytes[pos + 1] == UInt8(ascii: "/") {
                        pos += 2; closed = true; break
                    }
                    if bytes[pos] == UInt8(ascii: "\n") { newline() } else { pos += 1 }
                }
                if !closed { diagnostics.error(start, "unterminated comment: '/*' without '*/'") }
            } else {
                return
            }
        }
    }

    private static func isIdentStart(_ c: UInt8) -> Bool {
        (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 95
    }
    private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    private static let puncts3: Set<String> = ["<<=", ">>="]
    private static let puncts2: Set<String> = ["++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                                                "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^"]
    private static let puncts1: Set<UInt8> = Set("()[]{}.,;?:+-*/%!~<>=&|^".utf8)

    /// The next token at `pos` (nil after reporting an invalid character).
    private mutating func nextToken() -> Token? {
        let start = here
        let c = bytes[pos]
        if Lexer.isIdentStart(c) {
            let s = pos
            while pos < bytes.count && (Lexer.isIdentStart(bytes[pos]) || Lexer.isDigit(bytes[pos])) { pos += 1 }
            var end = pos
            if pos - s > ShaderLimits.identifierLength {
                if emitting { diagnostics.error(start, "identifier longer than \(ShaderLimits.identifierLength) characters") }
                end = s + ShaderLimits.identifierLength
            }
            return Token(kind: .identifier, text: String(decoding: bytes[s..<end], as: UTF8.self), location: start)
        }
        if Lexer.isDigit(c) || (c == UInt8(ascii: ".") && pos + 1 < bytes.count && Lexer.isDigit(bytes[pos + 1])) {
            return number(start)
        }
        for n in [3, 2] where pos + n <= bytes.count {
            let s = String(decoding: bytes[pos..<pos + n], as: UTF8.self)
            if (n == 3 ? Lexer.puncts3 : Lexer.puncts2).contains(s) {
                pos += n
                return Token(kind: .punct, text: s, location: start)
            }
        }
        if Lexer.puncts1.contains(c) {
            pos += 1
            return Token(kind: .punct, text: String(UnicodeScalar(c)), location: start)
        }
        // Skip a whole UTF-8 sequence so one bad character gives one error.
        var n = 1
        while pos + n < bytes.count && bytes[pos + n] & 0xC0 == 0x80 { n += 1 }
        let text = String(decoding: bytes[pos..<pos + n], as: UTF8.self)
        pos += n
        if emitting { diagnostics.error(start, "invalid character '\(text)' in shader source") }
        return nil
    }

    private mutating func number(_ start: ShaderSourceLocation) -> Token {
        let s = pos
        if bytes[pos] == UInt8(ascii: "0") && pos + 1 < bytes.count && (bytes[pos + 1] | 0x20) == UInt8(ascii: "x") {
            pos += 2
            let digitsStart = pos
            while pos < bytes.count && (Lexer.isDigit(bytes[pos]) || ((bytes[pos] | 0x20) >= 97 && (bytes[pos] | 0x20) <= 102)) { pos += 1 }
            let text = String(decoding: bytes[s..<pos], as: UTF8.self)
            guard let v = Int(String(decoding: bytes[digitsStart..<pos], as: UTF8.self), radix: 16), v <= Int(Int32.max) else {
                diagnostics.error(start, "invalid integer literal '\(text.clipped())'")
                return Token(kind: .intLiteral, text: text, location: start)
            }
            return Token(kind: .intLiteral, text: text, location: start, intValue: v)
        }
        var isFloat = false
        while pos < bytes.count && Lexer.isDigit(bytes[pos]) { pos += 1 }
        if pos < bytes.count && bytes[pos] == UInt8(ascii: ".") {
            isFloat = true
            pos += 1
            while pos < bytes.count && Lexer.isDigit(bytes[pos]) { pos += 1 }
        }
        if pos < bytes.count && (bytes[pos] | 0x20) == UInt8(ascii: "e") {
            var p = pos + 1
            if p < bytes.count && (bytes[p] == UInt8(ascii: "+") || bytes[p] == UInt8(ascii: "-")) { p += 1 }
            if p < bytes.count && Lexer.isDigit(bytes[p]) {
                isFloat = true
                pos = p
                while pos < bytes.count && Lexer.isDigit(bytes[pos]) { pos += 1 }
            }
        }
        let text = String(decoding: bytes[s..<pos], as: UTF8.self)
        if pos < bytes.count && (bytes[pos] | 0x20) == UInt8(ascii: "f") && isFloat { pos += 1 }
        if pos < bytes.count && (Lexer.isIdentStart(bytes[pos])) {
            let bad = here
            while pos < bytes.count && (Lexer.isIdentStart(bytes[pos]) || Lexer.isDigit(bytes[pos])) { pos += 1 }
            diagnostics.error(bad, "invalid suffix on number '\(String(decoding: bytes[s..<pos], as: UTF8.self).clipped())'")
        }
        if isFloat {
            return Token(kind: .floatLiteral, text: text, location: start, floatValue: Double(text) ?? 0)
        }
        let octal = text.count > 1 && text.hasPrefix("0")
        guard let v = Int(octal ? String(text.dropFirst()) : text, radix: octal ? 8 : 10), v <= Int(Int32.max) + 1 else {
            diagnostics.error(start, "integer literal '\(text.clipped())' is out of range (at most 2147483647)")
            return Token(kind: .intLiteral, text: text, location: start)
        }
        return Token(kind: .intLiteral, text: text, location: start, intValue: v)
    }

    /// Tokens of the rest of the current line (for directives), without macro expansion.
    private mutating func lineTokens() -> [Token] {
        var tokens: [Token] = []
        while pos < bytes.count {
            let c = bytes[pos]
            if c == UInt8(ascii: "\n") { break }
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") { pos += 1; continue }
            if c == UInt8(ascii: "\\") && pos + 1 < bytes.count && bytes[pos + 1] == UInt8(ascii: "\n") { pos += 1; newline(); continue }
            if c == UInt8(ascii: "/") && pos + 1 < bytes.count && (bytes[pos + 1] == UInt8(ascii: "/") || bytes[pos + 1] == UInt8(ascii: "*")) {
                var dummy = false
                let l = line
                if bytes[pos + 1] == UInt8(ascii: "/") { skipSpaceAndComments(&dummy); break }
                skipSpaceAndComments(&dummy)
                if line != l { break }
                continue
            }
            if let t = nextToken() { tokens.append(t) }
        }
        return tokens
    }

    private mutating func directive() {
        let hash = here
        pos += 1
        let tokens = lineTokens()
        guard let name = tokens.first else { return }  // a lone '#' is allowed
        let rest = Array(tokens.dropFirst())
        switch name.text {
        case "ifdef", "ifndef":
            // Inside a group that is skipped, nothing is evaluated and no branch is taken.
            guard emitting else { pushConditional(false, taken: true, hash); return }
            let defined = rest.first.map { macros[$0.text] != nil } ?? false
            let cond = name.text == "ifdef" ? defined : !defined
            if rest.first?.kind != .identifier { diagnostics.error(name.location, "#\(name.text) needs a macro name") }
            pushConditional(cond, taken: cond, hash)
        case "if":
            guard emitting else { pushConditional(false, taken: true, hash); return }
            let value = evaluateCondition(rest, at: name.location)
            pushConditional(value, taken: value, hash)
        case "elif":
            guard !conditionals.isEmpty else { diagnostics.error(name.location, "#elif without #if"); return }
            let outer = enclosingEmitting
            guard var top = popConditional() else { return }
            let value = outer && !top.taken && evaluateCondition(rest, at: name.location)
            top.active = value
            top.taken = top.taken || value
            pushConditional(top.active, taken: top.taken, top.location)
        case "else":
            guard !conditionals.isEmpty else { diagnostics.error(name.location, "#else without #if"); return }
            guard var top = popConditional() else { return }
            top.active = !top.taken
            top.taken = true
            pushConditional(top.active, taken: top.taken, top.location)
        case "endif":
            if popConditional() == nil { diagnostics.error(name.location, "#endif without #if") }
        default:
            guard emitting else { return }
            switch name.text {
            case "define":
                guard let macro = rest.first, macro.kind == .identifier else {
                    diagnostics.error(name.location, "#define needs a macro name"); return
                }
                if rest.count > 1, rest[1].isPunct("("), rest[1].location.column == macro.location.column + macro.text.count {
                    diagnostics.error(macro.location, "unsupported feature: function-like macro '\(macro.text)(...)'; only object-like #define constants are supported")
                    return
                }
                if macro.text.hasPrefix("GL_") || macro.text.contains("__") {
                    diagnostics.error(macro.location, "macro name '\(macro.text)' is reserved")
                    return
                }
                macros[macro.text] = Array(rest.dropFirst())
            case "undef":
                if let m = rest.first { macros[m.text] = nil }
            case "version":
                if let v = rest.first, v.kind == .intLiteral, v.intValue != 100 {
                    diagnostics.error(v.location, "unsupported feature: '#version \(v.text.clipped())'; only GLSL ES '#version 100' is supported")
                }
            case "pragma":
                break
            case "line":
                // `#line N`: the next line is line N (a harness put before a text keeps the
                // text's own line numbers in errors).
                if let n = rest.first, n.kind == .intLiteral, n.intValue >= 1, n.intValue <= 1 << 24 {
                    line = Int(n.intValue) - 1
                } else {
                    diagnostics.error(name.location, "#line needs a line number from 1 to \(1 << 24)")
                }
            case "extension":
                let ext = rest.first?.text ?? ""
                diagnostics.error(name.location, "unsupported feature: '#extension \(ext.clipped())'")
            case "error":
                diagnostics.error(name.location, ("#error " + rest.prefix(64).map(\.text).joined(separator: " ")).clipped(200))
            default:
                diagnostics.error(name.location, "unknown preprocessor directive '#\(name.text.clipped())'")
            }
        }
    }

    /// `#if` conditions: an integer, a macro that expands to one, or `defined(NAME)` / `defined NAME`,
    /// optionally negated with '!'.
    private mutating func evaluateCondition(_ tokens: [Token], at location: ShaderSourceLocation) -> Bool {
        var negate = false
        let bangs = tokens.prefix { $0.isPunct("!") }.count
        if bangs % 2 == 1 { negate = true }
        let t = tokens.dropFirst(bangs)
        var value: Bool?
        if let f = t.first, f.isIdent("defined") {
            let name = t.dropFirst().first { $0.kind == .identifier }
            value = name.map { macros[$0.text] != nil }
        } else if t.count == 1, let only = t.first {
            var expanded: [Token] = []
            expand(only, into: &expanded, depth: 0)
            if expanded.count == 1, expanded[0].kind == .intLiteral { value = expanded[0].intValue != 0 }
        }
        guard let v = value else {
            diagnostics.error(location, "unsupported feature: this '#if' expression (only integers, macros and defined(NAME) are supported)")
            return false
        }
        return negate ? !v : v
    }
}
