/// The engine's side of a `SynchronizedVideoNode`: what the scheduler calls (`process` per
/// buffer, `inputEnded`, `finish`, `preferredInput`), turned into one `process(synced:output:)`
/// per output time by a `VideoSynchronizer`. `GraphRunner` puts one in front of every such node.
final class SynchronizedVideoAdapter: EndsBeforeItsInputs, WaitsForPreferredInput {
    let node: SynchronizedVideoNode
    let synchronizer: VideoSynchronizer
    /// Engine input index → input order, and back.
    private let toOrder: [Int]
    private let toEngine: [Int]
    /// The node's output, set when the engine wires the graph (inputEnded has none to pass).
    var output: NodeOutput?

    /// The instance the engine runs for graph node `n`: an adapter for a synchronised node, the
    /// node itself otherwise (or when its inputs are not all raw video: configure refused those).
    static func engineInstance(for n: ValidatedGraph.Node) -> MediaNode {
        guard let node = n.instance as? SynchronizedVideoNode, node.synchronizesInputs else { return n.instance }
        let order = SyncInputOrder.order(of: n.inputNames, in: n.info)
        let formats = order.compactMap { n.inputFormats[$0].video }
        guard formats.count == order.count,
              let sync = try? VideoSynchronizer(formats: formats, names: order.map { n.inputNames[$0] }, policy: node.syncPolicy)
        else { return FailingNode(node: node, inputFormats: n.inputFormats, inputNames: n.inputNames) }
        return SynchronizedVideoAdapter(node: node, synchronizer: sync, order: order)
    }

    init(node: SynchronizedVideoNode, synchronizer: VideoSynchronizer, order: [Int]) {
        self.node = node
        self.synchronizer = synchronizer
        toEngine = order
        var inverse = Array(repeating: 0, count: order.count)
        for (position, engine) in order.enumerated() { inverse[engine] = position }
        toOrder = inverse
    }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { try node.configure(inputs: inputs) }
    func start() throws { try node.start() }
    func abort() { node.abort() }
    var validationWarnings: [String] { node.validationWarnings }
    var runWarnings: [String] { node.runWarnings }
    var runNotes: [String] { node.runNotes }

    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let node = self.node
        try synchronizer.add(consume buffer, input: toOrder[input]) { try node.process(synced: $0, output: output) }
    }

    func inputEnded(_ input: Int) throws {
        guard let output else { return }
        let node = self.node
        try synchronizer.end(input: toOrder[input]) { try node.process(synced: $0, output: output) }
        try node.inputEnded(input)
    }

    func finish(output: NodeOutput) throws {
        let node = self.node
        try synchronizer.finish { try node.process(synced: $0, output: output) }
        try node.finish(output: output)
    }

    func preferredInput() -> Int? { synchronizer.preferredInput().map { toEngine[$0] } }

    var hasEnded: Bool { synchronizer.isFinished }
    func ends(whenInputsEnd inputsEnd: [Bool]) -> Bool {
        node.syncPolicy.end.outputEnds(whenInputsEnd: toEngine.map { inputsEnd[$0] })
    }
}

/// Stands in for a synchronised node whose inputs the synchroniser cannot take (validation
/// normally refuses such a graph first): fails on the first buffer with the reason.
private final class FailingNode: MediaNode {
    let node: MediaNode
    let reason: String

    init(node: MediaNode, inputFormats: [MediaFormat], inputNames: [String]) {
        self.node = node
        let inputs = zip(inputNames, inputFormats).map { "\($0) \($1)" }.joined(separator: ", ")
        var why = "takes raw video on every input"
        if inputFormats.allSatisfy({ $0.video != nil }), let n = node as? SynchronizedVideoNode {
            do { _ = try VideoSynchronizer(formats: inputFormats.compactMap(\.video), names: inputNames, policy: n.syncPolicy) } catch { why = "\(error)" }
        }
        reason = "\(why) (inputs: \(inputs))"
    }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { try node.configure(inputs: inputs) }
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws { throw NodeFailure(reason) }
    func finish(output: NodeOutput) throws { throw NodeFailure(reason) }
    func abort() { node.abort() }
}
