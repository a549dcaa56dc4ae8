import MediaGraphCore

extension VideoFrame {
    /// The frame's presentation time in seconds (0 under a zero time base), for the picture
    /// sinks that name files by time or turn timestamps into delays.
    var seconds: Double {
        let tb = timeBase
        return tb.den == 0 ? 0 : Double(pts) * Double(tb.num) / Double(tb.den)
    }

    /// The frame's duration in seconds, or one frame at `rate` when it carries none.
    func durationSeconds(defaultRate rate: Rational) -> Double {
        let tb = timeBase
        if buffer.duration > 0 && tb.den != 0 { return Double(buffer.duration) * Double(tb.num) / Double(tb.den) }
        return Double(rate.den) / Double(max(rate.num, 1))
    }
}
