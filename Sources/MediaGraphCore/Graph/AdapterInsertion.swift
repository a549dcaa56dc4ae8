/// Inserted nodes already serving an output, so that one stream is decoded (or converted to
/// one format) once however many consumers need it.
struct AdapterCache {
    var nodes: [String: Int] = [:]
}

/// An edge whose formats no chain of registered adapters makes meet.
struct AdaptFailure: Error { var message: String }

/// Bridging an edge whose formats do not meet with the adapters the node modules registered
/// (`FormatAdapter`): the core names none of them.
extension GraphInstantiation {
    /// The output (after any inserted adapters) that feeds an input accepting `caps`, and its
    /// format. Adapters are chained (a decoder, then a pixel-format converter) up to three deep, each
    /// at most once.
    mutating func adapt(from start: (node: Int, port: Int), to caps: FormatCaps, before: String) throws -> (from: (node: Int, port: Int), format: MediaFormat) {
        var from = start
        var format = graph.nodes[from.node].outputFormats[from.port]
        var used = Set<String>()
        let producer = graph.nodes[start.node]
        while !caps.accepts(format) {
            guard used.count < 3,
                  let (adapter, params) = plan.adapters.lazy.filter({ !used.contains($0.adapter.label) })
                    .compactMap({ a in a.adapter.params(format, caps, producer.params).map { (a, $0) } }).first else {
                throw AdaptFailure(message: "formats cannot meet: '\(producer.id)' produces \(producer.outputFormats[start.port])"
                                   + (from.node != start.node ? " (\(format) after the inserted \(used.sorted().joined(separator: ", ")))" : ""))
            }
            used.insert(adapter.adapter.label)
            let key = "\(from.node).\(from.port)|\(adapter.adapter.nodeType)|" + params.keys.sorted().map { "\($0)=\(params[$0]!.serialized())" }.joined(separator: ",")
                + (adapter.adapter.sharedPerOutput ? "" : "|" + before)
            if let existing = adapterCache.nodes[key] {
                from = (node: existing, port: 0)
                format = graph.nodes[existing].outputFormats[0]
                continue
            }
            let index = try insert(adapter, params: params, from: from, format: format, before: before)
            adapterCache.nodes[key] = index
            from = (node: index, port: 0)
            format = graph.nodes[index].outputFormats[0]
        }
        return (from, format)
    }

    /// Inserts one adapter node after `from`, configured for `format`, and notes it.
    func insert(_ planned: GraphPlan.Adapter, params given: [String: JSONValue], from: (node: Int, port: Int),
                format: MediaFormat, before: String) throws -> Int {
        let adapter = planned.adapter
        guard let entry = planned.entry else {
            throw AdaptFailure(message: "no '\(adapter.nodeType)' node type is registered to \(adapter.label) \(format)")
        }
        let producer = graph.nodes[from.node]
        let place = adapter.sharedPerOutput ? "\(producer.id).\(producer.outputNames[from.port])" : before
        let base = "auto_\(adapter.label)_" + String(place.map { $0 == "." ? "_" : $0 })
        var id = base, k = 1
        while graph.nodes.contains(where: { $0.id == id }) { id = "\(base)_\(k)"; k += 1 }
        var params = ParamValues()
        for (name, value) in given { params.set(name, value) }
        for spec in entry.info.params where !params.has(spec.name) {
            if let d = spec.defaultValue { params.set(spec.name, d) }
        }
        let inputName = entry.info.inputs.first?.name ?? "in"
        let node = try entry.make(NodeSetup(id: id, params: params, connectedInputs: [inputName], stop: stop))
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
        graph.notes.append("inserted '\(id)' (\(adapter.nodeType)): \(Self.brief(format)) → \(Self.brief(outputs[0])) \(where_)")
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
