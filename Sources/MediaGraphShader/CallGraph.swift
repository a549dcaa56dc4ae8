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
        // Depth-first search; a call back into a function on the current path is a cycle.
        var state: [String: Int] = [:]  // 1 on the path, 2 done
        var path: [String] = []
        func visit(_ name: String) {
            state[name] = 1
            path.append(name)
            for (callee, loc) in calls[name] ?? [] where defined[callee] != nil {
                if state[callee] == 1 {
                    let cycle = path[path.lastIndex(of: callee)!...] + [callee]
                    let message = cycle.count == 2
                        ? "recursion is not supported: '\(callee)' calls itself"
                        : "recursion is not supported: " + cycle.map { "'\($0)'" }.joined(separator: " calls ")
                    diagnostics.error(loc, message)
                } else if state[callee] == nil {
                    visit(callee)
                }
            }
            path.removeLast()
            state[name] = 2
        }
        for name in defined.keys.sorted() where state[name] == nil { visit(name) }
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
