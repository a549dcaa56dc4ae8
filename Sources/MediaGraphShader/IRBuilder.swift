import MediaGraphShaderTiles

/// Builds the SSA list, folding constants, simplifying identities and reusing an identical earlier
/// value (value numbering) as it goes, so unrolled loops and inlined functions stay small.
///
/// It also keeps the compile budget: `work` counts every value asked for (found again or new)
/// and whatever the lowering charges, because value numbering can keep the result small while
/// inlining and unrolling multiply the work that produces it.
final class IRBuilder {
    private(set) var nodes: [Node] = []
    /// Per value: whether it depends only on constants and uniforms (a loop bounded by such a
    /// value is unrolled once the uniforms are bound).
    private var uniformOnly: [Bool] = []
    private var numbering: [Node: Int32] = [:]
    /// Cap on values so that a huge unrolled loop fails with an error instead of eating memory.
    static let maximumNodes = ShaderLimits.operations
    static let maximumWork = ShaderLimits.compileSteps
    var isTooLarge: Bool { nodes.count >= IRBuilder.maximumNodes }
    /// Compile steps taken so far.
    private(set) var work = 0
    /// Whether lowering must stop: too many operations or too many steps.
    var isOverBudget: Bool { nodes.count >= IRBuilder.maximumNodes || work >= IRBuilder.maximumWork }

    /// Counts `steps` units of work done outside the builder (lowering a statement, setting up a
    /// variable's components ...).
    func charge(_ steps: Int) { work += steps }

    subscript(id: Int32) -> Node { nodes[Int(id)] }

    func constantValue(_ id: Int32) -> Float? {
        let n = nodes[Int(id)]
        return n.op == .const ? n.imm : nil
    }

    func isConstant(_ id: Int32) -> Bool { nodes[Int(id)].op == .const }

    /// Whether value `id` depends only on constants and uniforms.
    func isUniformOnly(_ id: Int32) -> Bool { uniformOnly[Int(id)] }

    private func record(_ n: Node) {
        let flag: Bool
        switch n.op {
        case .const, .uniform: flag = true
        case .texture, .loadPixel, .channel, .opaque: flag = false
        default:
            let k = n.op.operandCount
            flag = k > 0 && (k < 1 || uniformOnly[Int(n.a)]) && (k < 2 || uniformOnly[Int(n.b)]) && (k < 3 || uniformOnly[Int(n.c)])
        }
        uniformOnly.append(flag)
    }

    private func append(_ n: Node) -> Int32 {
        work += 1
        if let existing = numbering[n] { return existing }
        let id = Int32(nodes.count)
        nodes.append(n)
        record(n)
        numbering[n] = id
        return id
    }

    func constant(_ v: Float) -> Int32 {
        // Float equality makes -0 and +0 one constant; shaders do not rely on the sign of zero.
        append(Node(op: .const, imm: v))
    }

    func source(_ op: Op, imm: Float = 0, imm2: Int32 = 0) -> Int32 {
        if op == .opaque {
            work += 1  // never merge two unknowns
            let id = Int32(nodes.count)
            nodes.append(Node(op: .opaque, imm2: id))
            uniformOnly.append(false)
            return id
        }
        return append(Node(op: op, imm: imm, imm2: imm2))
    }

    /// First of the four consecutive result values of `.texture` / `.loadPixel`.
    func multi(_ op: Op, _ a: Int32 = -1, _ b: Int32 = -1, imm: Float = 0, imm2: Int32 = 0, input: UInt8 = 0) -> [Int32] {
        let key = Node(op: op, a: a, b: b, imm: imm, imm2: imm2, input: input)
        work += 1
        if let first = numbering[key] { return (0..<4).map { first + Int32($0) } }
        let first = Int32(nodes.count)
        nodes.append(key)
        numbering[key] = first
        for i in 1..<4 { nodes.append(Node(op: .channel, a: first, imm2: Int32(i))) }
        uniformOnly.append(contentsOf: [false, false, false, false])
        return (0..<4).map { first + Int32($0) }
    }

