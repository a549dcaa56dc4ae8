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

    /// The value as an integer; nil when it is not a number an `Int` holds (validation keeps
    /// integer params whole and in range, so this only guards against a misdeclared param).
    public func int(_ name: String) -> Int? {
        guard let n = values[name]?.numberValue, n.isFinite, Swift.abs(n) < 9e18 else { return nil }
        return Int(n)
    }
    public func int(_ name: String, default d: Int) -> Int { int(name) ?? d }
    public func double(_ name: String) -> Double? { values[name]?.numberValue }
    public func double(_ name: String, default d: Double) -> Double { double(name) ?? d }
    public func bool(_ name: String, default d: Bool = false) -> Bool { values[name]?.boolValue ?? d }
    public func string(_ name: String) -> String? { values[name]?.stringValue }
    public func string(_ name: String, default d: String) -> String { string(name) ?? d }

    /// A rational param's value, exactly as `ParamValidator` accepted it.
    public func rational(_ name: String) -> Rational? {
        values[name].flatMap { try? ParamValues.rational(from: $0).get() }
    }

    /// Largest numerator and denominator of a rational param (a 32-bit time base, as codecs and
    /// containers store rates).
    public static let maxRationalTerm: Int64 = MediaLimits.maxRateTerm

    /// A string or number as a rational param: positive, numerator and denominator at most
    /// `maxRationalTerm` once reduced. The failure says why, for "found X (why)" messages.
    public static func rational(from value: JSONValue) -> Result<Rational, RationalParamError> {
        let parsed: Result<Rational, RationalParseError>
        switch value {
        case .string(let s, _): parsed = Rational.parse(s)
        case .number(let n, _): parsed = Rational.parse(number: n)
        default: return .failure(RationalParamError(reason: nil))
        }
        switch parsed {
        case .failure(let e): return .failure(RationalParamError(reason: e.description))
        case .success(let r):
            if r.num <= 0 { return .failure(RationalParamError(reason: "not positive")) }
            if r.num > maxRationalTerm || r.den > maxRationalTerm {
                return .failure(RationalParamError(reason: "\(r.num)/\(r.den): numerator and denominator must be at most \(maxRationalTerm) once reduced"))
            }
            return .success(r)
        }
    }

    /// A `time` param, parsed (validation has checked it).
    public func time(_ name: String) -> TimeValue? {
        values[name].flatMap { TimeValue(json: $0) }
    }

    /// A `times` param in seconds (validation has checked it).
    public func times(_ name: String) -> [Double]? {
        values[name]?.arrayValue?.compactMap(ParamValues.seconds(from:))
    }

    /// Seconds a `times` item spells: a number or a clock string, not a frame number.
    static func seconds(from value: JSONValue) -> Double? {
        guard case .seconds(let r)? = TimeValue(json: value) else { return nil }
        return Double(r.num) / Double(r.den)
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

/// Why a value is not a valid rational param (nil reason: not a string or a number at all).
public struct RationalParamError: Error, Sendable {
    public var reason: String?
}
