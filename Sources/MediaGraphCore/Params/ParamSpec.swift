/// The type of a node parameter, with its valid range where it has one.
public enum ParamType: Sendable {
    case int(ClosedRange<Int>?)
    case double(ClosedRange<Double>?)
    case bool
    case string
    /// One of a fixed set of words.
    case choice([String])
    /// A rational such as "30/1", "30000/1001", "29.97" or a number.
    case rational
    /// A file path; relative paths are taken relative to the graph file; "-" means stdin/stdout
    /// where the node allows it.
    case path
    /// An array of numbers whose length is in the range (e.g. a 4x4 matrix: 16...16).
    case numbers(ClosedRange<Int>)
    /// Any JSON value; the node validates it itself (e.g. shader uniforms).
    case json
    /// A point in a media file (`TimeValue`): seconds as a number, "hh:mm:ss.ms", "mm:ss.ms",
    /// "ss.ms", or "frame:N".
    case time
    /// An array of times in seconds whose length is in the range: each a number or a string
    /// "hh:mm:ss.ms", "mm:ss.ms", "ss.ms" (no "frame:N").
    case times(ClosedRange<Int>)

    /// How the type reads in messages and in `mediagraph nodes`.
    public var summary: String {
        switch self {
        case .int(let r): return r.map { "integer \($0.lowerBound)…\($0.upperBound)" } ?? "integer"
        case .double(let r): return r.map { "number \(JSONValue.format(number: $0.lowerBound))…\(JSONValue.format(number: $0.upperBound))" } ?? "number"
        case .bool: return "boolean"
        case .string: return "string"
        case .choice(let words): return "one of " + words.map { "\"\($0)\"" }.joined(separator: ", ")
        case .rational: return "rational (\"30/1\", \"30000/1001\" or a number)"
        case .path: return "path"
        case .numbers(let r): return r.lowerBound == r.upperBound ? "array of \(r.lowerBound) numbers" : "array of \(r.lowerBound)…\(r.upperBound) numbers"
        case .json: return "JSON value"
        case .time: return "time (seconds, \"hh:mm:ss.ms\", \"mm:ss.ms\" or \"frame:N\")"
        case .times(let r): return (r.lowerBound == r.upperBound ? "array of \(r.lowerBound)" : "array of \(r.lowerBound)…\(r.upperBound)") + " times (seconds or \"hh:mm:ss.ms\")"
        }
    }
}

/// What the file a path param names is to its node: validation refuses a graph whose outputs
/// are one file, or whose output is one of its inputs (`OutputPathCheck`).
public enum PathRole: Sendable {
    case other
    /// Read by the node (a source's media, a LUT, a shader).
    case input
    /// Written by the node (a sink's file).
    case output
}

/// One parameter of a node type: declared once, used for validation, `mediagraph nodes`, the JSON
/// Schema and the node reference alike.
public struct ParamSpec: Sendable {
    public var name: String
    public var type: ParamType
    /// For a path param: whether the node reads or writes the file.
    public var pathRole: PathRole = .other
    /// The value used when the graph gives none; nil with `required` false means "unset".
    public var defaultValue: JSONValue?
    public var required: Bool
    public var doc: String
    /// The param may change while the graph runs (`GraphRunner.setParam`); the node takes the
    /// change between two buffers.
    public var live: Bool = false

    public init(_ name: String, _ type: ParamType, default defaultValue: JSONValue? = nil,
                required: Bool = false, doc: String) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.required = required
        self.doc = doc
    }

    /// This spec, marked changeable while running (or not).
    public func live(_ on: Bool = true) -> ParamSpec {
        var s = self
        s.live = on
        return s
    }

    public static func int(_ name: String, _ range: ClosedRange<Int>? = nil, default d: Int? = nil, required: Bool = false, doc: String) -> ParamSpec {
        ParamSpec(name, .int(range), default: d.map { .number(Double($0), nil) }, required: required, doc: doc)
    }
    public static func double(_ name: String, _ range: ClosedRange<Double>? = nil, default d: Double? = nil, required: Bool = false, doc: String) -> ParamSpec {
        ParamSpec(name, .double(range), default: d.map { .number($0, nil) }, required: required, doc: doc)
    }
    public static func bool(_ name: String, default d: Bool, doc: String) -> ParamSpec {
        ParamSpec(name, .bool, default: .bool(d, nil), doc: doc)
    }
    public static func string(_ name: String, default d: String? = nil, required: Bool = false, doc: String) -> ParamSpec {
        ParamSpec(name, .string, default: d.map { .string($0, nil) }, required: required, doc: doc)
    }
    public static func choice(_ name: String, _ words: [String], default d: String? = nil, required: Bool = false, doc: String) -> ParamSpec {
        ParamSpec(name, .choice(words), default: d.map { .string($0, nil) }, required: required, doc: doc)
    }
    public static func rational(_ name: String, default d: String? = nil, required: Bool = false, doc: String) -> ParamSpec {
        ParamSpec(name, .rational, default: d.map { .string($0, nil) }, required: required, doc: doc)
    }
    public static func path(_ name: String, role: PathRole = .other, default d: String? = nil, required: Bool = false, doc: String) -> ParamSpec {
        var spec = ParamSpec(name, .path, default: d.map { .string($0, nil) }, required: required, doc: doc)
        spec.pathRole = role
        return spec
    }
    public static func times(_ name: String, count: ClosedRange<Int>, doc: String) -> ParamSpec {
        ParamSpec(name, .times(count), doc: doc)
    }

    public static func numbers(_ name: String, count: ClosedRange<Int>, default d: [Double]? = nil, doc: String) -> ParamSpec {
        ParamSpec(name, .numbers(count), default: d.map { .array($0.map { .number($0, nil) }, nil) }, doc: doc)
    }
    public static func time(_ name: String, doc: String) -> ParamSpec {
        ParamSpec(name, .time, doc: doc)
    }
    public static func json(_ name: String, default d: JSONValue? = nil, doc: String) -> ParamSpec {
        ParamSpec(name, .json, default: d, doc: doc)
    }
}
