import Synchronization

/// A node while the graph runs: its instance, its output wiring, its queue if it has its own
/// thread, and its counters.
///
/// `@unchecked Sendable` stands for the runner's hand-off of a node to its thread. Its plain
/// mutable state (`instance`, `output`, `inbox`, `ownThread`, `remainingInputs`, `finished`) is set
/// up by the thread that builds the runner, then used during the run only by the one thread that
/// runs the node (its source thread, its queue's thread, or — called inline — the thread of the
/// single node that feeds it: a node fed by several gets a queue), then read again by the caller
/// once `run` has joined every thread. What other threads read while it runs is atomic (the
/// counters) or behind a lock (the param mailbox).
final class RunningNode: @unchecked Sendable {
    let id: String
    let type: String
    let instance: MediaNode
    var output: NodeOutput!
    /// Set when the node runs on its own thread behind a queue.
    var inbox: Inbox?
    /// Whether the node has a thread of its own (a source, or a node behind a queue).
    var ownThread = false
    var remainingInputs: Int
    var finished = false
    /// Counters the progress line and `statistics` read from other threads while the node's
    /// thread counts: atomics, each written by that one thread only.
    let buffersIn = Atomic<Int>(0)
    let sent = Atomic<Int>(0)
    /// Buffers sent on the ports the progress line counts (a source's video ports).
    let progressSent = Atomic<Int>(0)
    /// Video frames received, counted for sinks only: the run's closing "done: N frames".
    let framesIn = Atomic<Int>(0)
    /// Per input, whether `framesIn` counts it (set while wiring; empty for all but sinks).
    var countsFrames: [Bool] = []
    let busyNanos = Atomic<UInt64>(0)
    /// Time spent, while this node's code ran, in nodes it called inline and in waits for a
    /// full queue: taken off its own busy time, so `busyNanos` is the node's own work (what
    /// `--stats` must show to find a bottleneck). Used by this node's thread only.
    var calleeNanos: UInt64 = 0
    /// Live param changes waiting for this node's thread (`GraphRunner.setParam`).
    let mailbox = ParamMailbox()
    /// Those of each member, when the node is a fused one whose members take changes.
    let memberMailboxes: [ParamMailbox]

    init(id: String, type: String, instance: MediaNode, inputs: Int) {
        self.id = id
        self.type = type
        self.instance = instance
        self.remainingInputs = inputs
        memberMailboxes = ((instance as? LiveFusedStagesNode)?.memberIds ?? []).map { _ in ParamMailbox() }
    }

    /// The node's statistics so far (final once the run has ended); safe from any thread.
    var statistics: NodeStatistics {
        var s = NodeStatistics(id: id, type: type)
        s.ownThread = ownThread
        s.buffersIn = buffersIn.load(ordering: .relaxed)
        s.buffersOut = sent.load(ordering: .relaxed)
        s.busyNanos = busyNanos.load(ordering: .relaxed)
        if let waits = inbox?.waitNanos {
            s.inputWaitNanos = waits.pop
            s.queueFullNanos = waits.push
        }
        return s
    }

    /// Runs `process` for one buffer, timing it and naming this node in any error. Returns the
    /// whole time it took, which a node calling it inline counts as its callee's.
    @inline(__always) @discardableResult
    func receive(_ buffer: consuming SampleBuffer, input: Int) throws -> UInt64 {
        buffersIn.add(fromOwner: 1)
        if input < countsFrames.count && countsFrames[input] { framesIn.add(fromOwner: 1) }
        try takeParamChanges()
        let t0 = monotonicNanos(), callees = calleeNanos
        do {
            try instance.process(consume buffer, input: input, output: output)
        } catch {
            throw attributed(error)
        }
        return countBusy(since: t0, callees: callees)
    }

    /// Adds the time since `t0`, less what callees took since `callees` was read, to this node's
    /// busy time; returns the whole time.
    @inline(__always) @discardableResult
    func countBusy(since t0: UInt64, callees: UInt64) -> UInt64 {
        let elapsed = monotonicNanos() &- t0
        busyNanos.add(fromOwner: elapsed &- (calleeNanos &- callees))
        return elapsed
    }

    /// One input ended; when all have, flush the node and pass end-of-stream on.
    func inputEnded(_ input: Int) throws {
        do { try instance.inputEnded(input) } catch { throw attributed(error) }
        remainingInputs -= 1
        if remainingInputs <= 0 { try finish() }
    }

    func finish() throws {
        guard !finished else { return }
        finished = true
        let t0 = monotonicNanos(), callees = calleeNanos
        do {
            try instance.finish(output: output)
        } catch {
            throw attributed(error)
        }
        countBusy(since: t0, callees: callees)
        try output.endOfStream()
    }

    /// The error to report for one that this node's code threw: it names this node, unless it
    /// already names one (thrown by a node downstream, through `output`) or is a cancellation
    /// (which is not a failure). Every call into the node goes through this.
    func attributed(_ error: Error) -> Error {
        if error is GraphRunError || error is RunCancelled { return error }
        return GraphRunError(node: id, type: type, underlying: error)
    }
}
