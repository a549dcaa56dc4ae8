/// A frame waiting in the synchroniser, with its time in the synchroniser's time base.
struct HeldFrame {
    var buffer: SampleBuffer?
    var time: Int64
    var duration: Int64
}

/// The frames of one input that arrived ahead of the output time, oldest first: a ring that
/// grows only when the engine forces a frame on the synchroniser (`SyncLimits.heldFrames`), so
/// steady state does not allocate.
struct HeldFrames {
    private var ring: [HeldFrame] = Array(repeating: HeldFrame(buffer: nil, time: 0, duration: 0), count: 4)
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The oldest frame's time and duration (nil when empty).
    var first: HeldFrame? { count == 0 ? nil : ring[head] }
    /// Time of the `k`-th oldest frame.
    func time(_ k: Int) -> Int64 { ring[(head + k) % ring.count].time }
    /// Time of the newest frame, or nil.
    var lastTime: Int64? { count == 0 ? nil : time(count - 1) }

    mutating func append(_ buffer: consuming SampleBuffer, time: Int64, duration: Int64) {
        if count == ring.count {
            var grown = Array(repeating: HeldFrame(buffer: nil, time: 0, duration: 0), count: ring.count * 2)
            for k in 0..<count { swap(&grown[k], &ring[(head + k) % ring.count]) }
            ring = grown
            head = 0
        }
        let slot = (head + count) % ring.count
        ring[slot].buffer = consume buffer
        ring[slot].time = time
        ring[slot].duration = duration
        count += 1
    }

    /// Takes the oldest frame out (moved: the ring keeps no reference).
    mutating func removeFirst() -> HeldFrame {
        var out = HeldFrame(buffer: nil, time: 0, duration: 0)
        swap(&out, &ring[head])
        head = (head + 1) % ring.count
        count -= 1
        return out
    }

    mutating func removeAll() {
        while count > 0 { _ = removeFirst() }
    }
}
