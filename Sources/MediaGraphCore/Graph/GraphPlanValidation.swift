/// Validation: a `GraphSpec` in, a `GraphPlan` out, in four phases that each report every
/// problem they find (so one run of `validate` lists them all): node types and params, edges
/// against declared ports, unconnected inputs, cycles. Nothing is created; the only look at the
/// file system is `stat` (`OutputPathCheck`, and params that name files which must exist).
extension GraphPlan {
    /// Validates `spec` against the node types of `registry`. Throws `GraphValidationError`
    /// listing every error found (with the warnings), each naming node, port or param and where
    /// in the file.
    public init(validating spec: GraphSpec, registry: NodeRegistry) throws {
        self.init(spec: spec)
        var problems: [GraphDiagnostic] = []
        resolveNodes(registry: registry, problems: &problems)
        resolveEdges(problems: &problems)
        checkConnections(problems: &problems)
        orderTopologically(problems: &problems)
        if problems.contains(where: { $0.severity == .error }) { throw GraphValidationError(problems + warnings) }
        adapters = registry.adapters.map { Adapter(adapter: $0, entry: registry.entry($0.nodeType)) }
        fusions = registry.fusions
    }

    /// Phase 1: every node's type is known and its id unique, its params validated (defaults
    /// filled in); no two outputs are one file and no output is an input. A node that fails
    /// here is left out, so later phases do not report it again.
    mutating func resolveNodes(registry: NodeRegistry, problems: inout [GraphDiagnostic]) {
        let file = spec.file
        var seen = Set<String>()
        for var n in spec.nodes {
            if !seen.insert(n.id).inserted {
                problems.append(.error("duplicate node id '\(n.id)'", node: n.id, file: file, at: n.location))
                continue
            }
            guard let entry = registry.entry(n.type) else {
                var msg = "node '\(n.id)': unknown node type '\(n.type)'"
                if let advice = registry.unknownTypeAdvice(n.type) { msg += "; " + advice }
                else { msg += " (`mediagraph nodes` lists the types)" }
                problems.append(.error(msg, node: n.id, file: file, at: n.location))
                continue
            }
            n.readCommandLinePathsAsText(declared: entry.info.params)
            let (values, paramProblems) = ParamValidator.validate(node: n.id, type: entry.info, given: n.params,
                                                                  baseDirectory: spec.baseDirectory, file: file)
            problems += paramProblems.map(n.attributing)
            nodes.append(Node(id: n.id, info: entry.info, params: values, location: n.location, make: entry.make, commandLine: n.commandLine))
        }
        let pathProblems = OutputPathCheck.check(nodes.map { .init(id: $0.id, specs: $0.info.params, params: $0.params, location: $0.location) },
                                                 file: file)
        // a path given with --set is named as such, not by a place in the file
        problems += pathProblems.map { d in spec.nodes.first { $0.id == d.node }.map { $0.attributing(d) } ?? d }
    }

