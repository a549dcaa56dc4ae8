#if canImport(Glibc)
import Glibc
#endif

/// A multi-input node that wants its inputs strictly in the order `preferredInput` names (concat:
/// clip k before clip k+1): the engine waits for that input rather than hand it another input's
/// buffers early, unless a deadlock would follow (`Inbox.pop`). Other nodes (muxers,
/// synchronisers) get another input as soon as its queue is full, which costs them little.
public protocol WaitsForPreferredInput: MediaNode {}

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
    /// Per input: the thread that last pushed to it, the thread blocked on its full ring (one
    /// producer per input), and how many items it has received. With these the consumer sees a
    /// real deadlock (the preferred input's own producer is stuck on another full ring here)
    /// instead of guessing from a full ring.
    private var lastProducer: [pthread_t?]
    private var blockedProducer: [pthread_t?]
    private var pushes: [UInt64]
    /// Items taken from another input than the preferred one (to break a deadlock).
    private var forcedPops = 0
    /// How long the consumer waits on an empty preferred input, while another input's producer is
    /// blocked on a full ring, before it takes from that ring anyway: the preferred producer may be
    /// waiting (through other nodes) on the blocked one, which this queue cannot see. Halves on
    /// each further stall without progress on the preferred input (down to `minimumStall`), so a
    /// real deadlock through other nodes costs little; back to `initialStall` when it progresses.
    static let initialStallNanos: UInt64 = 50_000_000
    static let minimumStallNanos: UInt64 = 2_000_000
    private var stallNanos = Inbox.initialStallNanos

    init(inputs: Int, capacity: Int) {
        self.capacity = capacity
        rings = Array(repeating: Array(repeating: nil, count: capacity), count: inputs)
        heads = Array(repeating: 0, count: inputs)
        counts = Array(repeating: 0, count: inputs)
        lastProducer = Array(repeating: nil, count: inputs)
        blockedProducer = Array(repeating: nil, count: inputs)
        pushes = Array(repeating: 0, count: inputs)
    }

    /// Appends an item for `input`, waiting while its ring is full. False when cancelled.
    func push(_ item: consuming InboxItem, input: Int) -> Bool {
        let me = pthread_self()
        monitor.lock()
        if counts[input] == capacity && !cancelled && !closed {
            let t0 = monotonicNanos()
            waitingProducers += 1
            blockedProducer[input] = me
            // the consumer may be waiting for an input only this thread feeds: let it look again
            if waitingConsumers > 0 { monitor.signalNotEmpty() }
            while counts[input] == capacity && !cancelled && !closed { monitor.waitNotFull() }
            blockedProducer[input] = nil
            waitingProducers -= 1
            pushWaitNanos &+= monotonicNanos() &- t0
        }
        if cancelled { monitor.unlock(); return false }
        if closed { monitor.unlock(); return true }
        rings[input][(heads[input] + counts[input]) % capacity] = consume item
        counts[input] += 1
        pushes[input] &+= 1
        lastProducer[input] = me
        if waitingConsumers > 0 { monitor.signalNotEmpty() }
        monitor.unlock()
        return true
    }

    /// Takes the next item, from `preferred` if given, else from the fullest input. When
    /// `preferred` is empty and not `strict`, it takes from another input whose ring is full (a
    /// muxer waiting on one track cannot deadlock a producer blocked on another). When `strict`
    /// it waits for `preferred`, and takes from another input only to break a deadlock: at once when the preferred input's producer is itself blocked on that input's full
    /// ring (a muxer waiting on one track of a demuxer blocked on the other), or after a stall
    /// with no progress while that input's producer is blocked (a cycle through other nodes).
    /// So a node that wants its inputs in order (concat) is not handed later inputs early.
    /// Nil when cancelled.
    func pop(preferred: Int?, strict: Bool = false, input: inout Int) -> InboxItem? {
        monitor.lock()
        defer { monitor.unlock() }
        var waited: UInt64 = 0
        var stalled = false
        // the stall clock: since when the preferred input has received nothing
        var pushesBefore = preferred.map { pushes[$0] } ?? 0
        var stallStart: UInt64 = 0
        while true {
            if cancelled { return nil }
            if let k = choose(preferred, strict: strict, stalled: stalled) {
                if let p = preferred {
                    if k != p { forcedPops += 1 }
                    if k == p { stallNanos = Self.initialStallNanos } else if stalled { stallNanos = max(Self.minimumStallNanos, stallNanos / 2) }
                }
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
            if strict, let p = preferred, blockedProducer.contains(where: { $0 != nil }) {
                let now = monotonicNanos()
                if stallStart == 0 || pushes[p] != pushesBefore { stallStart = now; pushesBefore = pushes[p] }
                let left = stallNanos &- min(stallNanos, now &- stallStart)
                if left > 0 { monitor.waitNotEmpty(nanos: left) }
                stalled = pushes[p] == pushesBefore && monotonicNanos() &- stallStart >= stallNanos
            } else {
                monitor.waitNotEmpty()
                stalled = false
            }
            waitingConsumers -= 1
        }
    }

    private func choose(_ preferred: Int?, strict: Bool, stalled: Bool) -> Int? {
        if let p = preferred, counts[p] > 0 { return p }
        // only take another input when its producer would otherwise block forever
        if preferred != nil && !strict { return counts.firstIndex(of: capacity) }
        if let p = preferred {
            // the preferred input's producer is stuck on another input's full ring: take from it
            if let t = lastProducer[p],
               let k = blockedProducer.indices.first(where: { k in counts[k] > 0 && blockedProducer[k].map { pthread_equal($0, t) != 0 } == true }) {
                return k
            }
            // no progress for a while and some producer cannot push: it may be what p waits for
            if stalled { return blockedProducer.indices.first { blockedProducer[$0] != nil && counts[$0] > 0 } }
            return nil
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

    /// Items the consumer took from another input than the one it preferred, so far.
    var forcedCount: Int {
        monitor.lock()
        defer { monitor.unlock() }
        return forcedPops
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
