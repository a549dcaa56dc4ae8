/// A node param declared once: its `ParamSpec` (name, type, range, default, doc) and the typed
/// value the node reads, `params[Self.amount]`. The default lives only here: validation fills it
/// in from the spec, and reading values that lack it (a node built by hand in a test) gives the
/// same default.
///
/// ```swift
/// static let amount = Param<Double>("amount", ColorTransform.brightnessRange, default: 0, live: true, doc: "added to every channel")
/// // typeInfo: params: [amount.spec] — reading: p[amount]
/// ```
public struct Param<Value: Sendable>: ParamDeclaration {
    public let spec: ParamSpec
    private let read: @Sendable (ParamValues, String) -> Value

    /// A param of any spec with its own reader (for types the initializers below do not cover).
    public init(spec: ParamSpec, read: @escaping @Sendable (ParamValues, String) -> Value) {
        self.spec = spec
        self.read = read
    }

    public var name: String { spec.name }

    /// The value in `values` (validated ones hold every declared param).
    public func value(in values: ParamValues) -> Value { read(values, spec.name) }
}

/// Anything that declares one param: a `Param`, or a bare `ParamSpec` (params the node reads
/// through `ParamValues` by name, such as JSON-valued ones).
public protocol ParamDeclaration: Sendable {
    var spec: ParamSpec { get }
}

extension ParamSpec: ParamDeclaration {
    public var spec: ParamSpec { self }

    /// The specs of several declarations, in order: `params: ParamSpec.list(red, green, blue)`.
    public static func list(_ declarations: any ParamDeclaration...) -> [ParamSpec] { declarations.map(\.spec) }
    public static func list(_ declarations: [any ParamDeclaration]) -> [ParamSpec] { declarations.map(\.spec) }
}

extension ParamValues {
    /// The typed value of a declared param.
    public subscript<Value>(_ param: Param<Value>) -> Value { param.value(in: self) }
}

// MARK: declarations by type

extension Param where Value == Double {
    /// A number with a default; `live` lets it change while the graph runs.
    public init(_ name: String, _ range: ClosedRange<Double>? = nil, default d: Double, live: Bool = false, doc: String) {
        self.init(spec: ParamSpec.double(name, range, default: d, doc: doc).live(live)) { $0.double($1) ?? d }
    }
}

extension Param where Value == Double? {
    /// A number that may be unset (nil) or required.
    public init(_ name: String, _ range: ClosedRange<Double>? = nil, required: Bool = false, live: Bool = false, doc: String) {
        self.init(spec: ParamSpec.double(name, range, required: required, doc: doc).live(live)) { $0.double($1) }
    }
}

extension Param where Value == Int {
    public init(_ name: String, _ range: ClosedRange<Int>? = nil, default d: Int, live: Bool = false, doc: String) {
        self.init(spec: ParamSpec.int(name, range, default: d, doc: doc).live(live)) { $0.int($1) ?? d }
    }
}

extension Param where Value == Int? {
    public init(_ name: String, _ range: ClosedRange<Int>? = nil, required: Bool = false, doc: String) {
        self.init(spec: ParamSpec.int(name, range, required: required, doc: doc)) { $0.int($1) }
    }
}

extension Param where Value == Bool {
    public init(_ name: String, default d: Bool, live: Bool = false, doc: String) {
        self.init(spec: ParamSpec.bool(name, default: d, doc: doc).live(live)) { $0.values[$1]?.boolValue ?? d }
    }
}

extension Param where Value == String {
    /// A string with a default.
    public init(_ name: String, default d: String, doc: String) {
        self.init(spec: ParamSpec.string(name, default: d, doc: doc)) { $0.string($1) ?? d }
    }
    /// One of `words`, with a default.
    public init(_ name: String, oneOf words: [String], default d: String, doc: String) {
        self.init(spec: ParamSpec.choice(name, words, default: d, doc: doc)) { $0.string($1) ?? d }
    }
}

