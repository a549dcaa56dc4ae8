import Synchronization

/// What each engine thread is blocked on right now, so a queue can tell a real deadlock from a
/// slow producer.
///
/// A node that wants one input next (a synchroniser, concat) while another input's ring is full
/// must not take from that ring just because it is full: a slow main video next to an endless
/// still image would let the image's frames in without limit. It must take from it when waiting
/// would never end: when the producer it waits for is itself blocked, directly or through other
/// threads' waits, on that full ring. Every thread is a lane (the index of the running node that
/// owns it); queues record here when a lane blocks in `push` or `pop` and on what, and follow
/// the chain of waits. A lane not recorded as blocked is working — computing, or reading a slow
/// pipe — and will make progress by itself.
///
/// `Sendable`: all state is behind one `Lock` (a pthread mutex under `make test-sanitize`, which
/// thread sanitizer sees), taken after a queue's own monitor and never before one, so it adds
/// no lock-order cycle.
final class EngineWaits: Sendable {
    enum State {
        case working
        /// Blocked on the full ring of `input` of the queue owned by lane `queue`.
        case pushing(queue: Int, input: Int)
        /// Blocked on the empty queue owned by this lane, waiting for `input`, or for any input
        /// that has not ended when nil.
        case popping(input: Int?)
    }

    private struct Table {
        var states: [State]
        /// Per queue (by owner lane): the lane that feeds each input, and whether that input's
        /// end of stream has been queued.
        var producers: [[Int]]
        var ended: [[Bool]]
    }

    private let table: Lock<Table>

    init(lanes: Int) {
        table = Lock(Table(states: Array(repeating: .working, count: lanes),
                            producers: Array(repeating: [], count: lanes),
                            ended: Array(repeating: [], count: lanes)))
    }

    /// Declares the queue owned by `lane` and the lane feeding each of its inputs.
    func addQueue(owner lane: Int, producers: [Int]) {
        table.withLock {
            $0.producers[lane] = producers
            $0.ended[lane] = Array(repeating: false, count: producers.count)
        }
    }

    func set(_ lane: Int, _ state: State) {
        table.withLock { $0.states[lane] = state }
    }

    /// `input` of the queue owned by `lane` has had its end of stream queued.
    func ended(queue lane: Int, input: Int) {
        table.withLock { $0.ended[lane][input] = true }
    }

    /// The producer lane of `input` of the queue owned by `queue`.
    func producer(queue: Int, input: Int) -> Int {
        table.withLock { $0.producers[queue][input] }
    }

    /// Where a wait for `lane` leads, seen from the queue owned by `queue`.
    enum Outcome: Equatable {
        /// `lane` is blocked, directly or through a chain of blocked lanes, on the full ring of
        /// this input of the queue: it waits for the queue's consumer, which waits for it.
        case blockedOn(Int)
        /// The chain reaches a lane that is working: waiting will end.
        case progresses
        /// The chain loops elsewhere or is too long to follow.
        case unknown
    }

    /// Where the wait for `lane` leads, seen from the consumer of the queue owned by `queue`.
    func blockingInput(of queue: Int, waitedForBy lane: Int) -> Outcome {
        table.withLock { t in
            var budget = Self.followBudget
            return Self.follow(lane, to: queue, in: t, depth: t.states.count, budget: &budget)
        }
    }

    /// Most steps one look takes (graphs where many lanes wait for any of many inputs).
    static let followBudget = 10_000

    private static func follow(_ lane: Int, to queue: Int, in t: Table, depth: Int, budget: inout Int) -> Outcome {
        budget -= 1
        guard depth > 0, budget > 0 else { return .unknown }
        switch t.states[lane] {
        case .working:
            return .progresses
        case .pushing(let q, let input):
            // the lane waits for q's owner to drain q
            return q == queue ? .blockedOn(input) : follow(q, to: queue, in: t, depth: depth - 1, budget: &budget)
        case .popping(let input?):
            return follow(t.producers[lane][input], to: queue, in: t, depth: depth - 1, budget: &budget)
        case .popping(nil):
            // waits for any live input: blocked for good only when every one of them is
            var blocked: Int?
            var unknown = false
            for (k, p) in t.producers[lane].enumerated() where !t.ended[lane][k] {
                switch follow(p, to: queue, in: t, depth: depth - 1, budget: &budget) {
                case .progresses: return .progresses
                case .blockedOn(let i): blocked = blocked ?? i
                case .unknown: unknown = true
                }
            }
            if unknown { return .unknown }
            return blocked.map { .blockedOn($0) } ?? .unknown
        }
    }
}
