/// Aligns the frames of several video inputs by time (pure logic: no threads, no engine), as
/// ffmpeg's framesync does for overlay: one output time per frame of the first input; at output
/// time t, input k shows its last frame with pts + offset ≤ t.
///
/// Memory stays bounded: `preferredInput` names the input the next output time needs, so the
/// engine takes frames from it and lets the others block on their full queues. A frame that a
/// newer one replaces before an output time is dropped at once. Each input holds its current
/// frame plus the frames that arrived ahead of the output time: one in steady state (two for the
/// first input, whose next frame gives the output duration), more only when the engine had to
/// take a frame from a full queue, at most `SyncLimits.heldFrames`.
public final class VideoSynchronizer {
    /// Input names for messages (`in`, `in1`, …), in input order.
    public let names: [String]
    public let policy: SyncPolicy
    let clock: SyncClock
    private var inputs: [InputState]
    private let slots: SyncSlots
    private var last: (time: Int64, duration: Int64)?
    /// Set once the output has ended (by the `end` policy): later frames are dropped.
    public private(set) var isFinished = false

    private struct InputState {
        var held = HeldFrames()
        var current: SampleBuffer?
        var ended = false
        /// When ended: the end of its last frame (Int64.min when it had none).
        var endTime = Int64.min
        var lastTime = Int64.min
        var lastDuration: Int64 = 0
        var offset: Int64
        /// Duration of a frame that carries none: one frame at the input's frame rate.
        var defaultDuration: Int64
    }

    /// The output time base (1/600 s for inputs at 24, 25 and 30 fps).
    public var timeBase: Rational { clock.timeBase }

    /// A synchroniser for inputs of these formats, in input order (`SyncInputOrder`).
    public init(formats: [VideoFormat], names: [String], policy: SyncPolicy) throws {
        guard !formats.isEmpty, formats.count <= SyncLimits.maximumInputs else {
            throw NodeFailure("a synchronised node takes 1 to \(SyncLimits.maximumInputs) inputs, found \(formats.count)")
        }
        var offsets: [Rational] = []
        for k in formats.indices {
            guard let r = SyncClock.rational(seconds: policy.offset(k)), Swift.abs(r.doubleValue) < 1e9 else {
                throw NodeFailure("param 'offsets': entry \(k) (\(policy.offset(k))) for input '\(names[k])' is not a usable number of seconds")
            }
            offsets.append(r)
        }
        self.names = names
        self.policy = policy
        let clock = SyncClock(timeBases: formats.map(\.timeBase), offsets: offsets)
        self.clock = clock
        let scale = clock.scale
        inputs = zip(formats, offsets).map { f, o in
            let offset = clock.ticks(o.num, of: Rational(1, o.den)) ?? 0
            let rate = f.frameRate
            let perFrame = rate.num > 0 && rate.den > 0 ? max(1, (scale * rate.den + rate.num / 2) / rate.num) : scale / 25
            return InputState(offset: offset, defaultDuration: perFrame)
        }
        slots = SyncSlots(count: formats.count)
    }

    public var inputCount: Int { inputs.count }

    /// Frames each input holds ahead of the output time (besides its current frame), for tests
    /// and statistics.
    public var heldCounts: [Int] { inputs.map(\.held.count) }

    /// The input the next output time needs a frame from, or nil when any will do (or none is
    /// needed). Ended inputs are never named.
    public func preferredInput() -> Int? {
        if isFinished { return nil }
        if !inputs[0].ended && inputs[0].held.count < 2 { return 0 }
        guard let t = nextOutput()?.time else { return nil }
        for k in 1..<inputs.count where !inputs[k].ended {
            guard let newest = inputs[k].held.lastTime, newest > t else { return k }
        }
        return nil
    }

    /// Takes a frame of input `k` (input order) and emits every output time it completes.
    public func add(_ buffer: consuming SampleBuffer, input k: Int, emit: (borrowing SyncedFrames) throws -> Void) throws {
        if isFinished || inputs[k].ended { return }
        let pts = buffer.pts, tb = buffer.timeBase, d = buffer.duration
        var time: Int64
        if pts == BufferMetadata.noTime {
            time = inputs[k].lastTime == Int64.min ? inputs[k].offset : inputs[k].lastTime &+ inputs[k].lastDuration
        } else {
            guard tb.den > 0, let t = clock.ticks(pts, of: tb) else {
                throw NodeFailure("input '\(names[k])': frame pts \(pts) in time base \(tb) does not fit the synchroniser's clock (1/\(clock.scale) s)")
            }
            time = t &+ inputs[k].offset
        }
        var duration = inputs[k].defaultDuration
        if d > 0, tb.den > 0, let dt = clock.ticks(d, of: tb), dt > 0 { duration = dt }
        guard inputs[k].held.count < SyncLimits.heldFrames else {
            let now = TimeValue.clock(Rational(last?.time ?? 0, clock.scale))
            throw NodeFailure("input '\(names[k])' has \(SyncLimits.heldFrames) frames waiting for their time while the output is at \(now), and the other inputs send no frames for that time: are they branches of one source whose offsets differ by more than \(SyncLimits.heldFrames) frames? (the source cannot run ahead on one branch and behind on the other; put the offset on a source of its own)")
        }
        inputs[k].held.append(consume buffer, time: time, duration: duration)
        inputs[k].lastTime = time
        inputs[k].lastDuration = duration
        try drain(emit)
    }

