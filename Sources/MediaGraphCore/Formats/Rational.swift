/// An exact rational number: frame rates, time bases, aspect ratios.
public struct Rational: Hashable, Sendable, CustomStringConvertible {
    public var num: Int64
    public var den: Int64

    /// The reduced fraction num/den with a positive denominator. A zero denominator is a
    /// programming error (values read from files go through `parse`, which refuses it).
    public init(_ num: Int64, _ den: Int64) {
        precondition(den != 0, "Rational with zero denominator")
        // on magnitudes, so Int64.min does not trap in abs() or in the sign flip
        let g = Rational.gcd(num.magnitude, den.magnitude)
        let n = num.magnitude / g, d = den.magnitude / g
        let negative = (num < 0) != (den < 0) && n != 0
        // only ±2^63 itself does not fit: it saturates (parse never produces it)
        let nn = Int64(clamping: n)
        self.num = negative ? -nn : nn
        self.den = Int64(clamping: d)
    }

    public var doubleValue: Double { Double(num) / Double(den) }
    /// 1 / self; nil for zero, which has none (a zero rate read from input must not trap).
    public var inverse: Rational? { num == 0 ? nil : Rational(den, num) }
    public var description: String { "\(num)/\(den)" }

    /// Parses "30", "30/1", "30000/1001" or a decimal such as "29.97" (kept exact: 2997/100);
    /// nil when `parse` gives a reason.
    public init?(parsing text: String) {
        guard case .success(let r) = Rational.parse(text) else { return nil }
        self = r
    }

    /// A JSON number as an exact rational: integers exactly, other numbers from their shortest
    /// decimal form (29.97 → 2997/100), so the value is what the file says, not a binary
    /// approximation.
    public static func parse(number n: Double) -> Result<Rational, RationalParseError> {
        guard n.isFinite else { return .failure(.outOfRange) }
        if n == n.rounded(), Swift.abs(n) < 9e15 { return .success(Rational(Int64(n), 1)) }
        return parse("\(n)")
    }

    /// Longest text `parse` reads.
    public static let maxTextLength = 64
    /// Most significant digits of a decimal (an Int64 holds 18 of them safely).
    public static let maxDecimalDigits = 18

    /// Parses "N", "N/D", or a decimal "[-]W.F" with an optional exponent ("1e-3"), exactly.
    /// Every overflow is a reason, never a trap or a silently different value.
    public static func parse(_ text: String) -> Result<Rational, RationalParseError> {
        let t = text.trimmedSpaces()
        if t.isEmpty { return .failure(.empty) }
        if t.utf8.count > maxTextLength { return .failure(.tooLong) }
        if let slash = t.firstIndex(of: "/") {
            let ns = t[..<slash], ds = t[t.index(after: slash)...]
            guard isInteger(ns), isInteger(ds) else { return .failure(.notANumber) }
            guard let n = Int64(ns), let d = Int64(ds) else { return .failure(.outOfRange) }
            if d == 0 { return .failure(.zeroDenominator) }
            if n == .min || d == .min { return .failure(.outOfRange) }
            return .success(Rational(n, d))
        }
        return decimal(Array(t.utf8))
    }

    /// Sign and digits only (so "99999999999999999999" is a number out of range, "x" is not one).
    private static func isInteger(_ s: Substring) -> Bool {
        var u = s.utf8[...]
        if let f = u.first, f == UInt8(ascii: "-") || f == UInt8(ascii: "+") { u = u.dropFirst() }
        return !u.isEmpty && u.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func decimal(_ b: [UInt8]) -> Result<Rational, RationalParseError> {
        var i = 0
        var negative = false
        if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { negative = b[i] == UInt8(ascii: "-"); i += 1 }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        var digits: [UInt8] = []
        let wholeStart = i
        while i < b.count, isDigit(b[i]) { digits.append(b[i] - UInt8(ascii: "0")); i += 1 }
        if i == wholeStart { return .failure(.notANumber) }
        var fractionDigits = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let s = i
            while i < b.count, isDigit(b[i]) { digits.append(b[i] - UInt8(ascii: "0")); i += 1 }
            fractionDigits = i - s
            if fractionDigits == 0 { return .failure(.notANumber) }
        }
        var exponent = 0
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { expNegative = b[i] == UInt8(ascii: "-"); i += 1 }
            let s = i
            while i < b.count, isDigit(b[i]) {
                // more than 4 exponent digits is out of range whatever they are
                if i - s >= 4 { return .failure(.outOfRange) }
                exponent = exponent * 10 + Int(b[i] - UInt8(ascii: "0"))
                i += 1
            }
            if i == s { return .failure(.notANumber) }
            if expNegative { exponent = -exponent }
        }
        if i != b.count { return .failure(.notANumber) }
        // trailing zeros of the fraction and leading zeros change nothing
        while fractionDigits > 0, digits.last == 0 { digits.removeLast(); fractionDigits -= 1 }
        while digits.count > 1, digits.first == 0 { digits.removeFirst() }
        if digits.allSatisfy({ $0 == 0 }) { return .success(Rational(0, 1)) }
        if digits.count > maxDecimalDigits { return .failure(.tooManyDigits) }
        var mantissa: Int64 = 0
        for d in digits { mantissa = mantissa * 10 + Int64(d) }    // at most 18 digits: no overflow
        var scale = exponent - fractionDigits
        var num = mantissa, den: Int64 = 1
        while scale > 0 {
            let (m, o) = num.multipliedReportingOverflow(by: 10)
            if o { return .failure(.outOfRange) }
            num = m
            scale -= 1
        }
        while scale < 0 {
            let (m, o) = den.multipliedReportingOverflow(by: 10)
            if o { return .failure(.tooManyDigits) }
            den = m
            scale += 1
        }
        return .success(Rational(negative ? -num : num, den))
    }

    /// Greatest common divisor of two magnitudes (1 when both are 0, so dividing by it is safe).
    public static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    /// Greatest common divisor of |a| and |b| (0 when both are 0).
    public static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        if a == 0 && b == 0 { return 0 }
        return Int64(clamping: gcd(a.magnitude, b.magnitude))
    }

    /// Least common multiple of |a| and |b|, or nil when it does not fit 64 bits.
    public static func lcm(_ a: Int64, _ b: Int64) -> Int64? {
        if a == 0 || b == 0 { return 0 }
        let (m, overflow) = (a.magnitude / gcd(a.magnitude, b.magnitude)).multipliedReportingOverflow(by: b.magnitude)
        return overflow || m > UInt64(Int64.max) ? nil : Int64(m)
    }
}

/// Why a text is not a rational number.
public enum RationalParseError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case tooLong
    case notANumber
    case zeroDenominator
    /// The numerator or denominator does not fit in 64 bits.
    case outOfRange
    /// More significant digits or decimal places than an exact 64-bit fraction holds.
    case tooManyDigits

    public var description: String {
        switch self {
        case .empty: return "empty"
        case .tooLong: return "longer than \(Rational.maxTextLength) characters"
        case .notANumber: return "not \"num/den\", an integer or a decimal"
        case .zeroDenominator: return "zero denominator"
        case .outOfRange: return "out of range: numerator and denominator must fit in 64 bits"
        case .tooManyDigits: return "more than \(Rational.maxDecimalDigits) significant digits or decimal places"
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmedSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
