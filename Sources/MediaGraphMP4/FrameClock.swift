import MediaGraphCore

/// Timescale and frame duration for constant-rate video: exact integers.
enum FrameClock {
    /// With no timescale requested: the rate's numerator, doubled until ≥ 10000 (25 fps → 12800,
    /// the choice of ffmpeg's MP4 muxer), so that frame durations are whole ticks.
    static func ticks(rate: Rational, timescale: Int64?, path: String, offset: Int64) throws -> (Int64, Int64) {
        guard rate.num > 0, rate.den > 0 else {
            throw ElementaryStreamError(path: path, offset: offset, message: "frame rate \(rate) is not positive")
        }
        if let ts = timescale {
            guard ts > 0, (ts * rate.den) % rate.num == 0 else {
                throw ElementaryStreamError(path: path, offset: offset,
                                            message: "timescale \(ts) cannot represent frames at \(rate) fps exactly")
            }
            return (ts, ts * rate.den / rate.num)
        }
        var ts = rate.num, d = rate.den
        while ts < 10000 { ts *= 2; d *= 2 }
        return (ts, d)
    }
}
