/// An arithmetic expression in ffmpeg's syntax (libavutil's `av_expr`), parsed once and evaluated
/// per frame: numbers, named variables, `+ - * / ^`, parentheses, and ffmpeg's functions (`if`,
/// `between`, `min`, `mod`, `floor`, `sin`, …). `(w-text_w)/2`, `h-th-10`,
/// `if(lt(t,2),t/2,1)` and `between(t,1,3)` read as in ffmpeg.
///
/// Variables are resolved to slots when parsing, so evaluation is a walk over a small tree with
/// no lookups by name.
public struct NumericExpression: Sendable, CustomStringConvertible {
    indirect enum Node: Sendable {
        case number(Double)
        case variable(Int)
        case negate(Node)
        case binary(Character, Node, Node)
        case call(NumericFunction, [Node])
    }

    let root: Node
    /// The text as written.
    public let source: String

    /// Parses `text`; `variables` are the names it may use, in the order of the values given to
    /// `evaluate`. Throws `NumericExpressionError` naming the offset and what was expected.
    public init(_ text: String, variables: [String]) throws {
        source = text
        var parser = NumericExpressionParser(text: text, variables: variables)
        root = try parser.parseWhole()
    }

    /// The value with `values[i]` for variable `i`; NaN where ffmpeg gives NaN (0/0, a NaN
    /// variable).
    public func evaluate(_ values: [Double]) -> Double { Self.eval(root, values) }

    /// Whether the expression uses variable `slot` (so a caller knows what must be known first).
    public func uses(_ slot: Int) -> Bool { Self.uses(root, slot) }

    /// A constant expression's value (nil when it reads a variable).
    public var constantValue: Double? { Self.isConstant(root) ? evaluate([]) : nil }

    public var description: String { source }

    static func eval(_ n: Node, _ v: [Double]) -> Double {
        switch n {
        case .number(let x): return x
        case .variable(let i): return i < v.count ? v[i] : .nan
        case .negate(let a): return -eval(a, v)
        case .binary(let op, let a, let b):
            let x = eval(a, v), y = eval(b, v)
            switch op {
            case "+": return x + y
            case "-": return x - y
            case "*": return x * y
            case "/": return x / y
            default: return NumericFunction.pow.apply([x, y])
            }
        case .call(let f, let args): return f.apply(args.map { eval($0, v) })
        }
    }

    static func uses(_ n: Node, _ slot: Int) -> Bool {
        switch n {
        case .number: return false
        case .variable(let i): return i == slot
        case .negate(let a): return uses(a, slot)
        case .binary(_, let a, let b): return uses(a, slot) || uses(b, slot)
        case .call(_, let args): return args.contains { uses($0, slot) }
        }
    }

    static func isConstant(_ n: Node) -> Bool {
        switch n {
        case .number: return true
        case .variable: return false
        case .negate(let a): return isConstant(a)
        case .binary(_, let a, let b): return isConstant(a) && isConstant(b)
        case .call(_, let args): return args.allSatisfy(isConstant)
        }
    }
}

/// What is wrong with an expression: the text, the offset (0-based, in characters) and what was
/// expected or found there.
public struct NumericExpressionError: Error, CustomStringConvertible, Sendable {
    public var text: String
    public var offset: Int
    public var message: String
    public var description: String { "\(message) at offset \(offset) of '\(text)'" }
}
