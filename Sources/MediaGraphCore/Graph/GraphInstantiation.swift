/// What a graph is instantiated for.
public enum GraphPurpose: Sendable {
    /// To run: a source whose input can be read only once (`OnceReadableInput`, standard
    /// input) reads its header now, so the formats it negotiates are the real ones.
    case run
    /// To show (`validate`, `dot`): such a source leaves its input unread and negotiates with a
    /// provisional format; the graph must not be run.
    case inspect
}

extension GraphPlan {
    /// Creates the plan's nodes and negotiates formats, in the plan's order: each node is
    /// configured with the formats arriving on its inputs, after adapters are inserted where an
    /// output and an input do not meet. Each call gives a new graph; nothing is shared between
    /// two, so one plan can run several times. Throws `GraphValidationError` with every problem
    /// found (a stream a port reference does not name, formats that cannot meet, a node that
    /// refuses its formats), with the plan's warnings.
    public func instantiate(stop: StopFlag = StopFlag(), for purpose: GraphPurpose = .run) throws -> ValidatedGraph {
        var builder = GraphInstantiation(plan: self, stop: stop, purpose: purpose)
        for n in order { builder.instantiateNode(n) }
        if !builder.problems.contains(where: { $0.severity == .error }) { builder.fuseStages() }
        if builder.problems.contains(where: { $0.severity == .error }) { throw GraphValidationError(builder.problems + warnings) }
        let locations = Dictionary(nodes.compactMap { n in n.location.map { (n.id, $0) } }, uniquingKeysWith: { a, _ in a })
        builder.graph.warnings += builder.graph.endlessRunWarnings(locations: locations)
        builder.graph.notes += builder.graph.interlacedFrameNotes()
        return builder.graph
    }
}

/// The state of one instantiation: the graph so far, which plan node became which graph node,
/// the adapters already inserted, the problems found.
struct GraphInstantiation {
    let plan: GraphPlan
    let stop: StopFlag
    let purpose: GraphPurpose
    let graph: ValidatedGraph
    var problems: [GraphDiagnostic] = []
    /// Plan node index → graph node index, for the nodes created so far.
    var built: [Int: Int] = [:]
    var adapterCache = AdapterCache()

    init(plan: GraphPlan, stop: StopFlag, purpose: GraphPurpose) {
        self.plan = plan
        self.stop = stop
        self.purpose = purpose
        graph = ValidatedGraph(spec: plan.spec)
        graph.warnings = plan.warnings
    }

    var file: String? { plan.spec.file }

    /// One plan node: its inputs connected (adapters inserted), then created and configured, then
    /// added to the graph. A node downstream of one that failed is skipped quietly: the failure
    /// upstream has its own error.
    mutating func instantiateNode(_ n: Int) {
        let p = plan.nodes[n]
        let incoming = plan.incoming(n)
        if incoming.contains(where: { built[$0.from] == nil }) { return }
        guard let inputs = connectInputs(of: p, incoming) else { return }
        guard let (instance, outputs, outputNames) = createAndConfigure(p, inputs: zip(incoming, inputs).map { InputFormat(port: $0.0.input, format: $0.1.format) }) else { return }
        let index = graph.nodes.count
        graph.nodes.append(.init(id: p.id, info: p.info, params: p.params, instance: instance, inputNames: incoming.map(\.input),
                                 inputFormats: inputs.map(\.format), outputFormats: outputs, outputNames: outputNames, inserted: false))
        for (k, s) in inputs.enumerated() {
            graph.connections.append(.init(from: s.from.node, fromPort: s.from.port, to: index, toInput: k, format: s.format))
            noteCopiedPackets(from: s.from, into: p, input: incoming[k].input, format: s.format)
        }
        built[n] = index
    }

    /// Where each input of `p` is fed from (after any inserted adapters) and the format it gets
    /// there; nil when one of them cannot be connected (its error is recorded).
    mutating func connectInputs(of p: GraphPlan.Node, _ incoming: [GraphPlan.Edge]) -> [(from: (node: Int, port: Int), format: MediaFormat)]? {
        var inputs: [(from: (node: Int, port: Int), format: MediaFormat)] = []
        var ok = true
        for e in incoming {
            let u = built[e.from]!
            guard let fromPort = resolveOutput(e, producer: u) else { ok = false; continue }
            let producer = graph.nodes[u]
            let portSpec = p.info.inputSpec(named: e.input)!
            do {
                var input = try adapt(from: (node: u, port: fromPort), to: portSpec.caps, before: "\(p.id).\(e.input)")
                if let shape = p.info.inputShape(for: p.params, input: e.input, format: input.format) {
                    input = try reshape(from: input.from, format: input.format, to: shape, before: "\(p.id).\(e.input)")
                }
                inputs.append(input)
            } catch let failure as AdaptFailure {
                let fromName = producer.outputNames.count > 1 || producer.info.hasDynamicOutputs ? "\(producer.id).\(producer.outputNames[fromPort])" : producer.id
                // packets of another codec: only an encoder in the graph can make them meet
                let offered = producer.outputFormats[fromPort]
                let reencode = portSpec.caps.payloadKind == .packets && offered.isEncoded
                    ? "; packets are not re-encoded on their own: put an encoder of one of those codecs in between (`mediagraph nodes` lists them)" : ""
                problems.append(.error("edge '\(fromName)' → '\(p.id).\(e.input)': \(failure.message), input '\(e.input)' of '\(p.id)' (\(p.info.name)) accepts \(portSpec.caps)\(reencode)",
                                       node: p.id, port: e.input, file: file, at: e.location))
                ok = false
            } catch {
                problems.append(.error("edge '\(producer.id)' → '\(p.id).\(e.input)': \(error)", node: p.id, port: e.input, file: file, at: e.location))
                ok = false
            }
        }
        let matching = p.info.matchedInputs(for: p.params)
        if ok && !matching.isEmpty { ok = matchShapes(of: p, matching, incoming, &inputs) }
        return ok ? inputs : nil
    }

