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
    public func converted(to newScale: Int64) -> MediaTime {
        if newScale == timescale { return self }
        let (hi, lo) = value.multipliedFullWidth(by: newScale)
        let (q, r) = timescale.dividingFullWidth((hi, lo))
        // round half away from zero
        var v = q
        if 2 * Swift.abs(r) >= timescale { v += (r < 0 ? -1 : 1) }
        return MediaTime(value: v, timescale: newScale)
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

    public static func + (a: MediaTime, b: MediaTime) -> MediaTime {
        if a.timescale == b.timescale { return MediaTime(value: a.value + b.value, timescale: a.timescale) }
        let scale = Rational.lcm(a.timescale, b.timescale)
        return MediaTime(value: a.converted(to: scale).value + b.converted(to: scale).value, timescale: scale)
    }

    public var description: String { "\(value)/\(timescale)s" }
}
