import MediaGraphCodecs
import MediaGraphCore

/// The frames `ThumbnailMaker` looks at for one of its N points, in the order the decoder gives
/// them, and the one it takes: the first that passes `ThumbnailFrameCheck`, or after
/// `ThumbnailMaker.maxFramesPerPoint` rejected ones (or the end of the GOP or file) the rejected
/// one with the most detail.
///
/// A frame is never taken twice: frames at or before the previous point's picture are passed
/// over, and once one was (the seek landed on a GOP an earlier point took from), frames before
/// the start of this point's part of the file are too. The part's start, not its middle: where
/// points lie closer together than frames (`-n 300` on 250 frames) each point then still finds a
/// frame of its own, so the pictures are every frame there is rather than every other one.
struct ThumbnailPoint {
    /// Start of this point's part of the file, microseconds on the file's clock.
    let partStart: Int64
    /// The previous picture's pts (Int64.min before the first).
    let after: Int64
    let range: ColorRange
    private(set) var looked = 0
    private(set) var rejected = 0
    private var catchingUp = false
    private var best: (frame: SampleBuffer, check: ThumbnailFrameCheck)?
    private var chosen: SampleBuffer?

    init(partStart: Int64, after: Int64, range: ColorRange) {
        self.partStart = partStart
        self.after = after
        self.range = range
    }

    /// Whether a frame that can be taken was seen (one that passed, or a rejected one to fall back on).
    var hasCandidate: Bool { chosen != nil || best != nil }

    /// Looks at the next decoded frame; true when the search is over (a frame passed, or the
    /// limit of frames looked at is reached).
    mutating func consider(_ frame: SampleBuffer) -> Bool {
        if frame.pts <= after { catchingUp = true; return false }
        if catchingUp && Int64((Double(frame.pts) * frame.timeBase.doubleValue * 1e6).rounded()) < partStart { return false }
        guard let planes = frame.planes else { return false }
        looked += 1
        let check = ThumbnailFrameCheck(planes, range: range)
        if check.acceptable { chosen = frame; return true }
        rejected += 1
        if best.map({ check.deviation > $0.check.deviation }) ?? true { best = (frame, check) }
        return looked >= ThumbnailMaker.maxFramesPerPoint
    }

    /// The frame taken, and why it is a fallback if it is one (`near` names the point's time);
    /// nil when no new frame was found (past the last frame).
    func result(near seconds: Double) -> (frame: SampleBuffer, fallback: String?)? {
        if let chosen { return (chosen, nil) }
        guard let best else { return nil }
        return (best.frame, "every frame looked at near \(ImageNamePattern.displayClock(seconds)) was \(best.check.reason ?? "rejected")")
    }
}