    /// Phase 2: each edge of the chains names existing nodes and ports the node types declare
    /// (an output of a port family, such as a file source's `video1`, stays a reference until
    /// the node exists), and no input is connected twice.
    mutating func resolveEdges(problems: inout [GraphDiagnostic]) {
        let index = Dictionary(nodes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let written = Set(spec.nodes.map(\.id))
        for e in spec.edges {
            // a node that failed phase 1 has its own error; only a name nobody declared is reported
            guard let u = index[e.from.node] else {
                if !written.contains(e.from.node) { problems.append(unknownNode(e.from.node, at: e.location)) }
                continue
            }
            guard let v = index[e.to.node] else {
                if !written.contains(e.to.node) { problems.append(unknownNode(e.to.node, at: e.location)) }
                continue
            }
            guard let output = resolveOutput(of: u, feeding: v, e, problems: &problems),
                  let input = resolveInput(of: v, fedBy: u, e, problems: &problems) else { continue }
            if edges.contains(where: { $0.to == v && $0.input == input }) {
                problems.append(.error("input '\(input)' of node '\(nodes[v].id)' is connected twice (an input takes one edge; fan-out is from outputs)",
                                       node: nodes[v].id, port: input, file: spec.file, at: e.location))
                continue
            }
            if case .index(let k) = output, let inSpec = nodes[v].info.inputSpec(named: input) {
                let outSpec = nodes[u].info.outputs[k]
                if outSpec.caps.cannotFeed(inSpec.caps) {
                    problems.append(.error("edge '\(nodes[u].id).\(outSpec.name)' → '\(nodes[v].id).\(input)': output '\(outSpec.name)' of '\(nodes[u].id)' (\(nodes[u].info.name)) carries \(outSpec.caps.kindDescription), but input '\(input)' of '\(nodes[v].id)' (\(nodes[v].info.name)) takes \(inSpec.caps.kindDescription)",
                                           node: nodes[v].id, port: input, file: spec.file, at: e.location))
                    continue
                }
            }
            edges.append(Edge(from: u, output: output, to: v, input: input, location: e.location))
        }
    }

    /// "chain refers to unknown node", with the closest id written in the file.
    func unknownNode(_ id: String, at location: SourceLocation?) -> GraphDiagnostic {
        var msg = "chain refers to unknown node '\(id)'"
        if let near = ClosestName.find(id, in: spec.nodes.map(\.id)) { msg += "; did you mean '\(near)'?" }
        return .error(msg, node: id, file: spec.file, at: location)
    }

    /// The output of node `u` that edge `e` leaves, or nil (and a problem) when there is none.
    func resolveOutput(of u: Int, feeding v: Int, _ e: GraphSpec.Edge, problems: inout [GraphDiagnostic]) -> OutputRef? {
        let src = nodes[u]
        if src.info.outputs.isEmpty {
            problems.append(.error("node '\(src.id)' (\(src.info.name)) has no outputs, so it cannot feed '\(nodes[v].id)'",
                                   node: src.id, file: spec.file, at: e.location))
            return nil
        }
        if src.info.hasDynamicOutputs { return .named(e.from.port) }
        guard let p = e.from.port else { return .index(0) }
        guard let k = src.info.outputs.firstIndex(where: { $0.name == p }) else {
            problems.append(.error("node '\(src.id)' (\(src.info.name)) has no output '\(p)'; outputs: " + src.info.outputs.map(\.name).joined(separator: ", "),
                                   node: src.id, port: p, file: spec.file, at: e.location))
            return nil
        }
        return .index(k)
    }

    /// The input of node `v` that edge `e` reaches (named, or the only one), or nil (and a problem).
    func resolveInput(of v: Int, fedBy u: Int, _ e: GraphSpec.Edge, problems: inout [GraphDiagnostic]) -> String? {
        let dst = nodes[v]
        if dst.info.inputs.isEmpty {
            problems.append(.error("node '\(dst.id)' (\(dst.info.name)) is a source and takes no input, but '\(nodes[u].id)' is chained into it",
                                   node: dst.id, file: spec.file, at: e.location))
            return nil
        }
        if let p = e.to.port {
            guard dst.info.inputSpec(named: p) != nil else {
                var msg = "node '\(dst.id)' (\(dst.info.name)) has no input '\(p)'; inputs: " + dst.info.inputs.map { $0.repeatable ? "\($0.name), \($0.name)1, …" : $0.name }.joined(separator: ", ")
                if let near = ClosestName.find(p, in: dst.info.inputs.map(\.name)) { msg += " (did you mean '\(near)'?)" }
                problems.append(.error(msg, node: dst.id, port: p, file: spec.file, at: e.location))
                return nil
            }
            return p
        }
        // the only input, or the first of the only (repeatable) family: `in` of stack or shader
        if dst.info.inputs.count == 1 { return dst.info.inputs[0].name }
        // the only required input beside optional ones (`in` of subtitles, whose `subtitle` is optional)
        let required = dst.info.inputs.filter { !$0.optional }
        if required.count == 1 && !required[0].repeatable { return required[0].name }
        problems.append(.error("node '\(dst.id)' (\(dst.info.name)) has several inputs; name one, e.g. \"\(dst.id).\(dst.info.inputs[0].name)\"",
                               node: dst.id, file: spec.file, at: e.location))
        return nil
    }

    /// Phase 3: every required input is connected (errors) and every declared output is used
    /// (warnings: its buffers would be dropped). A port some chain tried and failed to reach
    /// already has its own error and is not reported again.
    mutating func checkConnections(problems: inout [GraphDiagnostic]) {
        let file = spec.file
        for (i, p) in nodes.enumerated() {
            let connected = edges.filter { $0.to == i }.map(\.input)
            let attempted = spec.edges.filter { $0.to.node == p.id }.map { $0.to.port ?? p.info.inputs.first?.name ?? "" }
            for s in p.info.inputs where !s.optional && !s.repeatable && !connected.contains(s.name) && !attempted.contains(s.name) {
                problems.append(.error("input '\(s.name)' of node '\(p.id)' (\(p.info.name)) is not connected (it accepts \(s.caps))",
                                       node: p.id, port: s.name, file: file, at: p.location))
            }
            if !p.info.inputs.isEmpty && connected.isEmpty && !p.info.inputs.contains(where: { !$0.optional && !$0.repeatable }) {
                problems.append(.error("node '\(p.id)' (\(p.info.name)) has no connected input; connect at least one of: " + p.info.inputs.map(\.name).joined(separator: ", "),
                                       node: p.id, file: file, at: p.location))
            }
            guard !p.info.hasDynamicOutputs else { continue }
            let used = Set(edges.filter { $0.from == i }.compactMap { if case .index(let k) = $0.output { return k } else { return nil } })
            let tried = spec.edges.filter { $0.from.node == p.id }.map { $0.from.port ?? p.info.outputs.first?.name ?? "" }
            for (k, port) in p.info.outputs.enumerated() where !used.contains(k) && !tried.contains(port.name) {
                warnings.append(.warning("output '\(port.name)' of node '\(p.id)' (\(p.info.name)) is connected nowhere; its buffers are dropped",
                                         node: p.id, port: port.name, file: file, at: p.location))
            }
        }
    }

    /// Phase 4: the order nodes are instantiated in, every producer before its consumers
    /// (Kahn's algorithm, taking ready nodes in file order). Each cycle is an error naming the
    /// nodes on it in order (`GraphCycles`); nodes that are only downstream of one, which Kahn's
    /// algorithm cannot place either, are on none and are not named.
    mutating func orderTopologically(problems: inout [GraphDiagnostic]) {
        var indegree = Array(repeating: 0, count: nodes.count)
        for e in edges { indegree[e.to] += 1 }
        var ready = (0..<nodes.count).filter { indegree[$0] == 0 }
        order = []
        while !ready.isEmpty {
            let n = ready.removeFirst()
            order.append(n)
            for e in edges where e.from == n {
                indegree[e.to] -= 1
                if indegree[e.to] == 0 { ready.append(e.to) }
            }
        }
        guard order.count < nodes.count else { return }
        for cycle in GraphCycles.find(count: nodes.count, edges: edges.map { ($0.from, $0.to) }) {
            let first = nodes[cycle.loop[0]]
            problems.append(.error("the graph has a cycle \(cycle.text { nodes[$0].id }); a graph must flow one way",
                                   node: first.id, file: spec.file, at: first.location))
        }
    }
}
