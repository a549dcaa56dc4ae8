/// A point or span in time as an exact value in a timescale (ticks per second), like CMTime.
public struct MediaTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var value: Int64
    public var timescale: Int64

    public init(value: Int64, timescale: Int64) {
        precondition(timescale > 0, "MediaTime timescale must be positive")
        self.value = value
        self.timescale = timescale
    }

    public static let zero = MediaTime(value: 0, timescale: 1)

    public var seconds: Double { Double(value) / Double(timescale) }

    /// The same instant in another timescale, rounded to the nearest tick (exact when it divides).
    /// A value too large for the new timescale saturates at Int64.min/max; use
    /// `convertedReportingOverflow(to:)` where that must be an error.
    public func converted(to newScale: Int64) -> MediaTime {
        if newScale == timescale { return self }
        let v = MediaTime.rescale(value, timeBase: Rational(1, timescale), to: newScale)
        return MediaTime(value: v ?? (value < 0 ? .min : .max), timescale: newScale)
    }

    /// The same instant in another timescale, rounded to the nearest tick; nil when it does not
    /// fit in 64 bits there.
    public func convertedReportingOverflow(to newScale: Int64) -> MediaTime? {
        if newScale == timescale { return self }
        return MediaTime.rescale(value, timeBase: Rational(1, timescale), to: newScale)
            .map { MediaTime(value: $0, timescale: newScale) }
    }

    /// `ticks` counted in `timeBase` (seconds per tick) as ticks of `timescale` per second:
    /// ticks × timeBase × timescale, rounded to the nearest tick (halves away from zero), with a
    /// 128-bit intermediate; nil when the result does not fit in Int64 (a timestamp taken from a
    /// file can be anything). `timeBase.den` and `timescale` must be positive.
    public static func rescale(_ ticks: Int64, timeBase: Rational, to timescale: Int64) -> Int64? {
        guard timeBase.den > 0, timescale > 0 else { return nil }
        // |ticks × num| < 2^126 always fits; the second product may not.
        let (p, overflow) = (Int128(ticks) * Int128(timeBase.num)).multipliedReportingOverflow(by: Int128(timescale))
        if overflow { return nil }
        let d = Int128(timeBase.den)
        var q = p / d
        let r = p % d
        if 2 * r.magnitude >= d.magnitude { q += r < 0 ? -1 : 1 }
        return Int64(exactly: q)
    }

    public static func < (a: MediaTime, b: MediaTime) -> Bool {
        if a.timescale == b.timescale { return a.value < b.value }
        let l = a.value.multipliedFullWidth(by: b.timescale)
        let r = b.value.multipliedFullWidth(by: a.timescale)
        return (l.high, l.low) < (r.high, r.low)
    }

    public static func == (a: MediaTime, b: MediaTime) -> Bool {
        if a.timescale == b.timescale { return a.value == b.value }
        let l = a.value.multipliedFullWidth(by: b.timescale)
        let r = b.value.multipliedFullWidth(by: a.timescale)
        return l.high == r.high && l.low == r.low
    }

    public func hash(into h: inout Hasher) {
        let g = Rational.gcd(value, timescale)
        h.combine(g == 0 ? 0 : value / g)
        h.combine(g == 0 ? 1 : timescale / g)
    }

    /// The sum, exact in the common timescale when that fits 64 bits, else in the finer of the
    /// two (rounded); values saturate instead of trapping on timestamps read from files.
    public static func + (a: MediaTime, b: MediaTime) -> MediaTime {
        let scale = a.timescale == b.timescale ? a.timescale : (Rational.lcm(a.timescale, b.timescale) ?? max(a.timescale, b.timescale))
        let (sum, overflow) = a.converted(to: scale).value.addingReportingOverflow(b.converted(to: scale).value)
        return MediaTime(value: overflow ? (sum < 0 ? Int64.max : Int64.min) : sum, timescale: scale)
    }

    public var description: String { "\(value)/\(timescale)s" }
}
