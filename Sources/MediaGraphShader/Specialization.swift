import MediaGraphShaderTiles

/// Rebuilds the SSA with the bound uniform values as constants, so the builder's folding and
/// identities see them (sepia with intensity 1 loses its mix; a branch on a uniform becomes
/// straight code). Only values the outputs need are copied. Slots in `live` stay uniforms, read
/// per frame from the kernel's uniform array (`ShaderKernel.setUniform`).
enum Specialization {
    static func specialize(nodes: [Node], outputs: [Int32], uniforms: [Float], live liveSlots: Set<Int> = []) -> (nodes: [Node], outputs: [Int32]) {
        let live = Liveness.needed(nodes, by: outputs)
        let b = IRBuilder()
        var map = [Int32](repeating: -1, count: nodes.count)
        for (i, n) in nodes.enumerated() where live[i] {
            switch n.op {
            case .uniform:
                let slot = Int(n.imm2)
                map[i] = liveSlots.contains(slot) ? b.source(.uniform, imm2: n.imm2) : b.constant(slot < uniforms.count ? uniforms[slot] : 0)
            case .const:
                map[i] = b.constant(n.imm)
            case .channel:
                if map[Int(n.a)] >= 0 { map[i] = map[Int(n.a)] + n.imm2 }
            case .texture:
                map[i] = b.multi(.texture, map[Int(n.a)], map[Int(n.b)], input: n.input)[0]
            case .loadPixel:
                map[i] = b.multi(.loadPixel, imm: n.imm, imm2: n.imm2, input: n.input)[0]
            default:
                switch n.op.operandCount {
                case 0: map[i] = b.source(n.op, imm: n.imm, imm2: n.imm2)
                case 1: map[i] = b.emit(n.op, map[Int(n.a)])
                case 2: map[i] = b.emit(n.op, map[Int(n.a)], map[Int(n.b)])
                default: map[i] = b.emit(n.op, map[Int(n.a)], map[Int(n.b)], map[Int(n.c)])
                }
            }
        }
        return (b.nodes, outputs.map { map[Int($0)] })
    }
}