    /// The output index edge `e` leaves on graph node `u`: declared by the type, or named by the
    /// created node (`DynamicOutputs`); nil (and an error listing what exists) when it names none.
    mutating func resolveOutput(_ e: GraphPlan.Edge, producer u: Int) -> Int? {
        let producer = graph.nodes[u]
        switch e.output {
        case .index(let k):
            return k
        case .named(let name):
            guard let dynamic = producer.instance as? DynamicOutputs else { return 0 }
            do {
                return try dynamic.outputIndex(named: name ?? producer.outputNames.first ?? "")
            } catch {
                problems.append(.error("node '\(producer.id)' (\(producer.info.name)): \(error)", node: producer.id, port: name,
                                       file: file, at: e.location))
                return nil
            }
        }
    }

    /// Creates node `p` and configures it with its input formats; returns it with its output
    /// formats and their port names, or nil (and the error) when it refuses.
    mutating func createAndConfigure(_ p: GraphPlan.Node, inputs: [InputFormat]) -> (MediaNode, [MediaFormat], [String])? {
        let setup = NodeSetup(id: p.id, params: p.params, connectedInputs: inputs.map(\.port), stop: stop,
                              firstFrameNumber: plan.spec.firstFrameNumber)
        let instance: MediaNode
        let outputs: [MediaFormat]
        do {
            instance = try p.make(setup)
            if purpose == .run, let once = instance as? OnceReadableInput { try once.readHeader() }
            outputs = try instance.configure(inputs: inputs)
        } catch let e as GraphValidationError {
            problems += e.diagnostics
            return nil
        } catch {
            problems.append(.error("node '\(p.id)' (\(p.info.name)): \(error)\(p.commandLineNote)", node: p.id, file: file, at: p.location))
            return nil
        }
        guard let names = outputNames(of: p, instance, count: outputs.count) else { return nil }
        // every node that makes frames (a source, scale, a plugin) within the frame limits, so
        // no node needs its own check for frames it did not make
        for (k, f) in outputs.enumerated() {
            guard let v = f.video, let problem = MediaLimits.frameSizeProblem(width: v.width, height: v.height) else { continue }
            problems.append(.error("node '\(p.id)' (\(p.info.name)): output '\(names[k])': \(problem)", node: p.id, port: names[k], file: file, at: p.location))
            return nil
        }
        for w in instance.validationWarnings {
            graph.warnings.append(.warning("node '\(p.id)' (\(p.info.name)): \(w)", node: p.id, file: file, at: p.location))
        }
        return (instance, outputs, names)
    }

    /// The names of the `count` outputs a configured node has: the declared ports, or those a
    /// node with port families gives its members; nil (and an error) when they disagree.
    mutating func outputNames(of p: GraphPlan.Node, _ instance: MediaNode, count: Int) -> [String]? {
        if p.info.hasDynamicOutputs {
            guard let dynamic = instance as? DynamicOutputs, dynamic.outputNames.count == count else {
                problems.append(.error("node '\(p.id)' (\(p.info.name)) declares port families but does not name its \(count) outputs",
                                       node: p.id, file: file, at: p.location))
                return nil
            }
            return dynamic.outputNames
        }
        guard count == p.info.outputs.count else {
            problems.append(.error("node '\(p.id)' (\(p.info.name)) configured \(count) outputs but declares \(p.info.outputs.count)",
                                   node: p.id, file: file, at: p.location))
            return nil
        }
        return p.info.outputs.map(\.name)
    }

    /// Notes a source's encoded packets reaching a node that takes them as they are (a muxer, a
    /// hash sink): copied, not decoded. A converter named in the file (a decoder) is not noted.
    func noteCopiedPackets(from: (node: Int, port: Int), into p: GraphPlan.Node, input: String, format: MediaFormat) {
        let producer = graph.nodes[from.node]
        guard format.isEncoded, producer.info.category == .source, p.info.category != .converter else { return }
        graph.notes.append("'\(producer.id).\(producer.outputNames[from.port])' → '\(p.id).\(input)': \(format.codec?.rawValue ?? "encoded") packets copied, not decoded")
    }
}
