import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
///
/// `Sendable`: `progress`, `statistics` and `setParam` may be called from any thread while `run`
/// runs on another (the progress line's timer, a controller). The nodes themselves go to their
/// threads through `RunningNode`; everything shared is immutable, atomic or locked.
public final class GraphRunner: Sendable {
    public struct Options: Sendable {
        /// Buffers each input queue holds before its producer blocks.
        public var queueCapacity: Int = 4
        /// Put every node behind its own queue and thread (for measuring the cost of a boundary).
        public var threadPerNode: Bool = false
        public init() {}
    }

    /// What a live param change is checked against: a node of the graph as it was built.
    struct NodeDeclaration: Sendable {
        var id: String
        var info: NodeTypeInfo
        var params: ParamValues
        /// Whether the instance takes live changes (`LiveParamsNode`).
        var acceptsChanges: Bool
        /// For a member of a fused node: that node's index in `running` and the member's index.
        var fusedInto: (node: Int, member: Int)? = nil
    }

    public let stop: StopFlag
    let options: Options
    let running: [RunningNode]
    let declarations: [NodeDeclaration]
    private let failure = Lock<Error?>(nil)
    /// Set once `failure` holds an error: what the sources read per buffer (no lock).
    private let hasFailed = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    /// The sources whose counts the progress line shows, and how many buffers they expect to send.
    private let progressSources: [RunningNode]
    private let progressTotal: Int?
    /// The sinks, whose video frames received the closing summary reports.
    private let sinks: [RunningNode]

    /// Wires `graph` for running: threads and queues decided, outputs connected. The graph's
    /// node instances belong to the runner from now on.
    public init(graph: ValidatedGraph, stop: StopFlag = StopFlag(), options: Options = Options()) {
        self.stop = stop
        self.options = options
        let running = Self.wire(graph, options)
        self.running = running
        declarations = graph.nodes.map {
            NodeDeclaration(id: $0.id, info: $0.info, params: $0.params, acceptsChanges: $0.instance is LiveParamsNode)
        } + graph.nodes.indices.flatMap { i in
            ((graph.nodes[i].instance as? LiveFusedStagesNode)?.memberDeclarations ?? []).enumerated().map { k, m in
                NodeDeclaration(id: m.id, info: m.info, params: m.params, acceptsChanges: m.live, fusedInto: (i, k))
            }
        }
        // Progress: what the sources send on their connected video ports (every connected port
        // when none sends video), against what they declare; a source with audio and video (a
        // file) counts its frames, not its packets, and several (concat's clips) add up.
        let sources = graph.nodes.indices.filter { graph.nodes[$0].instance is SourceNode }
        func connected(_ i: Int) -> [Int] { graph.nodes[i].outputFormats.indices.filter { running[i].output.isConnected($0) } }
        let anyVideo = sources.contains { i in connected(i).contains { graph.nodes[i].outputFormats[$0].isVideo } }
        var counted: [RunningNode] = []
        var total: Int? = 0
        for i in sources {
            let ports = connected(i).filter { !anyVideo || graph.nodes[i].outputFormats[$0].isVideo }
            guard !ports.isEmpty else { continue }
            running[i].output.progressPorts = graph.nodes[i].outputFormats.indices.map(ports.contains)
            counted.append(running[i])
            let expected = (graph.nodes[i].instance as? SourceNode)?.expectedCount(onPorts: ports)
            total = total.flatMap { t in expected.map { t + $0 } }
        }
        progressSources = counted
        progressTotal = counted.isEmpty ? nil : total
        let sinkIndices = graph.nodes.indices.filter { graph.nodes[$0].outputFormats.isEmpty && !graph.nodes[$0].inputFormats.isEmpty }
        for i in sinkIndices { running[i].countsFrames = graph.nodes[i].inputFormats.map(\.isVideo) }
        sinks = sinkIndices.map { running[$0] }
    }

