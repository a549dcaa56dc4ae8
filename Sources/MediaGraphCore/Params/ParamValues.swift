/// The validated params of one node instance: every declared param with a value (given or
/// default), checked against its `ParamSpec`. Accessors therefore do not fail for declared names.
public struct ParamValues: Sendable {
    public private(set) var values: [String: JSONValue]
    /// Directory that relative paths are resolved against (the graph file's directory).
    public var baseDirectory: String

    public init(values: [String: JSONValue] = [:], baseDirectory: String = ".") {
        self.values = values
        self.baseDirectory = baseDirectory
    }

    public func has(_ name: String) -> Bool { values[name] != nil }
    public subscript(name: String) -> JSONValue? { values[name] }
    public mutating func set(_ name: String, _ value: JSONValue) { values[name] = value }

    public func int(_ name: String) -> Int? { values[name]?.numberValue.map { Int($0) } }
    public func int(_ name: String, default d: Int) -> Int { int(name) ?? d }
    public func double(_ name: String) -> Double? { values[name]?.numberValue }
    public func double(_ name: String, default d: Double) -> Double { double(name) ?? d }
    public func bool(_ name: String, default d: Bool = false) -> Bool { values[name]?.boolValue ?? d }
    public func string(_ name: String) -> String? { values[name]?.stringValue }
    public func string(_ name: String, default d: String) -> String { string(name) ?? d }

    public func rational(_ name: String) -> Rational? {
        switch values[name] {
        case .string(let s, _)?: return Rational(parsing: s)
        case .number(let n, _)?: return Rational(parsing: JSONValue.format(number: n))
        default: return nil
        }
    }

    /// A `time` param, parsed (validation has checked it).
    public func time(_ name: String) -> TimeValue? {
        values[name].flatMap { TimeValue(json: $0) }
    }

    public func numbers(_ name: String) -> [Double]? {
        values[name]?.arrayValue?.compactMap(\.numberValue)
    }

    /// A path param resolved against the graph file's directory ("-" and absolute paths unchanged).
    public func path(_ name: String) -> String? {
        guard let p = string(name) else { return nil }
        return ParamValues.resolve(p, against: baseDirectory)
    }

    public static func resolve(_ p: String, against base: String) -> String {
        if p == "-" || p.hasPrefix("/") || base.isEmpty || base == "." { return p }
        return base.hasSuffix("/") ? base + p : base + "/" + p
    }
}
