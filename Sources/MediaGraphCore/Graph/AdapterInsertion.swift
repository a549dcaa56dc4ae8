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
            (from, format) = try insertOnce(adapter, params: params, from: from, format: format, before: before)
        }
        return (from, format)
    }

    /// The output (after any inserted adapters) that gives what `from` carries the `shape` a
    /// node's matched inputs share (`InputMatching`), and its format: the first registered
    /// adapter that can reshape it (`scale`, `resample`) is inserted before `before`.
    mutating func reshape(from start: (node: Int, port: Int), format given: MediaFormat, to shape: FormatShape,
                          before: String) throws -> (from: (node: Int, port: Int), format: MediaFormat) {
        if shape.accepts(given) { return (start, given) }
        guard let (adapter, params) = plan.adapters.lazy.compactMap({ a in a.adapter.reshape?(given, shape).map { (a, $0) } }).first else {
            throw AdaptFailure(message: "\(given) must have the shape of the first input of its kind (\(shape)), and no registered adapter makes it so")
        }
        let (from, format) = try mergeIntoInserted(adapter, params: params, at: start)
            ?? insertOnce(adapter, params: params, from: start, format: given, before: before)
        guard shape.accepts(format) else {
            throw AdaptFailure(message: "the inserted '\(adapter.adapter.nodeType)' made \(format), not the \(shape) of the first input of its kind")
        }
        return (from, format)
    }

    /// When `at` is an adapter of the same type inserted for this input alone (a `resample` to
    /// the sample format the input takes) and nothing reads it yet, makes it again with its params
    /// merged with `params`, so one node does both jobs; returns its output and new format. It
    /// keeps its place (other inputs' adapters may have been inserted after it).
    mutating func mergeIntoInserted(_ adapter: GraphPlan.Adapter, params: [String: JSONValue],
                                    at: (node: Int, port: Int)) throws -> (from: (node: Int, port: Int), format: MediaFormat)? {
        let old = graph.nodes[at.node]
        guard !adapter.adapter.sharedPerOutput, old.inserted, old.info.name == adapter.adapter.nodeType,
              !graph.connections.contains(where: { $0.from == at.node }),
              graph.connections.contains(where: { $0.to == at.node }) else { return nil }
        var merged = old.params.values
        for (name, value) in params { merged[name] = value }
        let made = try make(adapter, params: merged, id: old.id, format: old.inputFormats[0])
        graph.nodes[at.node].params = made.params
        graph.nodes[at.node].instance = made.node
        graph.nodes[at.node].outputFormats = made.outputs
        if let k = graph.notes.firstIndex(where: { $0.hasPrefix("inserted '\(old.id)' ") }), let place = graph.notes[k].range(of: " before '") {
            graph.notes[k] = "inserted '\(old.id)' (\(adapter.adapter.nodeType)): \(Self.brief(old.inputFormats[0], made.outputs[0])) → \(Self.brief(made.outputs[0], old.inputFormats[0]))" + graph.notes[k][place.lowerBound...]
        }
        // its cache entry named the params it had
        adapterCache.nodes = adapterCache.nodes.filter { $0.value != at.node }
        return (at, made.outputs[0])
    }

    /// Inserts `adapter` after `from` unless the same adapter with the same params already serves
    /// it (for this consumer, or for every one when the adapter is shared per output).
    mutating func insertOnce(_ adapter: GraphPlan.Adapter, params: [String: JSONValue], from: (node: Int, port: Int),
                             format: MediaFormat, before: String) throws -> (from: (node: Int, port: Int), format: MediaFormat) {
        let key = "\(from.node).\(from.port)|\(adapter.adapter.nodeType)|" + params.keys.sorted().map { "\($0)=\(params[$0]!.serialized())" }.joined(separator: ",")
            + (adapter.adapter.sharedPerOutput ? "" : "|" + before)
        if let existing = adapterCache.nodes[key] {
            return ((node: existing, port: 0), graph.nodes[existing].outputFormats[0])
        }
        let index = try insert(adapter, params: params, from: from, format: format, before: before)
        adapterCache.nodes[key] = index
        return ((node: index, port: 0), graph.nodes[index].outputFormats[0])
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
        let (params, node, outputs) = try make(planned, params: given, id: id, format: format)
        let inputName = entry.info.inputs.first?.name ?? "in"
        let index = graph.nodes.count
        graph.nodes.append(.init(id: id, info: entry.info, params: params, instance: node, inputNames: [inputName], inputFormats: [format],
                                 outputFormats: outputs, outputNames: entry.info.outputs.map(\.name), inserted: true))
        graph.connections.append(.init(from: from.node, fromPort: from.port, to: index, toInput: 0, format: format))
        let where_ = adapter.sharedPerOutput ? "after '\(place)'" : "before '\(before)'"
        graph.notes.append("inserted '\(id)' (\(adapter.nodeType)): \(Self.brief(format, outputs[0])) → \(Self.brief(outputs[0], format)) \(where_)")
        return index
    }

    /// An adapter node made with `given` params (defaults for the rest) and configured for
    /// `format`: its params, the instance and its one output format.
    func make(_ planned: GraphPlan.Adapter, params given: [String: JSONValue], id: String,
              format: MediaFormat) throws -> (params: ParamValues, node: MediaNode, outputs: [MediaFormat]) {
        let adapter = planned.adapter
        guard let entry = planned.entry else {
            throw AdaptFailure(message: "no '\(adapter.nodeType)' node type is registered to \(adapter.label) \(format)")
        }
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
        return (params, node, outputs)
    }

    /// The part of a format a note about a conversion needs.
    /// The size is named when it changes (an inserted `scale`).
    static func brief(_ f: MediaFormat, _ other: MediaFormat? = nil) -> String {
        switch f {
        case .video(let v):
            var turned = other?.video.map { $0.rotation != v.rotation } == true ? (v.rotation == 0 ? " upright" : " rotated \(v.rotation)°") : ""
            // a change of range alone (YUV both sides) says so
            if let o = other?.video, !o.pixelFormat.isRGB, !v.pixelFormat.isRGB, (o.range == .full) != (v.range == .full) {
                turned = (v.range == .full ? " full" : " limited") + turned
            }
            if let o = other?.video, o.width != v.width || o.height != v.height { return "\(v.pixelFormat.rawValue) \(v.width)x\(v.height)" + turned }
            return v.pixelFormat.rawValue + turned
        case .audio(let a): return "\(a.sampleFormat) \(a.sampleRate)Hz \(a.channels)ch"
        case .encodedVideo(let e): return "\(e.codec) \(e.width)x\(e.height)"
        case .encodedAudio(let e): return "\(e.codec) \(e.sampleRate)Hz \(e.channels)ch"
        case .subtitle(let s): return "\(s.codec) subtitles"
        }
    }
}