    func emit(_ op: Op, _ a: Int32, _ b: Int32 = -1, _ c: Int32 = -1) -> Int32 {
        work += 1
        let ka = constantValue(a)
        let kb = b >= 0 ? constantValue(b) : nil
        switch op.operandCount {
        case 1:
            if let x = ka { return constant(ScalarMath.unary(op, x)) }
            if op == .neg, nodes[Int(a)].op == .neg { return nodes[Int(a)].a }
            if op == .not, nodes[Int(a)].op == .not { return emit(.ne, nodes[Int(a)].a, constant(0)) }
        case 2:
            if let x = ka, let y = kb { return constant(ScalarMath.binary(op, x, y)) }
            if op == .add || op == .sub, let shifted = texelShift(op, a, b) { return shifted }
            switch op {
            case .add:
                if kb == 0 { return a }
                if ka == 0 { return b }
            case .sub:
                if kb == 0 { return a }
                if ka == 0 { return emit(.neg, b) }
                if a == b { return constant(0) }
            case .mul:
                // x * 0 = 0 as GPU compilers fold it (NaN/inf inputs aside), so zero matrix
                // entries and zero weights cost nothing.
                if kb == 1 { return a }
                if ka == 1 { return b }
                if kb == 0 || ka == 0 { return constant(0) }
                if kb == -1 { return emit(.neg, a) }
                if ka == -1 { return emit(.neg, b) }
            case .div:
                if kb == 1 { return a }
            case .pow:
                if let k = kb, let power = constantPower(a, k) { return power }
            case .and:
                if let x = ka { return x != 0 ? bool(b) : constant(0) }
                if let y = kb { return y != 0 ? bool(a) : constant(0) }
                if a == b { return bool(a) }
            case .or:
                if let x = ka { return x != 0 ? constant(1) : bool(b) }
                if let y = kb { return y != 0 ? constant(1) : bool(a) }
                if a == b { return bool(a) }
            case .min, .max:
                if a == b { return a }
            default: break
            }
            if op.isCommutative && b < a { return append(Node(op: op, a: b, b: a)) }
        default:
            if let x = ka { return x != 0 ? b : c }
            if b == c { return b }
            // select(m, 1, 0) is m itself when m is already 0/1.
        }
        return append(Node(op: op, a: a, b: b, c: c))
    }

    /// A texture coordinate moved by whole texels, `textureCoordinate + vec2(texelWidth, 0.0)` or
    /// `+ float(i) * texelWidth` or `- -texelHeight` (a vertex stage's neighbours, a loop over offsets), is the
    /// coordinate of that texel: so sampling there stays an exact texel read, not a bilinear one.
    /// (The same value up to float rounding, well below what a sample of 8-bit texels shows.)
    private func texelShift(_ op: Op, _ a: Int32, _ b: Int32) -> Int32? {
        func steps(_ id: Int32, unit: Op) -> Float? {
            let n = nodes[Int(id)]
            if n.op == unit { return 1 }
            // -texelHeight: GPUImage's 3x3 vertex shader steps up and right with vec2(texelWidth, -texelHeight).
            if n.op == .neg { return steps(n.a, unit: unit).map { -$0 } }
            guard n.op == .mul else { return nil }
            let x = nodes[Int(n.a)], y = nodes[Int(n.b)]
            let k: Float
            if x.op == unit, y.op == .const { k = y.imm } else if y.op == unit, x.op == .const { k = x.imm } else { return nil }
            return k == k.rounded() && Swift.abs(k) <= 4096 ? k : nil
        }
        func shifted(_ coord: Int32, _ other: Int32, sign: Float) -> Int32? {
            let c = nodes[Int(coord)]
            let unit: Op
            switch c.op {
            case .coordX: unit = .texelWidth
            case .coordY: unit = .texelHeight
            default: return nil
            }
            guard let k = steps(other, unit: unit) else { return nil }
            let moved = c.imm + sign * k
            guard Swift.abs(moved) <= 65536 else { return nil }
            return source(c.op, imm: moved)
        }
        if op == .sub { return shifted(a, b, sign: -1) }
        return shifted(a, b, sign: 1) ?? shifted(b, a, sign: 1)
    }

    /// pow(x, k) for a constant k that multiplies or square roots give (GPUImage's GlassSphere
    /// takes pow(x, 15.0) and pow(x, 0.25)): x^n for whole n up to 16 by squaring, x^0.5 and
    /// x^0.25 by square roots. Cheaper than exp2(k log2 x), and as close to the exact power.
    private func constantPower(_ x: Int32, _ k: Float) -> Int32? {
        switch k {
        case 0.5: return emit(.sqrt, x)
        case 0.25: return emit(.sqrt, emit(.sqrt, x))
        case 2...16 where k == k.rounded():
            var n = Int(k), base = x
            var result: Int32?
            while n > 0 {
                if n & 1 == 1 { result = result.map { emit(.mul, $0, base) } ?? base }
                n >>= 1
                if n > 0 { base = emit(.mul, base, base) }
            }
            return result
        default: return nil
        }
    }

    /// `x` as a 0/1 value (comparisons and logic already are).
    func bool(_ x: Int32) -> Int32 {
        switch nodes[Int(x)].op {
        case .lt, .le, .eq, .ne, .and, .or, .not, .xor: return x
        case .const: return constant(nodes[Int(x)].imm != 0 ? 1 : 0)
        default: return emit(.ne, x, constant(0))
        }
    }
}
