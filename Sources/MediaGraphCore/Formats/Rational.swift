/// An exact rational number: frame rates, time bases, aspect ratios.
public struct Rational: Hashable, Sendable, CustomStringConvertible {
    public var num: Int64
    public var den: Int64

    public init(_ num: Int64, _ den: Int64) {
        precondition(den != 0, "Rational with zero denominator")
        let g = Rational.gcd(Swift.abs(num), Swift.abs(den))
        let sign: Int64 = den < 0 ? -1 : 1
        self.num = g == 0 ? 0 : sign * num / g
        self.den = g == 0 ? 1 : sign * den / g
    }

    public var doubleValue: Double { Double(num) / Double(den) }
    public var inverse: Rational { Rational(den, num) }
    public var description: String { "\(num)/\(den)" }

    /// Parses "30", "30/1", "30000/1001" or a decimal such as "29.97" (kept exact: 2997/100) or
    /// "-0.5" (−1/2). Nil for anything else, including values whose terms do not fit in Int64
    /// (Int64.min is refused too: `init(_:_:)` normalises with abs()).
    public init?(parsing text: String) {
        let t = text.trimmedSpaces()
        if let slash = t.firstIndex(of: "/") {
            guard let n = Int64(t[..<slash]), let d = Int64(t[t.index(after: slash)...]), d != 0,
                  n != .min, d != .min else { return nil }
            self.init(n, d)
        } else if let n = Int64(t) {
            guard n != .min else { return nil }
            self.init(n, 1)
        } else if let dot = t.firstIndex(of: "."), let whole = Int64(t[..<dot]) {
            let fracText = t[t.index(after: dot)...]
            guard !fracText.isEmpty, fracText.count <= 9, fracText.allSatisfy({ ("0"..."9").contains($0) }),
                  let frac = Int64(fracText) else { return nil }
            var scale: Int64 = 1
            for _ in 0..<fracText.count { scale *= 10 }
            // The sign is the text's: "-0.5" has whole part 0. A long whole part overflows.
            let negative = t.hasPrefix("-")
            let (scaled, o1) = whole.multipliedReportingOverflow(by: scale)
            let (value, o2) = scaled.addingReportingOverflow(negative ? -frac : frac)
            guard !o1, !o2, value != .min else { return nil }
            self.init(value, scale)
        } else {
            return nil
        }
    }

    public static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    public static func lcm(_ a: Int64, _ b: Int64) -> Int64 {
        if a == 0 || b == 0 { return 0 }
        return a / gcd(a, b) * b
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