    /// Which nodes got their own thread, for `validate` and `dot`.
    public var ownThreadNodes: Set<String> { Set(running.filter(\.ownThread).map(\.id)) }

    private static func wire(_ graph: ValidatedGraph, _ options: Options) -> [RunningNode] {
        // a synchronised node runs behind the engine's synchroniser (Sync/SynchronizedVideoAdapter)
        let running = graph.nodes.map { RunningNode(id: $0.id, type: $0.info.name, instance: SynchronizedVideoAdapter.engineInstance(for: $0), inputs: $0.inputNames.count) }
        for r in running where r.instance is SourceNode { r.ownThread = true }
        for (i, r) in running.enumerated() { r.output = NodeOutput(owner: r, ports: graph.nodes[i].outputFormats.count) }
        for r in running { (r.instance as? SynchronizedVideoAdapter)?.output = r.output }
        let waits = EngineWaits(lanes: running.count)
        for (i, n) in graph.nodes.enumerated() {
            let producers = graph.producers(of: i)
            let fannedOut = producers.contains { graph.consumers(of: $0.from, port: $0.fromPort).count > 1 }
            let needsQueue = !producers.isEmpty && (options.threadPerNode || n.info.threading == .ownThread || producers.count > 1 || fannedOut)
                && (options.threadPerNode || !storesPacketsOfOneSource(i, in: graph, running: running))
            if needsQueue {
                running[i].inbox = Inbox(inputs: producers.count, capacity: max(1, options.queueCapacity), owner: i, waits: waits)
                running[i].ownThread = true
            }
        }
        // the lane (own thread) that pushes into each queued input: a node without a thread runs on
        // the thread of its one producer
        func lane(_ n: Int) -> Int {
            var n = n
            while !running[n].ownThread, let up = graph.producers(of: n).first { n = up.from }
            return n
        }
        for (i, r) in running.enumerated() where r.inbox != nil {
            waits.addQueue(owner: i, producers: graph.producers(of: i).map { lane($0.from) })
        }
        for c in graph.connections {
            let target = running[c.to]
            let link: NodeOutput.Link = target.inbox.map { .queued($0, input: c.toInput) } ?? .inline(target, input: c.toInput)
            running[c.from].output.links[c.fromPort].append(link)
            running[c.from].output.copyingLinks[c.fromPort].append(graph.isStreamCopy(c))
        }
        return running
    }

    /// Frames the sources have sent so far (on their video ports; buffers on every port of a
    /// graph without video), and how many they will send if all of them know. Safe from any
    /// thread while the graph runs.
    public var progress: (done: Int, total: Int?) {
        (progressSources.reduce(0) { $0 + $1.progressSent.load(ordering: .relaxed) }, progressTotal)
    }

    /// The most video frames any sink received (an encoder's packets into a muxer count as
    /// frames); nil when no sink takes video. What `run` reports when it ends.
    public var framesDelivered: Int? {
        let counting = sinks.filter { $0.countsFrames.contains(true) }
        return counting.isEmpty ? nil : counting.map { $0.framesIn.load(ordering: .relaxed) }.max()
    }

    /// Per-node statistics: so far while the graph runs (safe from any thread), complete once
    /// `run` has returned.
    public var statistics: [NodeStatistics] { running.map(\.statistics) }

    /// What the nodes reported while running without stopping the graph, each prefixed with its
    /// node. Read it once `run` has returned (the nodes' own state, not shared while they run).
    public var runWarnings: [String] {
        running.flatMap { r in r.instance.runWarnings.map { "node '\(r.id)' (\(r.type)): \($0)" } }
    }

    /// The nodes' notes on the run (`MediaNode.runNotes`), prefixed like `runWarnings`.
    public var runNotes: [String] {
        running.flatMap { r in r.instance.runNotes.map { "node '\(r.id)' (\(r.type)): \($0)" } }
    }

