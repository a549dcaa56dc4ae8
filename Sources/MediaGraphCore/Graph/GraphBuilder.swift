/// Validates a `GraphSpec` as a whole before anything runs and turns it into a `ValidatedGraph`:
/// unknown types and params, unconnected inputs, cycles, and edges whose formats cannot meet are
/// all reported together, each naming the node, the port and both formats. Where formats do not
/// meet, the registry's adapters are inserted (a decoder where encoded packets meet an input that
/// takes raw media, `convert` where pixel formats differ, …) and reported in `notes`.
public enum GraphBuilder {
    public static func build(_ spec: GraphSpec, registry: NodeRegistry, stop: StopFlag = StopFlag(), dryRun: Bool = false) throws -> ValidatedGraph {
        var problems: [GraphDiagnostic] = []
        let file = spec.file
        func fail(_ d: GraphDiagnostic) { problems.append(d) }

        // 1. node types and params
        struct Pending {
            var spec: GraphSpec.Node
            var info: NodeTypeInfo
            var make: NodeRegistry.Factory
            var params: ParamValues
            var inputs: [(name: String, specIndex: Int, number: Int, edge: Int)] = []
            var outputUsed: [Bool]
        }
        var pending: [Pending] = []
        var seen = Set<String>()
        for n in spec.nodes {
            if !seen.insert(n.id).inserted {
                fail(.error("duplicate node id '\(n.id)'", node: n.id, file: file, at: n.location))
                continue
            }
            guard let entry = registry.entry(n.type) else {
                var msg = "node '\(n.id)': unknown node type '\(n.type)'"
                if let near = ClosestName.find(n.type, in: registry.typeNames) { msg += "; did you mean '\(near)'?" }
                else { msg += " (`mediagraph nodes` lists the types)" }
                fail(.error(msg, node: n.id, file: file, at: n.location))
                continue
            }
            let (values, paramProblems) = ParamValidator.validate(node: n.id, type: entry.info, given: n.params,
                                                                  baseDirectory: spec.baseDirectory, file: file)
            problems += paramProblems
            pending.append(Pending(spec: n, info: entry.info, make: entry.make, params: values,
                                   outputUsed: Array(repeating: false, count: entry.info.outputs.count)))
        }
        problems += OutputPathCheck.check(pending.map { .init(id: $0.spec.id, specs: $0.info.params, params: $0.params, location: $0.spec.location) }, file: file)
        let allIDs = spec.nodes.map(\.id)
        func indexOf(_ id: String) -> Int? { pending.firstIndex { $0.spec.id == id } }

        // 2. edges
        /// `fromPort` is nil when the producer names its outputs once created (`DynamicOutputs`).
        struct ResolvedEdge { var from: Int; var fromPort: Int?; var fromName: String?; var to: Int; var toName: String; var location: SourceLocation? }
        var edges: [ResolvedEdge] = []
        for e in spec.edges {
            guard let u = indexOf(e.from.node) else {
                if !allIDs.contains(e.from.node) {
                    var msg = "chain refers to unknown node '\(e.from.node)'"
                    if let near = ClosestName.find(e.from.node, in: allIDs) { msg += "; did you mean '\(near)'?" }
                    fail(.error(msg, node: e.from.node, file: file, at: e.location))
                }
                continue
            }
            guard let v = indexOf(e.to.node) else {
                if !allIDs.contains(e.to.node) {
                    var msg = "chain refers to unknown node '\(e.to.node)'"
                    if let near = ClosestName.find(e.to.node, in: allIDs) { msg += "; did you mean '\(near)'?" }
                    fail(.error(msg, node: e.to.node, file: file, at: e.location))
                }
                continue
            }
            let src = pending[u], dst = pending[v]
            // output port
            var fromPort: Int? = 0
            if src.info.outputs.isEmpty {
                fail(.error("node '\(src.spec.id)' (\(src.info.name)) has no outputs, so it cannot feed '\(dst.spec.id)'",
                            node: src.spec.id, file: file, at: e.location))
                continue
            }
            if src.info.hasDynamicOutputs {
                // resolved once the node exists and knows its streams
                fromPort = nil
            } else if let p = e.from.port {
                guard let k = src.info.outputs.firstIndex(where: { $0.name == p }) else {
                    fail(.error("node '\(src.spec.id)' (\(src.info.name)) has no output '\(p)'; outputs: " + src.info.outputs.map(\.name).joined(separator: ", "),
                                node: src.spec.id, port: p, file: file, at: e.location))
                    continue
                }
                fromPort = k
            }
            // input port
            if dst.info.inputs.isEmpty {
                fail(.error("node '\(dst.spec.id)' (\(dst.info.name)) is a source and takes no input, but '\(src.spec.id)' is chained into it",
                            node: dst.spec.id, file: file, at: e.location))
                continue
            }
            var toName: String
            if let p = e.to.port {
                guard dst.info.inputSpec(named: p) != nil else {
                    var msg = "node '\(dst.spec.id)' (\(dst.info.name)) has no input '\(p)'; inputs: " + dst.info.inputs.map { $0.repeatable ? "\($0.name), \($0.name)1, …" : $0.name }.joined(separator: ", ")
                    if let near = ClosestName.find(p, in: dst.info.inputs.map(\.name)) { msg += " (did you mean '\(near)'?)" }
                    fail(.error(msg, node: dst.spec.id, port: p, file: file, at: e.location))
                    continue
                }
                toName = p
            } else if dst.info.inputs.count == 1 && !dst.info.inputs[0].repeatable {
                toName = dst.info.inputs[0].name
            } else {
                fail(.error("node '\(dst.spec.id)' (\(dst.info.name)) has several inputs; name one, e.g. \"\(dst.spec.id).\(dst.info.inputs[0].name)\"",
                            node: dst.spec.id, file: file, at: e.location))
                continue
            }
            if edges.contains(where: { $0.to == v && $0.toName == toName }) {
                fail(.error("input '\(toName)' of node '\(dst.spec.id)' is connected twice (an input takes one edge; fan-out is from outputs)",
                            node: dst.spec.id, port: toName, file: file, at: e.location))
                continue
            }
            edges.append(ResolvedEdge(from: u, fromPort: fromPort, fromName: e.from.port, to: v, toName: toName, location: e.location))
            if let fromPort { pending[u].outputUsed[fromPort] = true }
        }

        // 3. unconnected inputs, unused outputs
        var warnings: [GraphDiagnostic] = []
        for (i, p) in pending.enumerated() {
            let connected = edges.filter { $0.to == i }.map(\.toName)
            // an input some chain tried to reach already has its own error; don't report it twice
            let attempted = spec.edges.filter { $0.to.node == p.spec.id }.map { $0.to.port ?? p.info.inputs.first?.name ?? "" }
            for s in p.info.inputs where !s.optional && !s.repeatable && !connected.contains(s.name) && !attempted.contains(s.name) {
                fail(.error("input '\(s.name)' of node '\(p.spec.id)' (\(p.info.name)) is not connected (it accepts \(s.caps))",
                            node: p.spec.id, port: s.name, file: file, at: p.spec.location))
            }
            if !p.info.inputs.isEmpty && connected.isEmpty && !p.info.inputs.contains(where: { !$0.optional && !$0.repeatable }) {
                fail(.error("node '\(p.spec.id)' (\(p.info.name)) has no connected input; connect at least one of: " + p.info.inputs.map(\.name).joined(separator: ", "),
                            node: p.spec.id, file: file, at: p.spec.location))
            }
            let triedOutputs = spec.edges.filter { $0.from.node == p.spec.id }.map { $0.from.port ?? p.info.outputs.first?.name ?? "" }
            for (k, used) in p.outputUsed.enumerated() where !used && !triedOutputs.contains(p.info.outputs[k].name) && !p.info.hasDynamicOutputs {
                warnings.append(.warning("output '\(p.info.outputs[k].name)' of node '\(p.spec.id)' (\(p.info.name)) is connected nowhere; its buffers are dropped",
                                         node: p.spec.id, port: p.info.outputs[k].name, file: file, at: p.spec.location))
            }
        }

        // 4. cycles (Kahn's algorithm)
        var indegree = Array(repeating: 0, count: pending.count)
        for e in edges { indegree[e.to] += 1 }
        var order: [Int] = []
        var ready = (0..<pending.count).filter { indegree[$0] == 0 }
        while let n = ready.first {
            ready.removeFirst()
            order.append(n)
            for e in edges where e.from == n {
                indegree[e.to] -= 1
                if indegree[e.to] == 0 { ready.append(e.to) }
            }
        }
        if order.count < pending.count {
            let inCycle = (0..<pending.count).filter { !order.contains($0) }.map { pending[$0].spec.id }
            fail(.error("the graph has a cycle through nodes " + inCycle.map { "'\($0)'" }.joined(separator: ", ") + "; a graph must flow one way",
                        node: inCycle.first, file: file, at: pending.first { $0.spec.id == inCycle.first }?.spec.location))
        }

        if problems.contains(where: { $0.severity == .error }) { throw GraphValidationError(problems + warnings) }

        // 5. instantiate and negotiate in topological order
        let graph = ValidatedGraph(spec: spec)
        graph.warnings = warnings
        var built: [Int: Int] = [:]          // pending index -> graph node index
        var adapterCache = AdapterCache()
        for n in order {
            let p = pending[n]
            let incoming = edges.filter { $0.to == n }.sorted { a, b in
                let ia = p.info.inputs.firstIndex { $0.matches(a.toName) } ?? 0
                let ib = p.info.inputs.firstIndex { $0.matches(b.toName) } ?? 0
                return ia != ib ? ia < ib : a.toName.count != b.toName.count ? a.toName.count < b.toName.count : a.toName < b.toName
            }
            // upstream failed: skip quietly (its own error is reported)
            if incoming.contains(where: { built[$0.from] == nil }) { continue }
            var inputFormats: [MediaFormat] = []
            var sources: [(node: Int, port: Int)] = []
            var ok = true
            for e in incoming {
                let u = built[e.from]!
                let producer = graph.nodes[u]
                let fromPort: Int
                if let k = e.fromPort {
                    fromPort = k
                } else if let dynamic = producer.instance as? DynamicOutputs {
                    do {
                        fromPort = try dynamic.outputIndex(named: e.fromName ?? producer.outputNames.first ?? "")
                    } catch {
                        fail(.error("node '\(producer.id)' (\(producer.info.name)): \(error)", node: producer.id, port: e.fromName,
                                    file: file, at: e.location))
                        ok = false
                        continue
                    }
                } else {
                    fromPort = 0
                }
                let portSpec = p.info.inputSpec(named: e.toName)!
                do {
                    let (from, fmt) = try adapt(graph: graph, registry: registry, cache: &adapterCache,
                                                from: (node: u, port: fromPort), to: portSpec.caps,
                                                before: "\(p.spec.id).\(e.toName)", stop: stop, dryRun: dryRun)
                    inputFormats.append(fmt)
                    sources.append(from)
                } catch let failure as AdaptFailure {
                    let fromName = producer.outputNames.count > 1 || producer.info.hasDynamicOutputs ? "\(producer.id).\(producer.outputNames[fromPort])" : producer.id
                    fail(.error("edge '\(fromName)' → '\(p.spec.id).\(e.toName)': \(failure.message), input '\(e.toName)' of '\(p.spec.id)' (\(p.info.name)) accepts \(portSpec.caps)",
                                node: p.spec.id, port: e.toName, file: file, at: e.location))
                    ok = false
                } catch {
                    fail(.error("edge '\(producer.id)' → '\(p.spec.id).\(e.toName)': \(error)",
                                node: p.spec.id, port: e.toName, file: file, at: e.location))
                    ok = false
                }
            }
            guard ok else { continue }
            let setup = NodeSetup(id: p.spec.id, params: p.params, connectedInputs: incoming.map(\.toName), stop: stop, dryRun: dryRun)
            let instance: MediaNode
            let outputs: [MediaFormat]
            do {
                instance = try p.make(setup)
                outputs = try instance.configure(inputs: zip(incoming, inputFormats).map { InputFormat(port: $0.0.toName, format: $0.1) })
            } catch let e as GraphValidationError {
                problems += e.diagnostics
                continue
            } catch {
                fail(.error("node '\(p.spec.id)' (\(p.info.name)): \(error)", node: p.spec.id, file: file, at: p.spec.location))
                continue
            }
            let outputNames: [String]
            if p.info.hasDynamicOutputs {
                guard let dynamic = instance as? DynamicOutputs, dynamic.outputNames.count == outputs.count else {
                    fail(.error("node '\(p.spec.id)' (\(p.info.name)) declares port families but does not name its \(outputs.count) outputs",
                                node: p.spec.id, file: file, at: p.spec.location))
                    continue
                }
                outputNames = dynamic.outputNames
            } else {
                guard outputs.count == p.info.outputs.count else {
                    fail(.error("node '\(p.spec.id)' (\(p.info.name)) configured \(outputs.count) outputs but declares \(p.info.outputs.count)",
                                node: p.spec.id, file: file, at: p.spec.location))
                    continue
                }
                outputNames = p.info.outputs.map(\.name)
            }
            for w in instance.validationWarnings {
                graph.warnings.append(.warning("node '\(p.spec.id)' (\(p.info.name)): \(w)", node: p.spec.id, file: file, at: p.spec.location))
            }
            let index = graph.nodes.count
            graph.nodes.append(.init(id: p.spec.id, info: p.info, params: p.params, instance: instance, inputNames: incoming.map(\.toName),
                                     inputFormats: inputFormats, outputFormats: outputs, outputNames: outputNames, inserted: false))
            for (k, s) in sources.enumerated() {
                graph.connections.append(.init(from: s.node, fromPort: s.port, to: index, toInput: k, format: inputFormats[k]))
                // a converter (a decoder named in the file) does not copy what it takes
                if inputFormats[k].isEncoded, graph.nodes[s.node].info.category == .source, p.info.category != .converter {
                    graph.notes.append("'\(graph.nodes[s.node].id).\(graph.nodes[s.node].outputNames[s.port])' → '\(p.spec.id).\(incoming[k].toName)': \(inputFormats[k].codec?.rawValue ?? "encoded") packets copied, not decoded")
                }
            }
            built[n] = index
        }
        if problems.contains(where: { $0.severity == .error }) { throw GraphValidationError(problems + warnings) }
        return graph
    }

