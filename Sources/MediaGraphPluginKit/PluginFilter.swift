import MediaGraphCore

/// A filter written in Swift for a run-time plugin: declare it once (name, doc, formats,
/// params), create it for a frame size, and process frames. `PluginExport` turns a list of these
/// into the C descriptor the host loads, so a plugin filter is as short as an in-process one.
///
/// ```swift
/// final class Posterize: PluginFilter {
///     static let name = "example.posterize"
///     static let doc = "Reduces each colour channel to `levels` values."
///     static let formats: [PixelFormat] = [.rgba, .bgra]
///     static let params = [PluginParam.int("levels", 2...256, default: 4, doc: "values per channel")]
///     var levels = 4
///     init(width: Int, height: Int, format: PixelFormat) {}
///     func set(_ name: String, _ value: PluginParamValue) { levels = value.int }
///     func process(_ src: FramePlanes, _ dst: FramePlanes, pts: Int64) throws { … }
/// }
/// ```
public protocol PluginFilter: AnyObject {
    /// The node type name graphs use; unique across plugins (prefix it with the plugin's name).
    static var name: String { get }
    /// One line for `mediagraph nodes`.
    static var doc: String { get }
    /// Accepted pixel formats, preferred first; the output has the input's format and size.
    static var formats: [PixelFormat] { get }
    static var params: [PluginParam] { get }
    /// Whether `process` may be given the same planes as source and destination.
    static var inPlace: Bool { get }

    /// A filter for frames of this size and format (throw to refuse them).
    init(width: Int, height: Int, format: PixelFormat) throws
    /// Sets one declared param (called for every param before the first frame).
    func set(_ name: String, _ value: PluginParamValue) throws
    /// Writes `destination` from `source` (same format and size; the same planes when in place).
    func process(_ source: FramePlanes, _ destination: FramePlanes, pts: Int64) throws
    /// The input has ended.
    func flush() throws
}

extension PluginFilter {
    public static var params: [PluginParam] { [] }
    public static var inPlace: Bool { true }
    public func set(_ name: String, _ value: PluginParamValue) throws {}
    public func flush() throws {}
}

/// A param declaration of a plugin filter.
public struct PluginParam: Sendable {
    public enum Kind: Sendable {
        case double(ClosedRange<Double>?)
        case int(ClosedRange<Int>?)
        case bool
        case string
    }

    public var name: String
    public var kind: Kind
    public var defaultNumber: Double
    public var defaultString: String
    public var doc: String

    public static func double(_ name: String, _ range: ClosedRange<Double>? = nil, default d: Double, doc: String) -> PluginParam {
        PluginParam(name: name, kind: .double(range), defaultNumber: d, defaultString: "", doc: doc)
    }
    public static func int(_ name: String, _ range: ClosedRange<Int>? = nil, default d: Int, doc: String) -> PluginParam {
        PluginParam(name: name, kind: .int(range), defaultNumber: Double(d), defaultString: "", doc: doc)
    }
    public static func bool(_ name: String, default d: Bool, doc: String) -> PluginParam {
        PluginParam(name: name, kind: .bool, defaultNumber: d ? 1 : 0, defaultString: "", doc: doc)
    }
    public static func string(_ name: String, default d: String = "", doc: String) -> PluginParam {
        PluginParam(name: name, kind: .string, defaultNumber: 0, defaultString: d, doc: doc)
    }
}

/// A param value as the host sets it.
public enum PluginParamValue: Sendable {
    case number(Double)
    case string(String)

    public var double: Double { if case .number(let n) = self { return n }; return Double(string) ?? 0 }
    /// The value rounded to an integer (NaN gives 0, values beyond Int's range its nearest end).
    public var int: Int {
        let d = double.rounded()
        return d.isNaN ? 0 : Int(max(-9.2e18, min(9.2e18, d)))
    }
    public var bool: Bool { double != 0 }
    public var string: String { if case .string(let s) = self { return s }; if case .number(let n) = self { return String(n) }; return "" }
}

/// A plugin filter's failure: the host prints the message with the plugin file and node.
public struct PluginFilterError: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