    /// Runs the graph to the end (or to the first error, or until `stop` is set and everything in
    /// flight has drained). Throws `GraphRunError` naming the node that failed. A runner runs
    /// once: build another from a new instantiation to run the graph again.
    public func run() throws {
        guard !started.exchange(true, ordering: .relaxed) else { throw RunnerAlreadyRan() }
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
        var threads: [pthread_t] = []
        for r in running {
            let body: (@Sendable () -> Void)?
            if r.instance is SourceNode {
                body = { self.runSource(r) }
            } else if r.inbox != nil {
                body = { self.runQueued(r) }
            } else {
                body = nil
            }
            guard let body else { continue }
            do { threads.append(try EngineThread.start(name: r.id, body)) } catch {
                // the threads already started see the failure and end
                record(GraphRunError(node: r.id, type: r.type, underlying: error))
                break
            }
        }
        for t in threads { EngineThread.join(t) }
        if let e = failure.withLock({ $0 }) {
            for r in running { r.instance.abort() }
            throw e
        }
    }

    private var failed: Bool { hasFailed.load(ordering: .acquiring) }

    private func record(_ error: Error) {
        let first = failure.withLock { f -> Bool in
            if f == nil { f = error; return true }
            return false
        }
        if first { hasFailed.store(true, ordering: .releasing) }
        if first { for r in running { r.inbox?.cancel() } }
    }

    private func runSource(_ r: RunningNode) {
        guard let source = r.instance as? SourceNode else { return }
        do {
            let closing = r.output.closingQueues()
            while !stop.isSet && !failed && !(closing?.allSatisfy(\.isClosed) ?? false) {
                let t0 = monotonicNanos(), callees = r.calleeNanos
                let more: Bool
                do {
                    more = try source.produce(output: r.output)
                } catch {
                    throw r.attributed(error)
                }
                r.countBusy(since: t0, callees: callees)
                if !more { break }
            }
            if !failed { try r.finish() }
        } catch is RunCancelled {
        } catch {
            record(error)
        }
    }

    /// A node that has ended before its inputs (`EndsBeforeItsInputs`: `end: first` or
    /// `shortest`), or whose consumers have all closed their queues, finishes now and closes its
    /// own queue, so its producers stop too rather than feed inputs that may never end.
    private func finishedEarly(_ r: RunningNode, _ inbox: Inbox, _ early: EndsBeforeItsInputs?, consumers: [Inbox]?) throws -> Bool {
        guard early?.hasEnded == true || consumers?.allSatisfy(\.isClosed) == true else { return false }
        inbox.close()
        try r.finish()
        return true
    }

    private func runQueued(_ r: RunningNode) {
        guard let inbox = r.inbox else { return }
        var ended = Array(repeating: false, count: r.remainingInputs)
        do {
            var input = 0
            let strict = (r.instance as? WaitsForPreferredInput)?.waitsForPreferredInput ?? false
            let early = r.instance as? EndsBeforeItsInputs, consumers = r.output.closingQueues()
            while let item = inbox.pop(preferred: r.instance.preferredInput().flatMap { ended.indices.contains($0) && !ended[$0] ? $0 : nil },
                                       strict: strict, input: &input) {
                switch consume item {
                case .buffer(let b):
                    try r.receive(consume b, input: input)
                    if try finishedEarly(r, inbox, early, consumers: consumers) { return }
                case .endOfStream:
                    ended[input] = true
                    try r.inputEnded(input)
                    if r.finished { return }
                    if try finishedEarly(r, inbox, early, consumers: consumers) { return }
                }
            }
        } catch is RunCancelled {
        } catch {
            record(error)
        }
    }
}

/// `GraphRunner.run` called a second time: the nodes have finished and cannot run again.
public struct RunnerAlreadyRan: Error, CustomStringConvertible {
    public var description: String {
        "this GraphRunner has already run; instantiate the graph again (GraphPlan.instantiate) and run a new GraphRunner"
    }
}
