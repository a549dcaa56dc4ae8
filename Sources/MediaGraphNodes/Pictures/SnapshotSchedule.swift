/// Which frames a `snapshot` node takes by the clock or the count: at given times, every N
/// seconds, every N frames. A time is taken by the first frame at or after it (ffmpeg's `-ss`
/// rule), so a picture for 2.0 s from a 30 fps stream is frame 60. Several times that fall on one
/// frame make one picture. Pure logic: the node feeds it each frame's time.
struct SnapshotSchedule {
    /// Seconds on the stream's clock, ascending; `nextTime` is the first not yet taken.
    private let times: [Double]
    private var nextTime = 0
    private let every: Double?
    private let everyFrames: Int?
    private var nextEvery: Double?
    private var frames = 0

    /// Tolerance for a frame time that should equal a requested time but for rounding.
    static let epsilon = 1e-6

    init(times: [Double], every: Double?, everyFrames: Int?) {
        self.times = times.filter(\.isFinite).sorted()
        self.every = every.flatMap { $0 > 0 ? $0 : nil }
        self.everyFrames = everyFrames.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Whether the frame at `seconds` (the next in the stream) is to be taken.
    mutating func wants(seconds: Double) -> Bool {
        defer { frames += 1 }
        var take = false
        while nextTime < times.count && times[nextTime] <= seconds + Self.epsilon {
            take = true
            nextTime += 1
        }
        if let every {
            // the grid starts at the first frame's time: pictures at t0, t0 + N, t0 + 2N, …
            let due = nextEvery ?? seconds
            if seconds + Self.epsilon >= due {
                take = true
                // the next multiple after this frame (a gap in the stream skips missed ones)
                let steps = ((seconds - due) / every).rounded(.down) + 1
                nextEvery = due + steps * every
            }
        }
        if let everyFrames, frames % everyFrames == 0 { take = true }
        return take
    }

    /// Times still waiting for a frame (reported when the stream ends before them).
    var untakenTimes: ArraySlice<Double> { times[nextTime...] }
}
