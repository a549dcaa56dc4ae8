import MediaGraphShaderTiles

/// The SSA of a shader scheduled for the kernel: values fixed for a frame (constants, uniforms,
/// anything computed only from them) go to `setup`, run once per frame; the rest go to `pixel`,
/// run for every tile of pixels, with registers reused as soon as a value is dead.
struct KernelCode {
    var setup: [Instruction] = []
    var pixel: [Instruction] = []
    var registerCount = 0
    /// Registers of gl_FragColor (after discard) r, g, b, a.
    var output: [Int32] = []

    init(nodes: [Node], outputs: [Int32]) {
        let count = nodes.count
        // Which values are fixed for a whole frame.
        var frameFixed = [Bool](repeating: false, count: count)
        for (i, n) in nodes.enumerated() {
            switch n.op {
            case .coordX, .coordY, .opaque, .texture, .loadPixel, .channel: frameFixed[i] = false
            default:
                if n.op.isFrameSource { frameFixed[i] = true; continue }
                let k = n.op.operandCount
                frameFixed[i] = (k < 1 || frameFixed[Int(n.a)]) && (k < 2 || frameFixed[Int(n.b)]) && (k < 3 || frameFixed[Int(n.c)])
            }
        }
        // Live values, walking back from the outputs.
        let live = Liveness.needed(nodes, by: outputs)
        var register = [Int32](repeating: -1, count: count)
        var next: Int32 = 0
        for i in 0..<count where live[i] && frameFixed[i] {
            register[i] = next
            next += 1
            let n = nodes[i]
            setup.append(Instruction(op: n.op, dst: next - 1, a: n.a >= 0 ? register[Int(n.a)] : -1,
                                     b: n.b >= 0 ? register[Int(n.b)] : -1, c: n.c >= 0 ? register[Int(n.c)] : -1,
                                     imm: n.imm, imm2: n.imm2))
        }
        // Last use of each per-pixel value; outputs stay live to the end.
        var lastUse = [Int](repeating: -1, count: count)
        for i in 0..<count where live[i] && !frameFixed[i] {
            let n = nodes[i]
            let k = n.op == .channel ? 0 : n.op.operandCount
            for (j, operand) in [n.a, n.b, n.c].prefix(k).enumerated() where !frameFixed[Int(operand)] {
                _ = j
                lastUse[Int(operand)] = i
            }
        }
        for o in outputs { lastUse[Int(o)] = Int.max }
        var free: [Int32] = []
        var highest = next
        func allocate() -> Int32 {
            if let r = free.popLast() { return r }
            highest += 1
            return highest - 1
        }
        var axes = AxisCacheSlots()
        for i in 0..<count where live[i] && !frameFixed[i] {
            let n = nodes[i]
            if n.op == .channel { continue }  // allocated with its instruction
            let k = n.op.operandCount
            let operands = [n.a, n.b, n.c].prefix(k).map { register[Int($0)] }
            // Operands dying here free their registers first: every instruction reads a lane
            // before it writes that lane, so a result may reuse an operand's register.
            for operand in Set([n.a, n.b, n.c].prefix(k)) where !frameFixed[Int(operand)] && lastUse[Int(operand)] == i {
                free.append(register[Int(operand)])
            }
            var inst = Instruction(op: n.op, dst: 0, a: operands.count > 0 ? operands[0] : -1,
                                   b: operands.count > 1 ? operands[1] : -1, c: operands.count > 2 ? operands[2] : -1,
                                   imm: n.imm, imm2: n.imm2, input: n.input)
            if n.op == .texture { inst.c = axes.code(u: n.a, v: n.b, input: n.input) }
            let results = n.op.resultCount
            var dsts: [Int32] = []
            for r in 0..<results {
                let id = i + r
                // A channel of a texture read nobody reads (alpha, mostly) is not computed: -1.
                if results == 4 && (!live[id] || lastUse[id] < 0) {
                    dsts.append(-1)
                    continue
                }
                let reg = allocate()
                register[id] = reg
                dsts.append(reg)
            }
            inst.dst = dsts[0]
            if results == 4 { inst.dst1 = dsts[1]; inst.dst2 = dsts[2]; inst.dst3 = dsts[3] }
            pixel.append(inst)
            for r in 0..<results where dsts[r] >= 0 && (!live[i + r] || lastUse[i + r] < 0) {
                if lastUse[i + r] != Int.max { free.append(register[i + r]) }  // result nobody reads
            }
        }
        registerCount = Int(highest)
        output = outputs.map { register[Int($0)] }
    }
}
