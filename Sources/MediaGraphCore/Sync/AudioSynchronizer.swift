/// Lines audio inputs up by sample time for a node that mixes them (amix): every input in one
/// planar float format, one rate and channel count (the graph inserts `resample` where they
/// differ). An input's first buffer places it (its pts, in samples); from there its samples are
/// counted, so joining buffers never rounds. `ready` says how many samples every input can give
/// from the current position; an input that has not started or has ended gives silence where it
/// has nothing. Memory: what an input delivered ahead of the slowest one; the node's
/// `preferredInput` asks for the one that is behind (`behind`), so the others are held back by
/// their queues.
public struct AudioSynchronizer {
    public let channels: Int
    public let end: SyncEnd
    /// The next output sample.
    public private(set) var position: Int64 = 0
    private var started = false
    private var inputs: [Input]

    struct Input {
        /// Output sample of `samples[channel][head]`.
        var start: Int64?
        var head = 0
        var samples: [[Float]]
        var ended = false
        var count: Int { samples.first.map { $0.count - head } ?? 0 }
        var reach: Int64? { start.map { $0 + Int64(count) } }
    }

    public init(inputs: Int, channels: Int, end: SyncEnd) {
        self.channels = channels
        self.end = end
        self.inputs = Array(repeating: Input(samples: Array(repeating: [], count: channels)), count: inputs)
    }

    /// Appends one buffer of input `k`: `planes[c]` points at `count` floats of channel c; `pts`
    /// (in samples, nil when unknown) places the input's first buffer only.
    public mutating func append(input k: Int, pts: Int64?, count: Int, planes: (Int) -> UnsafeBufferPointer<Float>) {
        if inputs[k].start == nil { inputs[k].start = max(pts ?? 0, position) }
        for c in 0..<channels { inputs[k].samples[c].append(contentsOf: planes(c).prefix(count)) }
    }

    public mutating func inputEnded(_ k: Int) {
        inputs[k].ended = true
        if inputs[k].start == nil { inputs[k].start = position }
    }

    /// Samples input `k` holds that are not mixed yet.
    public func buffered(_ k: Int) -> Int { inputs[k].count }

    /// The input that is behind (not ended, reaching least far), to read next.
    public var behind: Int? {
        var best: (k: Int, reach: Int64)?
        for (k, i) in inputs.enumerated() where !i.ended {
            let r = i.reach ?? .min
            if best == nil || r < best!.reach { best = (k, r) }
        }
        return best?.k
    }

    /// Where the output ends, once known by the `end` rule.
    private var endPosition: Int64? {
        switch end {
        case .first:
            return inputs[0].ended ? inputs[0].reach : nil
        case .shortest:
            return inputs.filter(\.ended).compactMap(\.reach).min()
        case .longest:
            return inputs.allSatisfy(\.ended) ? inputs.compactMap(\.reach).max() : nil
        }
    }

    /// Samples that can be mixed from `position` now: up to where every open input has data
    /// (and not past the end the `end` rule sets).
    public mutating func ready() -> Int {
        if !started {
            // the output starts where the earliest input starts, once every one has started
            guard inputs.allSatisfy({ $0.start != nil }) else { return 0 }
            position = inputs.compactMap(\.start).min() ?? 0
            started = true
        }
        var limit = inputs.filter { !$0.ended }.compactMap(\.reach).min() ?? (inputs.compactMap(\.reach).max() ?? position)
        if let e = endPosition { limit = min(limit, e) }
        return Int(max(0, limit - position))
    }

    /// Whether the output has reached its end (no more samples will be mixed).
    public var isFinished: Bool {
        guard let e = endPosition else { return false }
        return position >= e
    }

    /// Hands `body` each input's samples for output samples position..<position+count, channel by
    /// channel, as (input, channel, offset into the span where its data starts, its data), then
    /// moves on by `count`. Spans where an input has nothing are left out (silence).
    public mutating func consume(_ count: Int, _ body: (_ input: Int, _ channel: Int, _ offset: Int, _ data: UnsafeBufferPointer<Float>) -> Void) {
        let from = position, to = position + Int64(count)
        for k in inputs.indices {
            guard let start = inputs[k].start else { continue }
            let lo = max(from, start), hi = min(to, start + Int64(inputs[k].count))
            if hi > lo {
                let skip = inputs[k].head + Int(lo - start)
                for c in 0..<channels {
                    inputs[k].samples[c].withUnsafeBufferPointer { all in
                        body(k, c, Int(lo - from), UnsafeBufferPointer(rebasing: all[skip..<(skip + Int(hi - lo))]))
                    }
                }
            }
            // drop what lies before the new position
            let used = Int(max(0, min(to, start + Int64(inputs[k].count)) - start))
            if used > 0 {
                inputs[k].head += used
                inputs[k].start = start + Int64(used)
                if inputs[k].head >= 4096 && inputs[k].head * 2 >= inputs[k].samples[0].count {
                    for c in 0..<channels { inputs[k].samples[c].removeFirst(inputs[k].head) }
                    inputs[k].head = 0
                }
            }
        }
        position = to
    }
}
