/// A uniform the shader declares (and the graph sets): its name, GLSL type and where it is declared.
public struct ShaderUniform: Sendable, CustomStringConvertible {
    public let name: String
    public let type: ShaderType
    /// First slot of the uniform in the bound value array.
    let slot: Int
    public let location: ShaderSourceLocation
    public var description: String { "uniform \(type) \(name)" }
}

/// A uniform value as a graph file gives it: a number, a bool, or an array (of numbers, or of
/// arrays: matrix columns, array elements).
public enum ShaderUniformValue: Sendable, Equatable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
                                ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
    case array([ShaderUniformValue])

    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: ShaderUniformValue...) { self = .array(elements) }

    public var description: String {
        switch self {
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): return String(b)
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        }
    }

    /// All numbers, depth first (bools as 0/1).
    var flattened: [Double] {
        switch self {
        case .number(let d): return [d]
        case .bool(let b): return [b ? 1 : 0]
        case .array(let a): return a.flatMap(\.flattened)
        }
    }

    var containsBool: Bool {
        switch self {
        case .bool: return true
        case .number: return false
        case .array(let a): return a.contains(where: \.containsBool)
        }
    }

    /// How deep arrays nest (0 for a number or bool), found without recursion and counting at
    /// most `limit + 1`: values come from graph files, whose arrays may nest arbitrarily.
    func nestingDepth(limit: Int) -> Int {
        var level: [ShaderUniformValue] = [self]
        var depth = 0
        while depth <= limit {
            let next = level.flatMap { v -> [ShaderUniformValue] in if case .array(let a) = v { return a } else { return [] } }
            if next.isEmpty && !level.contains(where: { if case .array = $0 { return true } else { return false } }) { return depth }
            depth += 1
            level = next
        }
        return depth
    }

    /// `description`, cut after a few elements, for messages.
    var summary: String {
        switch self {
        case .number, .bool: return description
        case .array(let a):
            let shown = a.prefix(8).map(\.summary).joined(separator: ", ")
            return "[" + shown + (a.count > 8 ? ", ... (\(a.count) elements)" : "") + "]"
        }
    }
}

/// A uniform value the shader cannot take: unknown name, wrong type or length.
public struct ShaderUniformError: Error, CustomStringConvertible, Sendable {
    public var uniform: String
    public var message: String
    public var description: String { message }
}

extension ShaderUniform {
    /// The value as the uniform's components (matrices column-major), or why it does not fit.
    func components(of value: ShaderUniformValue, fileName: String) -> Result<[Float], ShaderUniformError> {
        func fail(_ why: String) -> Result<[Float], ShaderUniformError> {
            .failure(ShaderUniformError(uniform: name, message:
                "uniform '\(name)' (\(type), declared at \(fileName):\(location.line)): expected \(expected), found \(why)"))
        }
        let n = type.componentCount
        // Matrix columns and array elements nest one level; nothing nests deeper.
        guard value.nestingDepth(limit: 2) <= 2 else { return fail("arrays nested more than 2 deep") }
        let values = value.flattened
        // Shape: a scalar takes a number; others an array, flat or nested by column / element.
        switch value {
        case .number, .bool:
            guard n == 1 else { return fail("a single value \(value.summary)") }
        case .array(let items):
            guard n > 1 else { return fail("an array \(value.summary)") }
            let nested = items.contains { if case .array = $0 { return true } else { return false } }
            if nested {
                let inner = type.isArray ? type.element.componentCount : type.size
                let outer = type.isArray ? type.arrayLength : type.columns
                guard items.count == outer, items.allSatisfy({ $0.flattened.count == inner }) else {
                    return fail("\(items.count) arrays of \(items.prefix(8).map { String($0.flattened.count) }.joined(separator: ", "))\(items.count > 8 ? ", ..." : "") numbers")
                }
            }
        }
        guard values.count == n else { return fail("\(values.count) numbers") }
        if type.scalar == .bool {
            guard values.allSatisfy({ $0 == 0 || $0 == 1 }) else { return fail("\(value.summary) (bools are true/false or 0/1)") }
        } else if value.containsBool {
            return fail("\(value.summary) (a bool where a number is needed)")
        }
        if type.scalar == .int, let bad = values.first(where: { $0 != $0.rounded() || abs($0) > 16_777_216 }) {
            return fail("\(bad), which is not a whole number (ints are exact up to 2^24)")
        }
        if let bad = values.first(where: { !$0.isFinite || abs($0) > Double(Float.greatestFiniteMagnitude) }) {
            return fail("\(bad), which is not a finite 32-bit float")
        }
        return .success(values.map { Float($0) })
    }

    private var expected: String {
        let n = type.componentCount
        if n == 1 { return type.scalar == .bool ? "a bool" : type.scalar == .int ? "an integer" : "a number" }
        if type.isMatrix { return "\(type.columns) columns of \(type.size) numbers, or \(n) numbers column-major" }
        if type.isArray && type.element.componentCount > 1 {
            return "\(type.arrayLength) arrays of \(type.element.componentCount) numbers, or \(n) numbers"
        }
        return "an array of \(n) \(type.scalar == .bool ? "bools" : type.scalar == .int ? "integers" : "numbers")"
    }
}
