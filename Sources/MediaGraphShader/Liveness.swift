import MediaGraphShaderTiles

/// Which SSA values the outputs need, walking back from them (a `.channel` result needs the
/// instruction it comes from). Specialization, scheduling and colour-map recognition all look
/// only at these.
enum Liveness {
    static func needed(_ nodes: [Node], by outputs: [Int32]) -> [Bool] {
        var live = [Bool](repeating: false, count: nodes.count)
        for o in outputs { live[Int(o)] = true }
        for i in stride(from: nodes.count - 1, through: 0, by: -1) where live[i] {
            let n = nodes[i]
            if n.op == .channel { live[Int(n.a)] = true; continue }
            let k = n.op.operandCount
            if k >= 1 { live[Int(n.a)] = true }
            if k >= 2 { live[Int(n.b)] = true }
            if k >= 3 { live[Int(n.c)] = true }
        }
        return live
    }
}
