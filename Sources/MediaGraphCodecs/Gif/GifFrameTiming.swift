/// GIF delays from timestamps: each frame ends at its exact end time rounded to centiseconds,
/// measured from the start of the clip, so rounding errors never add up (the total duration is
/// the input's, within 5 ms). A frame that would last under `minimumDelay` centiseconds is
/// dropped and the next frame takes its place: browsers show delays of 0 and 1 as 10 (Chromium,
/// Firefox), so a 60 fps clip becomes 2-3 cs frames instead of slow motion.
public struct GifFrameTiming: Sendable {
    public static let minimumDelay = 2
    private var start: Double?
    /// End of the frames given out so far, in centiseconds from the start.
    public private(set) var emittedEnd = 0

    public init() {}

    /// Sets the clip's start at its first frame's time (seconds).
    public mutating func begin(at seconds: Double) { if start == nil { start = seconds } }

    /// The delay of a frame that ends at `seconds`, or nil when it would be shorter than the
    /// minimum (drop the frame; the next one starts where it would have).
    public mutating func delay(endingAt seconds: Double) -> Int? {
        let end = Int(((seconds - (start ?? seconds)) * 100).rounded())
        let delay = end - emittedEnd
        guard delay >= Self.minimumDelay else { return nil }
        emittedEnd = end
        return delay
    }

    /// The delay of the last frame, ending at `seconds`: never dropped, at least the minimum.
    public mutating func lastDelay(endingAt seconds: Double) -> Int {
        let end = Int(((seconds - (start ?? seconds)) * 100).rounded())
        let delay = max(end - emittedEnd, Self.minimumDelay)
        emittedEnd += delay
        return delay
    }
}