    /// Inserted nodes already serving an output, so that one stream is decoded (or converted to
    /// one format) once however many consumers need it.
    struct AdapterCache {
        var nodes: [String: Int] = [:]
    }

    struct AdaptFailure: Error { var message: String }

    /// The output (after any inserted adapters) that feeds an input accepting `caps`, and its
    /// format. Adapters are chained (decode, then convert) up to three deep, each at most once.
    static func adapt(graph: ValidatedGraph, registry: NodeRegistry, cache: inout AdapterCache,
                      from start: (node: Int, port: Int), to caps: FormatCaps, before: String,
                      stop: StopFlag, dryRun: Bool) throws -> ((node: Int, port: Int), MediaFormat) {
        var from = start
        var format = graph.nodes[from.node].outputFormats[from.port]
        var used = Set<String>()
        while !caps.accepts(format) {
            guard used.count < 3,
                  let (adapter, params) = registry.adapters.lazy.filter({ !used.contains($0.label) })
                    .compactMap({ a in a.params(format, caps, graph.nodes[start.node].params).map { (a, $0) } }).first else {
                throw AdaptFailure(message: "formats cannot meet: '\(graph.nodes[start.node].id)' produces \(graph.nodes[start.node].outputFormats[start.port])"
                                   + (from.node != start.node ? " (\(format) after the inserted \(used.sorted().joined(separator: ", ")))" : ""))
            }
            used.insert(adapter.label)
            let key = "\(from.node).\(from.port)|\(adapter.nodeType)|" + params.keys.sorted().map { "\($0)=\(params[$0]!.serialized())" }.joined(separator: ",")
                + (adapter.sharedPerOutput ? "" : "|" + before)
            if let existing = cache.nodes[key] {
                from = (node: existing, port: 0)
                format = graph.nodes[existing].outputFormats[0]
                continue
            }
            let index = try insert(adapter, params: params, graph: graph, registry: registry, from: from, format: format,
                                   before: before, stop: stop, dryRun: dryRun)
            cache.nodes[key] = index
            from = (node: index, port: 0)
            format = graph.nodes[index].outputFormats[0]
        }
        return (from, format)
    }

