/// Finds recursion (GLSL ES forbids it) from which functions each function body calls.
enum CallGraph {
    static func reportRecursion(_ items: [TopLevel], into diagnostics: inout DiagnosticList) {
        var calls: [String: [(String, ShaderSourceLocation)]] = [:]
        var defined: [String: ShaderSourceLocation] = [:]
        for case .function(let f) in items {
            guard let body = f.body else { continue }
            defined[f.name] = defined[f.name] ?? f.location
            var list = calls[f.name] ?? []
            for s in body { collect(s, &list) }
            calls[f.name] = list
        }
        // Depth-first search with an explicit stack (a chain of many functions must not recurse
        // as deep); a call back into a function on the current path is a cycle.
        var state: [String: Int] = [:]  // 1 on the path, 2 done
        var path: [String] = []
        var pending: [(name: String, next: Int)] = []
        for root in defined.keys.sorted() where state[root] == nil {
            state[root] = 1
            path.append(root)
            pending.append((root, 0))
            while let top = pending.last {
                let edges = calls[top.name] ?? []
                guard top.next < edges.count else {
                    pending.removeLast()
                    path.removeLast()
                    state[top.name] = 2
                    continue
                }
                pending[pending.count - 1].next += 1
                let (callee, loc) = edges[top.next]
                guard defined[callee] != nil else { continue }
                if state[callee] == 1 {
                    diagnostics.error(loc, cycleMessage(Array(path[(path.lastIndex(of: callee) ?? 0)...]) + [callee]))
                } else if state[callee] == nil {
                    state[callee] = 1
                    path.append(callee)
                    pending.append((callee, 0))
                }
            }
        }
    }

    /// "'f' calls itself", or the functions of the cycle in order (the middle of a long one left out).
    private static func cycleMessage(_ cycle: [String]) -> String {
        if cycle.count == 2 { return "recursion is not supported: '\(cycle[0].clipped())' calls itself" }
        let names = cycle.count <= 8 ? cycle.map { "'\($0.clipped())'" }
            : cycle.prefix(4).map { "'\($0.clipped())'" } + ["... (\(cycle.count - 1) functions)"] + cycle.suffix(3).map { "'\($0.clipped())'" }
        return "recursion is not supported: " + names.joined(separator: " calls ")
    }

    private static func collect(_ s: Stmt, _ out: inout [(String, ShaderSourceLocation)]) {
        switch s {
        case .declaration(_, let t, let decls):
            if let e = t.arraySize { collect(e, &out) }
            for d in decls { if let e = d.initializer { collect(e, &out) } }
        case .expression(let e): collect(e, &out)
        case .block(let list): for x in list { collect(x, &out) }
        case .ifElse(let c, let a, let b, _):
            collect(c, &out); collect(a, &out); if let b = b { collect(b, &out) }
        case .forLoop(let i, let c, let st, let body, _):
            if let i = i { collect(i, &out) }
            if let c = c { collect(c, &out) }
            if let st = st { collect(st, &out) }
            collect(body, &out)
        case .returnStmt(let e, _): if let e = e { collect(e, &out) }
        default: break
        }
    }

    private static func collect(_ e: Expr, _ out: inout [(String, ShaderSourceLocation)]) {
        switch e.kind {
        case .call(let name, let args):
            out.append((name, e.location))
            for a in args { collect(a, &out) }
        case .unary(_, let x), .postfix(_, let x), .field(let x, _, _): collect(x, &out)
        case .binary(_, let x, let y), .assign(_, let x, let y), .index(let x, let y), .sequence(let x, let y):
            collect(x, &out); collect(y, &out)
        case .ternary(let x, let y, let z): collect(x, &out); collect(y, &out); collect(z, &out)
        default: break
        }
    }
}