    /// Input `k` has ended; emits every output time that completes.
    public func end(input k: Int, emit: (borrowing SyncedFrames) throws -> Void) throws {
        guard !inputs[k].ended else { return }
        inputs[k].ended = true
        inputs[k].endTime = inputs[k].lastTime == Int64.min ? Int64.min : inputs[k].lastTime &+ inputs[k].lastDuration
        try drain(emit)
    }

    /// Every input has ended: emits what is still due and lets go of every frame.
    public func finish(emit: (borrowing SyncedFrames) throws -> Void) throws {
        for k in inputs.indices where !inputs[k].ended { try end(input: k, emit: emit) }
        try drain(emit)
        stop()
    }

    /// The next output time, its duration, and whether it comes from a frame of the first input
    /// (else it repeats the first input's last frame duration, under `end: longest`); nil while
    /// the first input's next frame is not known yet, or when the output has ended.
    private func nextOutput() -> (time: Int64, duration: Int64, fromFirst: Bool)? {
        let first = inputs[0]
        if let f = first.held.first {
            if first.held.count >= 2 {
                let gap = first.held.time(1) &- f.time
                return (f.time, gap > 0 ? gap : f.duration, true)
            }
            return first.ended ? (f.time, f.duration, true) : nil
        }
        guard first.ended, policy.end == .longest, inputs.count > 1, let last else { return nil }
        return (last.time &+ max(1, last.duration), max(1, last.duration), false)
    }

    private func drain(_ emit: (borrowing SyncedFrames) throws -> Void) throws {
        while !isFinished {
            guard let (t, duration, fromFirst) = nextOutput() else {
                // the first input is exhausted and nothing repeats it: the output has ended
                if inputs[0].ended && inputs[0].held.isEmpty { stop() }
                return
            }
            for k in 1..<max(1, inputs.count) {
                advance(k, to: t)
                // its next frame must be known (or its end) to know its frame at t
                if !inputs[k].ended && inputs[k].held.isEmpty { return }
            }
            if fromFirst { advance(0, to: t) }
            if outputEnds(at: t, fromFirst: fromFirst) { stop(); return }
            try emitFrames(at: t, duration: duration, emit)
            last = (t, duration)
        }
    }

    /// Makes input `k`'s current frame its last one at or before `t`, dropping those it replaces.
    private func advance(_ k: Int, to t: Int64) {
        while let f = inputs[k].held.first, f.time <= t {
            inputs[k].current = inputs[k].held.removeFirst().buffer
        }
    }

    private func outputEnds(at t: Int64, fromFirst: Bool) -> Bool {
        switch policy.end {
        case .shortest:
            return inputs.contains { $0.ended && t >= $0.endTime && $0.held.isEmpty }
        case .first:
            return false
        case .longest:
            if fromFirst { return false }
            guard inputs.allSatisfy(\.ended) else { return false }
            return t >= inputs.map(\.endTime).max()!
        }
    }

    private func emitFrames(at t: Int64, duration: Int64, _ emit: (borrowing SyncedFrames) throws -> Void) throws {
        let n = inputs.count
        let hideEnded = policy.ended == .hide
        for k in 0..<n where !(hideEnded && inputs[k].ended && inputs[k].held.isEmpty && t >= inputs[k].endTime) {
            swap(&slots.frames[k], &inputs[k].current)
        }
        slots.keepFirst = policy.end == .longest && policy.ended == .hold && n > 1 && inputs[0].ended && inputs[0].held.isEmpty
        defer {
            for k in 0..<n where slots.frames[k] != nil {
                swap(&slots.frames[k], &inputs[k].current)
            }
        }
        try emit(SyncedFrames(pts: t, duration: duration, timeBase: clock.timeBase, slots: slots))
    }

    private func stop() {
        isFinished = true
        for k in inputs.indices {
            inputs[k].held.removeAll()
            inputs[k].current = nil
            slots.frames[k] = nil
        }
    }
}