    /// Inserts one adapter node after `from`, configured for `format`.
    static func insert(_ adapter: FormatAdapter, params given: [String: JSONValue], graph: ValidatedGraph, registry: NodeRegistry,
                       from: (node: Int, port: Int), format: MediaFormat, before: String, stop: StopFlag, dryRun: Bool) throws -> Int {
        guard let entry = registry.entry(adapter.nodeType) else {
            throw AdaptFailure(message: "no '\(adapter.nodeType)' node type is registered to \(adapter.label) \(format)")
        }
        let producer = graph.nodes[from.node]
        let place = adapter.sharedPerOutput ? "\(producer.id).\(producer.outputNames[from.port])" : before
        let base = "auto_\(adapter.label)_" + place.replacingOccurrences(of: ".", with: "_")
        var id = base, k = 1
        while graph.nodes.contains(where: { $0.id == id }) { id = "\(base)_\(k)"; k += 1 }
        var params = ParamValues()
        for (name, value) in given { params.set(name, value) }
        for spec in entry.info.params where !params.has(spec.name) {
            if let d = spec.defaultValue { params.set(spec.name, d) }
        }
        let inputName = entry.info.inputs.first?.name ?? "in"
        let node = try entry.make(NodeSetup(id: id, params: params, connectedInputs: [inputName], stop: stop, dryRun: dryRun))
        let outputs: [MediaFormat]
        do {
            outputs = try node.configure(inputs: [InputFormat(port: inputName, format: format)])
        } catch {
            throw AdaptFailure(message: "cannot \(adapter.label) \(format): \(error)")
        }
        guard outputs.count == 1 else { throw AdaptFailure(message: "the inserted '\(adapter.nodeType)' must have one output") }
        let index = graph.nodes.count
        graph.nodes.append(.init(id: id, info: entry.info, params: params, instance: node, inputNames: [inputName], inputFormats: [format],
                                 outputFormats: outputs, outputNames: entry.info.outputs.map(\.name), inserted: true))
        graph.connections.append(.init(from: from.node, fromPort: from.port, to: index, toInput: 0, format: format))
        let where_ = adapter.sharedPerOutput ? "after '\(place)'" : "before '\(before)'"
        graph.notes.append("inserted '\(id)' (\(adapter.nodeType)): \(brief(format)) → \(brief(outputs[0])) \(where_)")
        return index
    }

    /// The part of a format a note about a conversion needs.
    static func brief(_ f: MediaFormat) -> String {
        switch f {
        case .video(let v): return v.pixelFormat.rawValue
        case .audio(let a): return "\(a.sampleFormat) \(a.sampleRate)Hz \(a.channels)ch"
        case .encodedVideo(let e): return "\(e.codec) \(e.width)x\(e.height)"
        case .encodedAudio(let e): return "\(e.codec) \(e.sampleRate)Hz \(e.channels)ch"
        }
    }
}

extension String {
    func replacingOccurrences(of a: String, with b: String) -> String {
        split(separator: Character(a), omittingEmptySubsequences: false).joined(separator: b)
    }
}
