/// A JSON value that remembers where it was in its file, so graph errors can point at it.
public indirect enum JSONValue: Sendable {
    case null(SourceLocation?)
    case bool(Bool, SourceLocation?)
    case number(Double, SourceLocation?)
    case string(String, SourceLocation?)
    case array([JSONValue], SourceLocation?)
    /// Members in file order; keys are unique (the parser rejects duplicates).
    case object([(key: String, value: JSONValue)], SourceLocation?)

    public var location: SourceLocation? {
        switch self {
        case .null(let l), .bool(_, let l), .number(_, let l), .string(_, let l), .array(_, let l), .object(_, let l):
            return l
        }
    }

    /// Member of an object by key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members, _) = self { return members.first { $0.key == key }?.value }
        return nil
    }

    public var stringValue: String? { if case .string(let s, _) = self { return s } else { return nil } }
    public var numberValue: Double? { if case .number(let n, _) = self { return n } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b, _) = self { return b } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a, _) = self { return a } else { return nil } }
    public var objectMembers: [(key: String, value: JSONValue)]? {
        if case .object(let m, _) = self { return m } else { return nil }
    }

    /// The JSON type name, for "expected X, found Y" messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number(let n, _): return n == n.rounded() && Swift.abs(n) < 1e15 ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The type and the value, for "found X" in messages: `integer 2024`, `string "x"`, and
    /// `null` once (its type is its value).
    public var typeAndValue: String {
        if case .null = self { return "null" }
        return typeName + " " + brief
    }

    /// A short rendering of the value for messages.
    public var brief: String {
        switch self {
        case .null: return "null"
        case .bool(let b, _): return String(b)
        case .number(let n, _): return JSONValue.format(number: n)
        case .string(let s, _): return "\"\(s)\""
        case .array(let a, _): return "[" + a.map(\.brief).joined(separator: ", ") + "]"
        case .object(let m, _): return "{" + m.map { "\"\($0.key)\": \($0.value.brief)" }.joined(separator: ", ") + "}"
        }
    }

    static func format(number n: Double) -> String {
        if n == n.rounded() && Swift.abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    /// Serializes the value (compact, or indented with two spaces per level).
    public func serialized(pretty: Bool = false, indent: Int = 0) -> String {
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let end = pretty ? "\n" + String(repeating: "  ", count: indent) : ""
        let sep = pretty ? ",\n" : ","
        switch self {
        case .null, .bool, .number: return brief
        case .string(let s, _): return JSONValue.quote(s)
        case .array(let a, _):
            if a.isEmpty { return "[]" }
            if pretty && a.allSatisfy({ if case .string = $0 { return true }; if case .number = $0 { return true }; return false }) {
                return "[" + a.map { $0.serialized() }.joined(separator: ", ") + "]"
            }
            return "[" + (pretty ? "\n" : "") + a.map { pad + $0.serialized(pretty: pretty, indent: indent + 1) }.joined(separator: sep) + end + "]"
        case .object(let m, _):
            if m.isEmpty { return "{}" }
            return "{" + (pretty ? "\n" : "") + m.map {
                pad + JSONValue.quote($0.key) + (pretty ? ": " : ":") + $0.value.serialized(pretty: pretty, indent: indent + 1)
            }.joined(separator: sep) + end + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

/// Builders for JSON values made in code (no location).
extension JSONValue {
    public static func str(_ s: String) -> JSONValue { .string(s, nil) }
    public static func num(_ n: Double) -> JSONValue { .number(n, nil) }
    public static func int(_ n: Int) -> JSONValue { .number(Double(n), nil) }
    public static func obj(_ m: [(String, JSONValue)]) -> JSONValue { .object(m.map { (key: $0.0, value: $0.1) }, nil) }
    public static func arr(_ a: [JSONValue]) -> JSONValue { .array(a, nil) }
}
