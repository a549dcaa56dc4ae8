#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A multi-input node that wants its inputs in the order `preferredInput` names: concat (clip k
/// before clip k+1) and the synchronising nodes (the input that is behind in time). The engine
/// waits for that input rather than hand it another input's buffers early, unless waiting would
/// never end (`Inbox.pop`). Other nodes (muxers, unless one ends with its shortest input) get
/// another input as soon as its queue is full, which costs them little.
public protocol WaitsForPreferredInput: MediaNode {
    /// Whether it waits now (fixed once configured); true unless the node says otherwise.
    var waitsForPreferredInput: Bool { get }
}

extension WaitsForPreferredInput {
    public var waitsForPreferredInput: Bool { true }
}

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
    private let monitor: Monitor
    private var rings: [[InboxItem?]]
    private var heads: [Int]
    private var counts: [Int]
    private let capacity: Int
    private var cancelled = false
    /// Set when the node wants nothing more (`EndsBeforeItsInputs`, or all its consumers closed): pushes
    /// are dropped, so producers see `isClosed` and stop instead of blocking.
    private var closed = false
    /// `closed`, readable without the lock: producers look at it once per buffer.
    private let closedFlag = Atomic<Bool>(false)
    /// Threads blocked in pop / push: signals are sent only when someone waits, and producers
    /// are woken only once a ring has drained to half, so small buffers do not cost a context
    /// switch each; each input's producers wait on a condition of their own (`Monitor`).
    private var waitingConsumers = 0
    private var waitingProducers = 0
    /// Nanoseconds producers spent blocked on a full ring, and the consumer on empty rings.
    private var pushWaitNanos: UInt64 = 0
    private var popWaitNanos: UInt64 = 0
    /// The lane (running node) that consumes this queue, and where every lane records what it is
    /// blocked on, so the consumer sees a real deadlock instead of guessing from a full ring.
    private let owner: Int
    private let waits: EngineWaits
    /// Per input: whether its producer is blocked on its full ring, and items it has received.
    private var producerBlocked: [Bool]
    private var pushes: [UInt64]
    /// Items taken from another input than the preferred one (to break a deadlock).
    private var forcedPops = 0
    /// How often a consumer waiting on its preferred input looks again whether the wait has
    /// become a deadlock (a chain of blocked lanes ending at one of its full rings; the last lane
    /// to block may be far away and cannot signal it): from the first to the last, doubling.
    static let firstLookNanos: UInt64 = 1_000_000
    static let lastLookNanos: UInt64 = 32_000_000
    /// When the chain of waits cannot be followed to its end (it loops elsewhere), a consumer
    /// that has seen no progress on its preferred input for this long takes from a blocked ring.
    static let unknownStallNanos: UInt64 = 1_000_000_000

    init(inputs: Int, capacity: Int, owner: Int, waits: EngineWaits) {
        self.capacity = capacity
        self.owner = owner
        self.waits = waits
        monitor = Monitor(notFullConditions: inputs)
        rings = Array(repeating: Array(repeating: nil, count: capacity), count: inputs)
        heads = Array(repeating: 0, count: inputs)
        counts = Array(repeating: 0, count: inputs)
        producerBlocked = Array(repeating: false, count: inputs)
        pushes = Array(repeating: 0, count: inputs)
    }

    /// Appends an item for `input`, waiting while its ring is full. False when cancelled.
    func push(_ item: consuming InboxItem, input: Int) -> Bool {
        var waited: UInt64 = 0
        return push(item, input: input, waited: &waited)
    }

    /// `push`, adding to `waited` the nanoseconds it waited for room (0 when there was room).
    func push(_ item: consuming InboxItem, input: Int, waited: inout UInt64) -> Bool {
        monitor.lock()
        if counts[input] == capacity && !cancelled && !closed {
            let t0 = monotonicNanos()
            waitingProducers += 1
            producerBlocked[input] = true
            let lane = waits.producer(queue: owner, input: input)
            waits.set(lane, .pushing(queue: owner, input: input))
            // the consumer may be waiting for an input only this thread feeds: let it look again
            if waitingConsumers > 0 { monitor.signalNotEmpty() }
            while counts[input] == capacity && !cancelled && !closed { monitor.waitNotFull(input) }
            waits.set(lane, .working)
            producerBlocked[input] = false
            waitingProducers -= 1
            let wait = monotonicNanos() &- t0
            pushWaitNanos &+= wait
            waited &+= wait
        }
        if cancelled { monitor.unlock(); return false }
        if closed { monitor.unlock(); return true }
        if case .endOfStream = item { waits.ended(queue: owner, input: input) }
        rings[input][(heads[input] + counts[input]) % capacity] = consume item
        counts[input] += 1
        pushes[input] &+= 1
        if waitingConsumers > 0 { monitor.signalNotEmpty() }
        monitor.unlock()
        return true
    }

    /// Takes the next item, from `preferred` if given, else from the fullest input. When
    /// `preferred` is empty and not `strict`, it takes from another input whose ring is full (a
    /// muxer waiting on one track cannot deadlock a producer blocked on another). When `strict`
    /// it waits for `preferred`, and takes from another input only when that wait would never
    /// end: the preferred input's producer is blocked, directly or through a chain of blocked
    /// lanes (`EngineWaits`), on that input's full ring (two branches of one source, a muxer's
    /// tracks from one demuxer). A producer that is merely slow is waited for, so a node that
    /// wants its inputs in order (concat, a synchroniser behind on its main input) is not handed
    /// later buffers without limit. Nil when cancelled.
    func pop(preferred: Int?, strict: Bool = false, input: inout Int) -> InboxItem? {
        monitor.lock()
        defer { monitor.unlock() }
        var waited: UInt64 = 0
        var look = Self.firstLookNanos
        // since when the preferred input has received nothing, for a chain that cannot be followed
        var pushesBefore = preferred.map { pushes[$0] } ?? 0
        var stallStart: UInt64 = 0
        while true {
            if cancelled { return nil }
            var stalled = false
            if strict, let p = preferred, counts[p] == 0, stallStart != 0 {
                stalled = pushes[p] == pushesBefore && monotonicNanos() &- stallStart >= Self.unknownStallNanos
            }
            if let k = choose(preferred, strict: strict, stalled: stalled) {
                if let p = preferred, k != p { forcedPops += 1 }
                let item = rings[k][heads[k]]!
                rings[k][heads[k]] = nil
                heads[k] = (heads[k] + 1) % capacity
                counts[k] -= 1
                if waitingProducers > 0 && counts[k] <= capacity / 2 { monitor.broadcastNotFull(k) }
                if waited > 0 { popWaitNanos &+= monotonicNanos() &- waited }
                input = k
                return item
            }
            if waited == 0 { waited = monotonicNanos() }
            // producers held back by the half-drain rule may fill their rings now
            if waitingProducers > 0 {
                for k in counts.indices where counts[k] < capacity { monitor.broadcastNotFull(k) }
            }
            waitingConsumers += 1
            waits.set(owner, .popping(input: strict ? preferred : nil))
            if strict, let p = preferred, producerBlocked.contains(true) {
                // a deadlock may form without anyone here being signalled: look again soon
                if stallStart == 0 || pushes[p] != pushesBefore { stallStart = monotonicNanos(); pushesBefore = pushes[p] }
                monitor.waitNotEmpty(nanos: look)
                look = min(Self.lastLookNanos, look * 2)
            } else {
                monitor.waitNotEmpty()
                look = Self.firstLookNanos
            }
            waits.set(owner, .working)
            waitingConsumers -= 1
        }
    }

    private func choose(_ preferred: Int?, strict: Bool, stalled: Bool) -> Int? {
        if let p = preferred, counts[p] > 0 { return p }
        // only take another input when its producer would otherwise block forever
        if preferred != nil && !strict { return counts.firstIndex(of: capacity) }
        if let p = preferred {
            guard producerBlocked.contains(true) else { return nil }
            switch waits.blockingInput(of: owner, waitedForBy: waits.producer(queue: owner, input: p)) {
            case .blockedOn(let k) where counts[k] > 0:
                return k
            case .unknown where stalled:
                return producerBlocked.indices.first { producerBlocked[$0] && counts[$0] > 0 }
            default:
                return nil
            }
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
        closedFlag.store(true, ordering: .releasing)
        for k in 0..<rings.count { for j in 0..<capacity { rings[k][j] = nil }; counts[k] = 0 }
        monitor.broadcastAll()
        monitor.unlock()
    }

    /// Whether `close` was called; safe from any thread.
    var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

    /// Wakes every waiter; pushes and pops fail from now on.
    func cancel() {
        monitor.lock()
        cancelled = true
        for k in 0..<rings.count { for j in 0..<capacity { rings[k][j] = nil } }
        monitor.broadcastAll()
        monitor.unlock()
    }
}
