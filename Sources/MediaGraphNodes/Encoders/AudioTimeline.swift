import MediaGraphCore

/// Keeps an audio encoder's samples on the buffers' timestamps. An encoder counts samples, so a
/// hole in the input's times (a recording's dropout, a stream that paused) would otherwise close
/// up and everything after it would play early against the video; overlapping times would play
/// late. Where a buffer starts more than `tolerance` away from where the samples so far end,
/// the gap is filled with silence or the overlap dropped, as ffmpeg's `aresample=async=1` does
/// (ffmpeg's default keeps the hole as one long packet, which players do not agree on). Small
/// differences, such as Matroska's millisecond rounding, are left alone and never add up: each
/// buffer is compared with the first buffer's time plus the samples since.
struct AudioTimeline {
    let sampleRate: Int
    /// Deviations up to this many samples are jitter, not gaps: 20 ms, below what anyone hears
    /// as out of sync and far above a container's timestamp rounding.
    let tolerance: Int64
    /// The longest hole filled: 10 minutes. A longer jump is a broken or hostile file's (hours of
    /// silence would take hours to encode): the samples follow on as if there were none, later
    /// times count from after the jump, and the warning says so.
    let longestFill: Int64
    /// Where the next sample belongs, in samples at `sampleRate`; nil before the first buffer.
    private(set) var nextSample: Int64?
    private var filled: (count: Int, samples: Int64, firstAt: Int64) = (0, 0, 0)
    private var dropped: (count: Int, samples: Int64, firstAt: Int64) = (0, 0, 0)
    private var ignored: (count: Int, firstAt: Int64) = (0, 0)

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        tolerance = Int64(sampleRate / 50)
        longestFill = Int64(sampleRate) * 600
    }

    /// For a buffer of `count` samples at `pts` (in `timeBase`): the samples of silence to
    /// encode before it, and how many of its own first samples to leave out.
    mutating func place(pts: Int64, timeBase: Rational, count: Int) -> (silence: Int64, skip: Int) {
        let at = pts == SampleBuffer.noTime ? nil : MediaTime.rescale(pts, timeBase: timeBase, to: Int64(sampleRate))
        guard let expected = nextSample else {
            nextSample = (at ?? 0) + Int64(count)
            return (0, 0)
        }
        guard let at else {
            nextSample = expected + Int64(count)
            return (0, 0)
        }
        let drift = at - expected
        if drift > longestFill {
            if ignored.count == 0 { ignored.firstAt = expected }
            ignored.count += 1
            // later buffers are compared with the times after the jump
            nextSample = at + Int64(count)
            return (0, 0)
        }
        if drift > tolerance {
            if filled.count == 0 { filled.firstAt = expected }
            filled.count += 1
            filled.samples += drift
            nextSample = at + Int64(count)
            return (drift, 0)
        }
        if drift < -tolerance {
            let skip = Int(min(-drift, Int64(count)))
            if dropped.count == 0 { dropped.firstAt = at }
            dropped.count += 1
            dropped.samples += Int64(skip)
            nextSample = expected + Int64(count - skip)
            return (0, skip)
        }
        nextSample = expected + Int64(count)
        return (0, 0)
    }

    /// What was filled or dropped, for the run's warnings.
    var warnings: [String] {
        func seconds(_ samples: Int64) -> String { TimeValue.clock(Rational(samples, Int64(sampleRate))) }
        var out: [String] = []
        if filled.count > 0 {
            out.append("the audio's times jump ahead \(filled.count) time\(filled.count == 1 ? "" : "s"), the first at \(seconds(filled.firstAt)): \(seconds(filled.samples)) of silence fill the gaps, so the sound stays in time with the picture")
        }
        if dropped.count > 0 {
            out.append("the audio's times go back \(dropped.count) time\(dropped.count == 1 ? "" : "s"), the first at \(seconds(dropped.firstAt)): \(seconds(dropped.samples)) of overlapping samples were left out, so the sound stays in time with the picture")
        }
        if ignored.count > 0 {
            out.append("the audio's times jump ahead by more than 10 minutes \(ignored.count) time\(ignored.count == 1 ? "" : "s"), the first at \(seconds(ignored.firstAt)): not filled with silence, so the sound after it may not be in time with the picture")
        }
        return out
    }
}
