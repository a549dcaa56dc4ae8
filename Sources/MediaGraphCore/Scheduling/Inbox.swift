/// An item travelling between threads: a buffer, or the end of one input's stream.
enum InboxItem {
    case buffer(SampleBuffer)
    case endOfStream
}

/// The bounded queues in front of a node that runs on its own thread: one small ring per input,
/// sharing one lock, so a multi-input node can wait for the input it needs next. A full ring
/// blocks its producer (back-pressure); `cancel` wakes everyone when the graph stops.
///
/// `@unchecked Sendable`: the producers' threads and the consumer's thread share it, and every
/// stored `var` is read and written only with the monitor's mutex held (Synchronization's `Mutex`
/// has no condition variables to wait on, hence the pthread monitor).
final class Inbox: @unchecked Sendable {
    private let monitor = Monitor()
    private var rings: [[InboxItem?]]
    private var heads: [Int]
    private var counts: [Int]
    private let capacity: Int
    private var cancelled = false
    /// Set when the node wants nothing more (a synchronised node whose output has ended): pushes
    /// are dropped, so producers see `isClosed` and stop instead of blocking.
    private var closed = false
    /// Threads blocked in pop / push: signals are sent only when someone waits, and producers
    /// are woken only once a ring has drained to half, so small buffers do not cost a context
    /// switch each.
    private var waitingConsumers = 0
    private var waitingProducers = 0
    /// Nanoseconds producers spent blocked on a full ring, and the consumer on empty rings.
    private var pushWaitNanos: UInt64 = 0
    private var popWaitNanos: UInt64 = 0

    init(inputs: Int, capacity: Int) {
        self.capacity = capacity
        rings = Array(repeating: Array(repeating: nil, count: capacity), count: inputs)
        heads = Array(repeating: 0, count: inputs)
        counts = Array(repeating: 0, count: inputs)
    }

    /// Appends an item for `input`, waiting while its ring is full. False when cancelled.
    func push(_ item: consuming InboxItem, input: Int) -> Bool {
        monitor.lock()
        if counts[input] == capacity && !cancelled && !closed {
            let t0 = monotonicNanos()
            waitingProducers += 1
            while counts[input] == capacity && !cancelled && !closed { monitor.waitNotFull() }
            waitingProducers -= 1
            pushWaitNanos &+= monotonicNanos() &- t0
        }
        if cancelled { monitor.unlock(); return false }
        if closed { monitor.unlock(); return true }
        rings[input][(heads[input] + counts[input]) % capacity] = consume item
        counts[input] += 1
        if waitingConsumers > 0 { monitor.signalNotEmpty() }
        monitor.unlock()
        return true
    }

    /// Takes the next item, from `preferred` if given (unless another input's ring is full, so a
    /// muxer waiting on one track cannot deadlock a producer blocked on another), else from the
    /// fullest input. Nil when cancelled.
    func pop(preferred: Int?, input: inout Int) -> InboxItem? {
        monitor.lock()
        defer { monitor.unlock() }
        var waited: UInt64 = 0
        while true {
            if cancelled { return nil }
            if let k = choose(preferred) {
                let item = rings[k][heads[k]]!
                rings[k][heads[k]] = nil
                heads[k] = (heads[k] + 1) % capacity
                counts[k] -= 1
                if waitingProducers > 0 && counts[k] <= capacity / 2 { monitor.broadcastNotFull() }
                if waited > 0 { popWaitNanos &+= monotonicNanos() &- waited }
                input = k
                return item
            }
            if waited == 0 { waited = monotonicNanos() }
            // producers held back by the half-drain rule may fill their rings now
            if waitingProducers > 0 { monitor.broadcastNotFull() }
            waitingConsumers += 1
            monitor.waitNotEmpty()
            waitingConsumers -= 1
        }
    }

    private func choose(_ preferred: Int?) -> Int? {
        if let p = preferred, counts[p] > 0 { return p }
        if preferred != nil {
            // only take another input when its producer would otherwise block forever
            return counts.firstIndex(of: capacity)
        }
        var best: Int?
        for k in 0..<counts.count where counts[k] > 0 {
            if best == nil || counts[k] > counts[best!] { best = k }
        }
        return best
    }

    /// Nanoseconds producers spent blocked on a full ring (`push`), and the consumer on empty
    /// rings (`pop`), so far; safe from any thread.
    var waitNanos: (push: UInt64, pop: UInt64) {
        monitor.lock()
        defer { monitor.unlock() }
        return (pushWaitNanos, popWaitNanos)
    }

    /// The consumer wants nothing more: what is queued is dropped, blocked producers wake, later
    /// pushes are dropped (and succeed), and `isClosed` tells producers they may stop.
    func close() {
        monitor.lock()
        closed = true
        for k in 0..<rings.count { for j in 0..<capacity { rings[k][j] = nil }; counts[k] = 0 }
        monitor.broadcastAll()
        monitor.unlock()
    }

    /// Whether `close` was called; safe from any thread.
    var isClosed: Bool {
        monitor.lock()
        defer { monitor.unlock() }
        return closed
    }

    /// Wakes every waiter; pushes and pops fail from now on.
    func cancel() {
        monitor.lock()
        cancelled = true
        for k in 0..<rings.count { for j in 0..<capacity { rings[k][j] = nil } }
        monitor.broadcastAll()
        monitor.unlock()
    }
}
