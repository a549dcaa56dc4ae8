/// A node that can be done before all its inputs have ended: a synchronised node or mixer with
/// `end: first` or `shortest`, a muxer with `end: shortest`. Once `hasEnded`, the engine finishes
/// it and closes its queue, so the nodes feeding it stop instead of it waiting for inputs that
/// may never end (a still image without a duration).
public protocol EndsBeforeItsInputs: MediaNode {
    /// Whether the node has made everything it will make and wants no more input.
    var hasEnded: Bool { get }
    /// Whether the node's stream ends, given whether each input's stream does (in the order
    /// `process` indexes inputs): validation warns of a graph that only Ctrl-C can stop.
    func ends(whenInputsEnd inputsEnd: [Bool]) -> Bool
}

extension SyncEnd {
    /// Whether an output with this policy ends, given whether each input (in input order) does.
    public func outputEnds(whenInputsEnd inputsEnd: [Bool]) -> Bool {
        switch self {
        case .first: return inputsEnd.first ?? true
        case .shortest: return inputsEnd.isEmpty || inputsEnd.contains(true)
        case .longest: return inputsEnd.allSatisfy { $0 }
        }
    }
}

extension ValidatedGraph {
    /// Warnings for sources that never end (`SourceNode.endlessBecause`) when no node after them
    /// ends the run: such a run goes on until it is stopped, which a user who forgot `duration`
    /// (ffmpeg's `-loop 1` without `-shortest`) should hear before waiting.
    func endlessRunWarnings(locations: [String: SourceLocation]) -> [GraphDiagnostic] {
        var ends = Array(repeating: true, count: nodes.count)
        // the endless sources whose streams reach each node without being ended on the way
        var endlessFrom: [Set<Int>] = Array(repeating: [], count: nodes.count)
        for (i, n) in nodes.enumerated() {
            let producers = self.producers(of: i)
            if producers.isEmpty {
                ends[i] = (n.instance as? SourceNode)?.endlessBecause == nil
                if !ends[i] { endlessFrom[i] = [i] }
                continue
            }
            let inputsEnd = producers.map { ends[$0.from] }
            if let early = n.instance as? EndsBeforeItsInputs {
                ends[i] = early.ends(whenInputsEnd: inputsEnd)
            } else if let sync = n.instance as? SynchronizedVideoNode, sync.synchronizesInputs {
                ends[i] = sync.syncPolicy.end.outputEnds(whenInputsEnd: SyncInputOrder.order(of: n.inputNames, in: n.info).map { inputsEnd[$0] })
            } else {
                ends[i] = !inputsEnd.contains(false)
            }
            if !ends[i] { endlessFrom[i] = producers.reduce(into: []) { $0.formUnion(endlessFrom[$1.from]) } }
        }
        let unended = nodes.indices.filter { i in !ends[i] && !connections.contains { $0.from == i } }
        let sources = Set(unended.flatMap { endlessFrom[$0] }).sorted()
        return sources.map { s in
            let source = nodes[s]
            let sinks = unended.filter { endlessFrom[$0].contains(s) }.map { "'\(nodes[$0].id)'" }.joined(separator: ", ")
            let why = (source.instance as? SourceNode)?.endlessBecause ?? "never ends"
            return .warning("node '\(source.id)' (\(source.info.name)) \(why), and nothing between it and \(sinks) ends the run: it goes on until stopped (Ctrl-C). "
                            + "Give it a length, or end the run with a shorter input (\"end\": \"shortest\" on a muxer or a node that combines inputs)",
                            node: source.id, file: spec.file, at: locations[source.id])
        }
    }
}
