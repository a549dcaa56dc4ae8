import Synchronization

/// A node while the graph runs: its instance, its output wiring, its queue if it has its own
/// thread, and its statistics.
final class RunningNode {
    let id: String
    let type: String
    let instance: MediaNode
    var output: NodeOutput!
    /// Set when the node runs on its own thread behind a queue.
    var inbox: Inbox?
    var remainingInputs: Int
    var stats: NodeStatistics
    /// Buffers sent so far: an atomic, because the progress line reads it from a timer thread
    /// while the node's thread counts (`stats.buffersOut` is filled from it after the run).
    let sent = Atomic<Int>(0)
    var finished = false
    /// Live param changes waiting for this node's thread (`GraphRunner.setParam`).
    let mailbox = ParamMailbox()

    init(id: String, type: String, instance: MediaNode, inputs: Int) {
        self.id = id
        self.type = type
        self.instance = instance
        self.remainingInputs = inputs
        self.stats = NodeStatistics(id: id, type: type)
    }

    /// Runs `process` for one buffer, timing it and naming this node in any error.
    @inline(__always)
    func receive(_ buffer: consuming SampleBuffer, input: Int) throws {
        stats.buffersIn &+= 1
        try takeParamChanges()
        let t0 = monotonicNanos()
        do {
            try instance.process(consume buffer, input: input, output: output)
        } catch {
            throw attributed(error)
        }
        stats.busyNanos &+= monotonicNanos() &- t0
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
        let t0 = monotonicNanos()
        do {
            try instance.finish(output: output)
        } catch {
            throw attributed(error)
        }
        stats.busyNanos &+= monotonicNanos() &- t0
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