extension GraphInstantiation {
    /// Gives each input of `p` that its type's `matchedInputs` covers the shape of the first
    /// connected input of its kind, inserting adapters; false (and an error naming both ports and
    /// formats) when one cannot be reshaped.
    mutating func matchShapes(of p: GraphPlan.Node, _ matching: InputMatching, _ incoming: [GraphPlan.Edge],
                              _ inputs: inout [(from: (node: Int, port: Int), format: MediaFormat)]) -> Bool {
        var first: [Bool: (port: String, shape: FormatShape)] = [:]
        var ok = true
        /// Reshapes input `k`; on failure records an error that says why it needed `shape`.
        func reshapeInput(_ k: Int, to shape: FormatShape, because reason: String) {
            do {
                inputs[k] = try reshape(from: inputs[k].from, format: inputs[k].format, to: shape, before: "\(p.id).\(incoming[k].input)")
            } catch {
                let message = (error as? AdaptFailure)?.message ?? "\(error)"
                problems.append(.error("node '\(p.id)' (\(p.info.name)): input '\(incoming[k].input)' gets \(inputs[k].format)\(reason): \(message)",
                                       node: p.id, port: incoming[k].input, file: file, at: incoming[k].location))
                ok = false
            }
        }
        if matching.contains(.videoUpright) && inputs.count(where: { $0.format.video != nil }) > 1 {
            for k in inputs.indices where (inputs[k].format.video.map { $0.rotation != 0 || $0.mirrored } ?? false) {
                reshapeInput(k, to: FormatShape(rotation: 0), because: ", which must be turned upright to be combined with the other inputs")
            }
        }
        // the first of a family is the one numbered lowest (`video` before `video1`), whatever
        // the order of the edges in the file
        func number(_ port: String) -> Int { Int(String(port.reversed().prefix { $0.isNumber }.reversed())) ?? 0 }
        for k in inputs.indices.sorted(by: { (number(incoming[$0].input), $0) < (number(incoming[$1].input), $1) }) {
            guard let shape = FormatShape.of(inputs[k].format, matching: matching) else { continue }
            guard let target = first[shape.isVideoShape] else {
                first[shape.isVideoShape] = (incoming[k].input, shape)
                continue
            }
            reshapeInput(k, to: target.shape.completed(for: inputs[k].format), because: " but input '\(target.port)' gets \(target.shape)")
        }
        return ok
    }
}