extension Param where Value == String? {
    /// A string that may be unset, or required.
    public init(_ name: String, required: Bool = false, doc: String) {
        self.init(spec: ParamSpec.string(name, required: required, doc: doc)) { $0.string($1) }
    }
    /// One of `words`, or unset.
    public init(_ name: String, oneOf words: [String], required: Bool = false, doc: String) {
        self.init(spec: ParamSpec.choice(name, words, required: required, doc: doc)) { $0.string($1) }
    }
    /// A file path, resolved against the graph file's directory when read.
    public static func path(_ name: String, role: PathRole = .other, default d: String? = nil, required: Bool = false,
                            doc: String) -> Param<String?> {
        Param(spec: ParamSpec.path(name, role: role, default: d, required: required, doc: doc)) { v, n in
            v.path(n) ?? d.map { ParamValues.resolve($0, against: v.baseDirectory) }
        }
    }
}

extension Param where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of an enumeration's raw values, read as the enumeration.
    public init(_ name: String, default d: Value, doc: String) {
        self.init(spec: ParamSpec.choice(name, Value.allCases.map(\.rawValue), default: d.rawValue, doc: doc)) {
            $0.string($1).flatMap(Value.init(rawValue:)) ?? d
        }
    }
}

extension Param where Value == Rational? {
    /// A rate or ratio ("30/1", "30000/1001", "29.97"); nil when unset.
    public static func rational(_ name: String, default d: String? = nil, required: Bool = false, doc: String) -> Param<Rational?> {
        Param(spec: ParamSpec.rational(name, default: d, required: required, doc: doc)) { v, n in
            v.rational(n) ?? d.flatMap { try? ParamValues.rational(from: .string($0, nil)).get() }
        }
    }
}

extension Param where Value == TimeValue? {
    public static func time(_ name: String, doc: String) -> Param<TimeValue?> {
        Param(spec: ParamSpec.time(name, doc: doc)) { $0.time($1) }
    }
}

extension Param where Value == [Double]? {
    /// Times in seconds, each written as a number or "hh:mm:ss.ms"; unset (nil) by default.
    public static func times(_ name: String, count: ClosedRange<Int>, doc: String) -> Param<[Double]?> {
        Param(spec: ParamSpec.times(name, count: count, doc: doc)) { $0.times($1) }
    }

    public static func numbers(_ name: String, count: ClosedRange<Int>, doc: String) -> Param<[Double]?> {
        Param(spec: ParamSpec.numbers(name, count: count, doc: doc)) { $0.numbers($1) }
    }
}

extension Param where Value == [Double] {
    public static func numbers(_ name: String, count: ClosedRange<Int>, default d: [Double], doc: String) -> Param<[Double]> {
        Param(spec: ParamSpec.numbers(name, count: count, default: d, doc: doc)) { $0.numbers($1) ?? d }
    }
}

extension Param {
    /// One of `choices` (an enumeration's cases, or some of them) by raw value, or unset (nil) /
    /// required.
    public init<E>(_ name: String, choices: [E], required: Bool = false, doc: String)
    where Value == E?, E: RawRepresentable & Sendable, E.RawValue == String {
        self.init(spec: ParamSpec.choice(name, choices.map(\.rawValue), required: required, doc: doc)) {
            $0.string($1).flatMap(E.init(rawValue:))
        }
    }

    /// One of `choices` by raw value, with a default.
    public init(_ name: String, choices: [Value], default d: Value, doc: String)
    where Value: RawRepresentable, Value.RawValue == String {
        self.init(spec: ParamSpec.choice(name, choices.map(\.rawValue), default: d.rawValue, doc: doc)) {
            $0.string($1).flatMap(Value.init(rawValue:)) ?? d
        }
    }
}

extension Param where Value == String {
    /// A required file path, resolved against the graph file's directory. Validation refuses a
    /// graph without it; values that never went through validation read as "" (which no file
    /// opens, with a message), never a crash.
    public static func requiredPath(_ name: String, role: PathRole = .other, doc: String) -> Param<String> {
        Param(spec: ParamSpec.path(name, role: role, required: true, doc: doc)) { $0.path($1) ?? "" }
    }
}

extension Param where Value == Rational {
    /// A rate or ratio with a default, written in the spec as "num/den".
    public static func rational(_ name: String, default d: Rational, doc: String) -> Param<Rational> {
        Param(spec: ParamSpec.rational(name, default: "\(d.num)/\(d.den)", doc: doc)) { $0.rational($1) ?? d }
    }
}
