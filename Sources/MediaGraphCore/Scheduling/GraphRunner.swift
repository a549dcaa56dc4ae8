import Foundation
import Synchronization

/// Runs a validated graph: pipeline parallelism across threads that meet at bounded queues, data
/// flowing by direct calls within a thread.
///
/// Thread boundaries are the engine's decision: every source has a thread; a queue and a thread
/// go in front of each node declared `.ownThread` (encoders, sinks, muxers), each node with
/// several inputs, and each branch of a fan-out. A stretch of cheap filters runs on the thread of
/// whatever feeds it, called in turn. End of stream flows through the queues as a marker. The
/// first error stops the graph: every queue is cancelled, every node is told (`abort`), and
/// `run` throws that error with its node.
public final class GraphRunner {
    public struct Options: Sendable {
        /// Buffers each input queue holds before its producer blocks.
        public var queueCapacity: Int = 4
        /// Put every node behind its own queue and thread (for measuring the cost of a boundary).
        public var threadPerNode: Bool = false
        public init() {}
    }

    public let graph: ValidatedGraph
    public let stop: StopFlag
    let options: Options
    private(set) var running: [RunningNode] = []
    private let failure = Lock<Error?>(nil)
    private var progressSource: RunningNode?

    public init(graph: ValidatedGraph, stop: StopFlag = StopFlag(), options: Options = Options()) {
        self.graph = graph
        self.stop = stop
        self.options = options
        wire()
    }

    /// Which nodes got their own thread, for `validate` and `dot`.
    public var ownThreadNodes: Set<String> { Set(running.filter { $0.inbox != nil || $0.instance is SourceNode }.map(\.id)) }

    private func wire() {
        running = graph.nodes.map { RunningNode(id: $0.id, type: $0.info.name, instance: $0.instance, inputs: $0.inputNames.count) }
        for r in running where r.instance is SourceNode { r.stats.ownThread = true }
        for (i, r) in running.enumerated() { r.output = NodeOutput(owner: r, ports: graph.nodes[i].outputFormats.count) }
        for (i, n) in graph.nodes.enumerated() {
            let producers = graph.producers(of: i)
            let fannedOut = producers.contains { graph.consumers(of: $0.from, port: $0.fromPort).count > 1 }
            let needsQueue = !producers.isEmpty && (options.threadPerNode || n.info.threading == .ownThread || producers.count > 1 || fannedOut)
                && (options.threadPerNode || !storesPacketsOfOneSource(i))
            if needsQueue {
                running[i].inbox = Inbox(inputs: producers.count, capacity: max(1, options.queueCapacity))
                running[i].stats.ownThread = true
            }
        }
        for c in graph.connections {
            let target = running[c.to]
            let link: NodeOutput.Link = target.inbox.map { .queued($0, input: c.toInput) } ?? .inline(target, input: c.toInput)
            running[c.from].output.links[c.fromPort].append(link)
        }
        progressSource = running.first { r in
            guard let s = r.instance as? SourceNode, s.expectedCount != nil else { return false }
            return graph.nodes.first { $0.id == r.id }?.outputFormats.first.map { if case .video = $0 { return true }; return false } ?? false
        } ?? running.first { $0.instance is SourceNode }
    }

    /// Buffers produced so far by the main source, and how many it will produce if known.
    public var progress: (done: Int, total: Int?) {
        guard let s = progressSource else { return (0, nil) }
        return (s.sent.load(ordering: .relaxed), (s.instance as? SourceNode)?.expectedCount)
    }

    /// Per-node statistics (complete once `run` has returned).
    public var statistics: [NodeStatistics] {
        running.map { r in
            var s = r.stats
            s.buffersOut = r.sent.load(ordering: .relaxed)
            if let inbox = r.inbox {
                s.inputWaitNanos = inbox.popWaitNanos
                s.queueFullNanos = inbox.pushWaitNanos
            }
            return s
        }
    }

    /// What the nodes reported while running without stopping the graph, each prefixed with its
    /// node (complete once `run` has returned).
    public var runWarnings: [String] {
        running.flatMap { r in r.instance.runWarnings.map { "node '\(r.id)' (\(r.type)): \($0)" } }
    }

    /// Runs the graph to the end (or to the first error, or until `stop` is set and everything in
    /// flight has drained). Throws `GraphRunError` naming the node that failed.
    public func run() throws {
        for r in running {
            do { try r.instance.start() } catch {
                record(r.attributed(error))
                break
            }
        }
        if let e = failure.withLock({ $0 }) {
            for r in running { r.instance.abort() }
            throw e
        }
        let group = DispatchGroup()
        for r in running {
            if r.instance is SourceNode {
                spawn(group, name: r.id) { self.runSource(r) }
            } else if r.inbox != nil {
                spawn(group, name: r.id) { self.runQueued(r) }
            }
        }
        group.wait()
        if let e = failure.withLock({ $0 }) {
            for r in running { r.instance.abort() }
            throw e
        }
    }

    private func spawn(_ group: DispatchGroup, name: String, _ body: @escaping () -> Void) {
        group.enter()
        let t = Thread {
            body()
            group.leave()
        }
        t.name = "mg-" + name
        t.stackSize = 8 << 20
        t.start()
    }

    private var failed: Bool { failure.withLock { $0 != nil } }

    private func record(_ error: Error) {
        let first = failure.withLock { f -> Bool in
            if f == nil { f = error; return true }
            return false
        }
        if first { for r in running { r.inbox?.cancel() } }
    }

    private func runSource(_ r: RunningNode) {
        guard let source = r.instance as? SourceNode else { return }
        do {
            while !stop.isSet && !failed {
                let t0 = monotonicNanos()
                let more: Bool
                do {
                    more = try source.produce(output: r.output)
                } catch {
                    throw r.attributed(error)
                }
                r.stats.busyNanos &+= monotonicNanos() &- t0
                if !more { break }
            }
            if !failed { try r.finish() }
        } catch is RunCancelled {
        } catch {
            record(error)
        }
    }

    private func runQueued(_ r: RunningNode) {
        guard let inbox = r.inbox else { return }
        var ended = Array(repeating: false, count: r.remainingInputs)
        do {
            var input = 0
            while let item = inbox.pop(preferred: r.instance.preferredInput().flatMap { ended.indices.contains($0) && !ended[$0] ? $0 : nil },
                                       input: &input) {
                switch consume item {
                case .buffer(let b):
                    try r.receive(consume b, input: input)
                case .endOfStream:
                    ended[input] = true
                    try r.inputEnded(input)
                    if r.finished { return }
                }
            }
        } catch is RunCancelled {
        } catch {
            record(error)
        }
    }
}
