/// A point in a media file as a user writes it in a `time` param: seconds (kept exact, so
/// "65.2" is 652/10 s, not a float), or the number of a frame of the file's first video stream.
///
/// Accepted spellings: a JSON number of seconds (`65.2`), or a string `"ss.ms"`, `"mm:ss.ms"`,
/// `"hh:mm:ss.ms"` (`"00:01:05.2"`), or `"frame:N"` (N counted from 0). Never negative.
public enum TimeValue: Hashable, Sendable, CustomStringConvertible {
    /// Seconds from the start of the file.
    case seconds(Rational)
    /// The frame with this number (from 0) of the first video stream.
    case frame(Int64)

    /// Longest time accepted (about 11.5 days), so every conversion to ticks stays in range.
    static let maxSeconds: Int64 = 1_000_000

    /// The time a JSON param value spells, or nil when it is not one.
    public init?(json: JSONValue) {
        switch json {
        case .number(let n, _):
            guard n.isFinite, n >= 0, n < Double(TimeValue.maxSeconds) else { return nil }
            let text = JSONValue.format(number: n)
            if let r = TimeValue.decimal(Substring(text)) {
                self = .seconds(r)
            } else {
                // exponent notation (1e-05): nanoseconds are plenty
                self = .seconds(Rational(Int64((n * 1e9).rounded()), 1_000_000_000))
            }
        case .string(let s, _):
            guard let t = TimeValue(parsing: s) else { return nil }
            self = t
        default:
            return nil
        }
    }

    /// Parses `"ss.ms"`, `"mm:ss.ms"`, `"hh:mm:ss.ms"` or `"frame:N"`.
    public init?(parsing text: String) {
        let t = text.trimmedSpaces()
        if t.hasPrefix("frame:") {
            let digits = t.dropFirst(6)
            guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCIIDigit), let n = Int64(digits) else { return nil }
            self = .frame(n)
            return
        }
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let last = parts.last, let secs = TimeValue.decimal(last) else { return nil }
        var whole: Int64 = 0
        for (k, p) in parts.dropLast().enumerated() {
            guard !p.isEmpty, p.count <= 7, p.allSatisfy(\.isASCIIDigit), let v = Int64(p) else { return nil }
            // minutes (the field before the seconds) stay below 60 when hours are given
            if parts.count == 3 && k == 1 && v >= 60 { return nil }
            whole = whole * 60 + v
        }
        if parts.count > 1 && secs.num >= 60 * secs.den { return nil }
        let total = Rational(whole * 60 * secs.den + secs.num, secs.den)
        guard total.num < TimeValue.maxSeconds * total.den else { return nil }
        self = .seconds(total)
    }

    /// A non-negative decimal "12", "12.5" (at most 9 fractional digits), exact.
    static func decimal(_ s: Substring) -> Rational? {
        let pieces = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count), let intPart = pieces.first, !intPart.isEmpty, intPart.count <= 12,
              intPart.allSatisfy(\.isASCIIDigit), let w = Int64(intPart) else { return nil }
        guard pieces.count == 2 else { return Rational(w, 1) }
        let frac = pieces[1]
        guard !frac.isEmpty, frac.count <= 9, frac.allSatisfy(\.isASCIIDigit), let f = Int64(frac) else { return nil }
        var scale: Int64 = 1
        for _ in 0..<frac.count { scale *= 10 }
        return Rational(w * scale + f, scale)
    }

    /// The time in seconds; a frame number needs the frame rate (nil rate: nil).
    public func seconds(frameRate: Rational?) -> Rational? {
        switch self {
        case .seconds(let r): return r
        case .frame(let n):
            guard let rate = frameRate, rate.num > 0 else { return nil }
            return Rational(n * rate.den, rate.num)
        }
    }

    public var description: String {
        switch self {
        case .seconds(let r): return TimeValue.clock(r)
        case .frame(let n): return "frame \(n)"
        }
    }

    /// "5.200 s", "1:05.200", "1:01:05.200": hours and minutes only when needed, milliseconds
    /// always.
    public static func clock(_ r: Rational) -> String {
        let negative = r.num < 0
        // through Double: exact to the millisecond for any time a message shows (2^53 ms is
        // 285,000 years), and no overflow for a hostile timestamp
        let seconds = Swift.abs(Double(r.num) / Double(r.den))
        guard seconds < 9e12 else { return (negative ? "-" : "") + "\(seconds) s" }
        let ms = Int64((seconds * 1000).rounded())
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let frac = f < 10 ? "00\(f)" : f < 100 ? "0\(f)" : "\(f)"
        let body = h > 0 ? "\(h):\(two(m)):\(two(s)).\(frac)" : m > 0 ? "\(m):\(two(s)).\(frac)" : "\(s).\(frac) s"
        return (negative ? "-" : "") + body
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
