/// The fusion pass: after every node is configured, runs of point-wise stages of one registered
/// family (`StageFusion`) are replaced by the nodes their family makes of them. Every decision
/// is noted for `validate` and the log: which nodes became one stage, and why a stage next to
/// another stage did not join it.
extension GraphInstantiation {
    mutating func fuseStages() {
        guard plan.spec.fuse, !plan.fusions.isEmpty else { return }
        let g = graph
        // the family and role of every node that is a single-input single-output video stage
        var roles: [(family: Int, role: StageFusion.Role)?] = Array(repeating: nil, count: g.nodes.count)
        for (i, n) in g.nodes.enumerated() where !n.inserted && n.inputFormats.count == 1 && n.outputFormats.count == 1
            && n.inputFormats[0] == n.outputFormats[0] {
            for (k, rule) in plan.fusions.enumerated() {
                let role = rule.role(n.instance, n.inputFormats[0])
                if role != .other { roles[i] = (k, role); break }
            }
        }
        var replaced: [(members: [Int], node: MediaNode, info: NodeTypeInfo)] = []
        var visited = Set<Int>()
        for start in g.nodes.indices where roles[start]?.role == .stage && !visited.contains(start) {
            // start only where the producer does not extend the run
            if let prev = onlyProducer(start), roles[prev]?.role == .stage, roles[prev]?.family == roles[start]?.family,
               g.consumers(of: prev, port: 0).count == 1 { continue }
            var run = [start]
            var end = start
            while true {
                let out = g.consumers(of: end, port: 0)
                guard out.count == 1, let r = roles[out[0].to], r.family == roles[start]!.family else {
                    noteBoundary(after: end, consumers: out, roles: roles)
                    break
                }
                guard r.role == .stage else {
                    if case .kept(let why) = r.role { g.notes.append("'\(g.nodes[out[0].to].id)' not fused with '\(g.nodes[end].id)': \(why)") }
                    break
                }
                end = out[0].to
                run.append(end)
            }
            visited.formUnion(run)
            guard run.count > 1 else { continue }
            let rule = plan.fusions[roles[start]!.family]
            let members = run.map { i in
                FusionMember(id: g.nodes[i].id, info: g.nodes[i].info, params: g.nodes[i].params, instance: g.nodes[i].instance,
                             format: g.nodes[i].inputFormats[0])
            }
            do {
                for piece in try rule.fuse(members) {
                    if let note = piece.note { g.notes.append(note) }
                    if let node = piece.node, let info = piece.info, piece.members.count > 1 {
                        replaced.append((piece.members.map { run[$0] }, node, info))
                    }
                }
            } catch {
                problems.append(.error("fusing \(members.map { "'\($0.id)'" }.joined(separator: ", ")): \(error)", node: members[0].id,
                                       file: file, at: nil))
            }
        }
        if !replaced.isEmpty { replace(replaced) }
    }

    /// The node feeding `n`'s only input, when it has exactly one.
    private func onlyProducer(_ n: Int) -> Int? {
        let p = graph.producers(of: n)
        return p.count == 1 ? p[0].from : nil
    }

    /// Why the run ending at `end` does not go on into its consumers.
    private func noteBoundary(after end: Int, consumers: [ValidatedGraph.Connection], roles: [(family: Int, role: StageFusion.Role)?]) {
        let g = graph
        let id = g.nodes[end].id
        if consumers.count > 1 {
            g.notes.append("'\(id)' not fused with its consumers: its output feeds \(consumers.count) nodes (fan-out)")
            return
        }
        guard let c = consumers.first else { return }
        let next = g.nodes[c.to]
        if next.inserted {
            g.notes.append("'\(id)' not fused with '\(next.id)': an inserted converter (\(next.info.name)) is between it and the next stage")
        } else if next.info.category == .filter {
            let why = roles[c.to] == nil && next.inputFormats.first != next.outputFormats.first
                ? "it changes the format" : "'\(next.id)' (\(next.info.name)) is not a point-wise stage of the same kind"
            g.notes.append("'\(id)' not fused with '\(next.id)': \(why)")
        }
    }

    /// Puts each fused node in the place of its chain of `members` (first to last, each feeding
    /// the next): it takes the first one's input and feeds the last one's consumers; the others go.
    private mutating func replace(_ fused: [(members: [Int], node: MediaNode, info: NodeTypeInfo)]) {
        let g = graph
        var gone = Set<Int>()
        var connections = g.connections
        for (members, node, info) in fused {
            let first = members[0], last = members[members.count - 1]
            g.nodes[first].id = members.map { g.nodes[$0].id }.joined(separator: "+")
            g.nodes[first].info = info
            g.nodes[first].instance = node
            g.nodes[first].params = ParamValues()
            g.nodes[first].outputFormats = g.nodes[last].outputFormats
            gone.formUnion(members.dropFirst())
            for k in connections.indices where connections[k].from == last { connections[k].from = first }
        }
        connections.removeAll { gone.contains($0.to) }
        // renumber the nodes that remain
        var newIndex: [Int] = Array(repeating: -1, count: g.nodes.count)
        var nodes: [ValidatedGraph.Node] = []
        for (i, n) in g.nodes.enumerated() where !gone.contains(i) {
            newIndex[i] = nodes.count
            nodes.append(n)
        }
        g.nodes = nodes
        g.connections = connections.map { c in
            var c = c
            c.from = newIndex[c.from]
            c.to = newIndex[c.to]
            return c
        }
    }
}
