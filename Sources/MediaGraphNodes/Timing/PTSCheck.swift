import MediaGraphCore

/// What `setpts` and `asetpts` refuse to pass on, since no encoder or muxer can take it: a
/// frame without a time (the expression gave NAN, or a value no tick count holds), before time
/// zero, or earlier than the frame before (video: not later).
enum PTSCheck {
    /// The output tick of frame `frame` (0-based) from the expression's value `d`, or an error
    /// naming the frame and the times in ticks and seconds.
    static func output(_ d: Double, frame: Int, inPTS: Int64, previous: Int64?, strictlyLater: Bool,
                       timeBase: Rational, expression: NumericExpression) throws -> Int64 {
        let what = "frame \(frame) (pts \(time(inPTS, timeBase)))"
        guard let t = PTSExpression.ticks(d) else {
            let value = d.isNaN ? "NAN (no time: ffmpeg would pass the frame on without one)" : "\(d), out of range"
            throw NodeFailure("\(what): '\(expression.source)' gives \(value); every frame needs a time")
        }
        guard t >= 0 else {
            throw NodeFailure("\(what): '\(expression.source)' gives \(time(t, timeBase)), before time zero; "
                + "shift it forward (e.g. subtract STARTPTS, or add a constant/TB)")
        }
        if let p = previous, strictlyLater ? t <= p : t < p {
            throw NodeFailure("\(what): '\(expression.source)' gives \(time(t, timeBase)), "
                + "\(strictlyLater ? "not after" : "before") frame \(frame - 1)'s \(time(p, timeBase)); "
                + "times must \(strictlyLater ? "increase" : "not go back") from frame to frame")
        }
        return t
    }

    /// Ticks with their time: "300 (12.000 s)".
    static func time(_ ticks: Int64, _ tb: Rational) -> String {
        let (n, overflow) = ticks.multipliedReportingOverflow(by: tb.num)
        return ticks == BufferMetadata.noTime ? "none" : overflow ? "\(ticks)" : "\(ticks) (\(TimeValue.clock(Rational(n, tb.den))))"
    }
}
