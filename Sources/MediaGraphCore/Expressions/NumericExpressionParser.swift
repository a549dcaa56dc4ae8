/// Recursive descent over ffmpeg's expression grammar (libavutil/eval.c):
///
///     sum     = product { ("+" | "-") product }
///     product = factor { ("*" | "/") factor }
///     factor  = signed { "^" signed }        -- left to right; a leading sign applies to the whole
///     signed  = ["+" | "-"] primary
///     primary = number | name | name "(" sum { "," sum } ")" | "(" sum ")"
///
/// so `-2^2` is −4 and `2^3^2` is 64, as in ffmpeg.
struct NumericExpressionParser {
    let chars: [Character]
    let text: String
    let variables: [String]
    var at = 0
    /// Open parentheses and calls around the current position.
    var depth = 0
    /// Longer or deeper expressions are refused: the tree is walked recursively per frame, on
    /// threads with small stacks, and no real position or opacity needs more.
    static let maxLength = 1024, maxDepth = 64

    init(text: String, variables: [String]) {
        self.text = text
        self.chars = Array(text)
        self.variables = variables
    }

    mutating func parseWhole() throws -> NumericExpression.Node {
        guard chars.count <= Self.maxLength else { throw fail("the expression is longer than \(Self.maxLength) characters") }
        skipSpaces()
        guard at < chars.count else { throw fail("expected an expression, found nothing") }
        let n = try sum()
        skipSpaces()
        if at < chars.count { throw fail("expected an operator or the end, found '\(chars[at])'") }
        return n
    }

    func fail(_ message: String) -> NumericExpressionError {
        NumericExpressionError(text: text, offset: at, message: message)
    }

    mutating func skipSpaces() { while at < chars.count, chars[at].isWhitespace { at += 1 } }

    mutating func take(_ c: Character) -> Bool {
        skipSpaces()
        if at < chars.count, chars[at] == c { at += 1; return true }
        return false
    }

    mutating func sum() throws -> NumericExpression.Node {
        var n = try product()
        while true {
            if take("+") { n = .binary("+", n, try product()) }
            else if take("-") { n = .binary("-", n, try product()) }
            else { return n }
        }
    }

    mutating func product() throws -> NumericExpression.Node {
        var n = try factor()
        while true {
            if take("*") { n = .binary("*", n, try factor()) }
            else if take("/") { n = .binary("/", n, try factor()) }
            else { return n }
        }
    }

    mutating func factor() throws -> NumericExpression.Node {
        let negative = sign()
        var n = try primary()
        while take("^") {
            let negativeExponent = sign()
            let e = try primary()
            n = .binary("^", n, negativeExponent ? .negate(e) : e)
        }
        return negative ? .negate(n) : n
    }

    /// An optional leading sign: true for "-".
    mutating func sign() -> Bool {
        if take("-") { return true }
        _ = take("+")
        return false
    }

    mutating func primary() throws -> NumericExpression.Node {
        skipSpaces()
        guard at < chars.count else { throw fail("expected a number, a name or '(', found the end") }
        let c = chars[at]
        if c == "(" {
            at += 1
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw fail("more than \(Self.maxDepth) nested parentheses") }
            let n = try sum()
            guard take(")") else { throw fail("expected ')'") }
            return n
        }
        if c.isNumber || c == "." { return .number(try number()) }
        if c.isLetter || c == "_" {
            let start = at
            while at < chars.count, chars[at].isLetter || chars[at].isNumber || chars[at] == "_" { at += 1 }
            let name = String(chars[start..<at])
            if take("(") { return try call(name, at: start) }
            if let slot = variables.firstIndex(of: name) { return .variable(slot) }
            if let k = NumericFunction.constants[name] { return .number(k) }
            at = start
            throw fail("unknown name '\(name)' (known: \((variables + NumericFunction.constants.keys.sorted()).joined(separator: ", ")))")
        }
        throw fail("expected a number, a name or '(', found '\(c)'")
    }

    mutating func number() throws -> Double {
        let start = at
        while at < chars.count, chars[at].isNumber || chars[at] == "." { at += 1 }
        if at < chars.count, chars[at] == "e" || chars[at] == "E" {
            var k = at + 1
            if k < chars.count, chars[k] == "+" || chars[k] == "-" { k += 1 }
            if k < chars.count, chars[k].isNumber {
                at = k
                while at < chars.count, chars[at].isNumber { at += 1 }
            }
        }
        guard let v = Double(String(chars[start..<at])) else {
            at = start
            throw fail("'\(String(chars[start..<at]))' is not a number")
        }
        return v
    }

    mutating func call(_ name: String, at start: Int) throws -> NumericExpression.Node {
        guard let f = NumericFunction(rawValue: name) else {
            at = start
            throw fail("unknown function '\(name)' (known: \(NumericFunction.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw fail("more than \(Self.maxDepth) nested calls") }
        var args: [NumericExpression.Node] = []
        if !take(")") {
            repeat { args.append(try sum()) } while take(",")
            guard take(")") else { throw fail("expected ',' or ')' in the arguments of \(name)") }
        }
        guard f.arity.contains(args.count) else {
            at = start
            let n = f.arity.lowerBound == f.arity.upperBound ? "\(f.arity.lowerBound)" : "\(f.arity.lowerBound) or \(f.arity.upperBound)"
            throw fail("\(name) takes \(n) argument\(f.arity.upperBound == 1 ? "" : "s"), found \(args.count)")
        }
        return .call(f, args)
    }
}
