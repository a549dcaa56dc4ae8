/// The synchroniser's time base, 1/`scale` s: the least common multiple of the inputs' time base
/// denominators and the offsets' (so 24, 25 and 30 fps inputs meet exactly at 1/600 s), or
/// nanoseconds (rounded) when that would be too fine.
struct SyncClock {
    let scale: Int64

    init(timeBases: [Rational], offsets: [Rational]) {
        var s: Int64 = 1
        for d in (timeBases + offsets).map(\.den) {
            guard let l = Rational.lcm(s, d), l <= SyncLimits.maximumTimeScale else { s = 1_000_000_000; break }
            s = l
        }
        scale = s
    }

    var timeBase: Rational { Rational(1, scale) }

    /// `value` ticks of `tb` in this clock's ticks, rounded to the nearest (exact when `tb`'s
    /// denominator divides `scale`); nil when it does not fit in 64 bits.
    func ticks(_ value: Int64, of tb: Rational) -> Int64? {
        if scale % tb.den == 0 {
            let (m, o1) = tb.num.multipliedReportingOverflow(by: scale / tb.den)
            let (t, o2) = value.multipliedReportingOverflow(by: m)
            return o1 || o2 ? nil : t
        }
        let (a, o1) = Int128(value).multipliedReportingOverflow(by: Int128(tb.num))
        let (n, o2) = a.multipliedReportingOverflow(by: Int128(scale))
        if o1 || o2 { return nil }
        let d = Int128(tb.den)
        let q = (n >= 0 ? n + d / 2 : n - d / 2) / d
        return q >= Int128(Int64.min) && q <= Int128(Int64.max) ? Int64(q) : nil
    }

    /// Seconds as a `Rational` (exact for what a graph file writes).
    static func rational(seconds: Double) -> Rational? {
        guard case .success(let r) = Rational.parse(number: seconds) else { return nil }
        return r
    }

    /// Seconds of `ticks`, for messages.
    func seconds(_ ticks: Int64) -> Double { Double(ticks) / Double(scale) }
}
