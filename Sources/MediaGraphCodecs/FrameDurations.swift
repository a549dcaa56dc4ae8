import MediaGraphCore

/// Durations of input frames, known once the next frame's pts arrives; packets look theirs up
/// by pts. Keeps variable frame rate input exact. A frame whose successor has not arrived yet
/// (the last one, or any frame of an encoder without delay) gets its own duration if it came
/// with one, else the nominal frame duration.
struct FrameDurations {
    let nominal: Int64
    private var lastPTS: Int64?
    /// The latest frame's own duration (0: none given).
    private var lastOwnDuration: Int64 = 0
    private var known: [Int64: Int64] = [:]
    private(set) var framesIn: Int = 0

    init(timeBase: Rational, frameRate: Rational) {
        // ticks per frame = 1 / (frameRate * timeBase), rounded to nearest, at least one tick.
        let num = timeBase.den * frameRate.den
        let den = timeBase.num * frameRate.num
        nominal = den > 0 ? max(1, (num + den / 2) / den) : 1
        known.reserveCapacity(1024)
    }

    /// Records the next input pts; throws when it does not increase.
    mutating func input(pts: Int64, duration: Int64 = 0, component: String) throws {
        if let last = lastPTS {
            guard pts > last else {
                throw CodecError(.invalidInput, component: component,
                                 message: "frame \(framesIn): pts \(pts) is not after the previous pts \(last) (pts must increase)")
            }
            known[last] = pts - last
        }
        lastPTS = pts
        lastOwnDuration = duration
        framesIn += 1
    }

    mutating func duration(of pts: Int64) -> Int64 {
        known.removeValue(forKey: pts) ?? (pts == lastPTS && lastOwnDuration > 0 ? lastOwnDuration : nominal)
    }
}
