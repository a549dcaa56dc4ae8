import MediaGraphCore

/// The output clock of `concat`: where each clip starts, in one timescale in which every input's
/// video ticks and every audio sample are whole numbers, so joining never rounds and never
/// drifts however many clips are joined.
///
/// A clip ends where the longer of its video (last frame's pts + duration) and its audio ends, as
/// with ffmpeg's concat filter; the next clip starts there. Audio is counted in samples: output
/// audio pts is the number of samples sent so far, and a clip whose audio is shorter than its
/// video is followed by silence up to the clip's end (rounded to the nearest sample), so audio and
/// video stay within half a sample of each other at every join.
struct ConcatTimeline {
    /// Ticks per second of the output video time base.
    let timescale: Int64
    /// Audio samples per second (nil without audio).
    let sampleRate: Int64?
    /// Where the current clip starts, in output ticks.
    private(set) var clipStart: Int64 = 0
    /// The end of the current clip's video so far, in ticks from the clip's start.
    private(set) var clipVideoEnd: Int64 = 0
    /// Audio samples sent so far (all clips, silence included).
    private(set) var samples: Int64 = 0

    /// The timescale for video of these time bases and audio of `sampleRate`: their least common
    /// multiple, or microseconds (as ffmpeg's concat) when that would pass 2^31.
    init(videoTimeBases: [Rational], sampleRate: Int?) {
        var scale: Int64? = 1
        for tb in videoTimeBases where tb.num > 0 && tb.den > 0 { scale = scale.flatMap { Self.lcm($0, tb.den) } }
        if let rate = sampleRate { scale = scale.flatMap { Self.lcm($0, Int64(rate)) } }
        let s = scale ?? .max
        timescale = s <= Int64(Int32.max) ? s : 1_000_000
        self.sampleRate = sampleRate.map(Int64.init)
    }

    /// The output pts of a video frame at `pts` (ticks of `timeBase`) in the current clip lasting
    /// `duration` ticks; notes where the clip's video has reached.
    mutating func placeVideo(pts: Int64, duration: Int64, timeBase: Rational, frameRate: Rational) -> (pts: Int64, duration: Int64) {
        let t = pts == SampleBuffer.noTime ? clipVideoEnd : (MediaTime.rescale(pts, timeBase: timeBase, to: timescale) ?? clipVideoEnd)
        var d = MediaTime.rescale(duration, timeBase: timeBase, to: timescale) ?? 0
        if d <= 0, let frameTime = frameRate.inverse, frameTime.num > 0 { d = MediaTime.rescale(1, timeBase: frameTime, to: timescale) ?? 0 }
        clipVideoEnd = max(clipVideoEnd, t &+ d)
        return (clipStart &+ t, d)
    }

    /// The output pts (in samples) of `count` audio samples; counts them.
    mutating func placeAudio(count: Int) -> Int64 {
        defer { samples += Int64(count) }
        return samples
    }

    /// Where the current clip's audio has reached, in output ticks.
    var audioEnd: Int64 {
        guard let sampleRate else { return clipStart }
        return MediaTime.rescale(samples, timeBase: Rational(1, sampleRate), to: timescale) ?? clipStart
    }
    /// Where the current clip's video has reached, in output ticks.
    var videoEnd: Int64 { clipStart &+ clipVideoEnd }

    /// Where the current clip ends: the longer of its video and its audio.
    var clipEnd: Int64 { max(videoEnd, audioEnd) }

    /// The silence (in samples) that brings the audio to `end` (output ticks).
    func silence(to end: Int64) -> Int64 {
        guard let sampleRate, let target = MediaTime.rescale(end, timeBase: Rational(1, timescale), to: sampleRate) else { return 0 }
        return max(0, target - samples)
    }

    /// Starts the next clip where the current one ends (`end`), less `overlap` ticks (and
    /// `overlapSamples` of audio) when a transition blends the two.
    mutating func startNextClip(at end: Int64, overlap: Int64 = 0, overlapSamples: Int64 = 0) {
        clipStart = end &- overlap
        clipVideoEnd = 0
        samples -= overlapSamples
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
    /// nil when it overflows.
    static func lcm(_ a: Int64, _ b: Int64) -> Int64? {
        let (p, o) = (a / gcd(a, b)).multipliedReportingOverflow(by: b)
        return o ? nil : p
    }
}
