import MediaGraphCore

/// Timescale and frame duration for constant-rate video: exact integers.
enum FrameClock {
    /// With no timescale requested: the rate's numerator, doubled until ≥ 10000 (25 fps → 12800,
    /// the choice of ffmpeg's MP4 muxer), so that frame durations are whole ticks. The rate's
    /// terms must be within `MediaLimits.maxRateTerm` (a VUI gives 32-bit values), so the
    /// products stay far below 2^63.
    static func ticks(rate: Rational, timescale: Int64?, path: String, offset: Int64) throws -> (Int64, Int64) {
        if let problem = MediaLimits.rateProblem("frame rate", num: rate.num, den: rate.den) {
            throw ElementaryStreamError(path: path, offset: offset, message: problem)
        }
        if let ts = timescale {
            let (product, overflow) = ts.multipliedReportingOverflow(by: rate.den)
            guard ts > 0, !overflow, product % rate.num == 0 else {
                throw ElementaryStreamError(path: path, offset: offset,
                                            message: "timescale \(ts) cannot represent frames at \(rate) fps exactly")
            }
            return (ts, product / rate.num)
        }
        var ts = rate.num, d = rate.den
        while ts < 10000 { ts *= 2; d *= 2 }
        return (ts, d)
    }
}
