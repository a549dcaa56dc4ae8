import MediaGraphShaderTiles

/// The GLSL ES 1.00 built-in functions the language supports, lowered to lane operations.
enum Builtins {
    static let unary: [String: Op] = ["sin": .sin, "cos": .cos, "tan": .tan, "asin": .asin, "acos": .acos,
        "exp": .exp, "log": .log, "exp2": .exp2, "log2": .log2, "sqrt": .sqrt, "inversesqrt": .rsqrt,
        "abs": .abs, "sign": .sign, "floor": .floor, "ceil": .ceil, "fract": .fract]
    static let names: Set<String> = Set(unary.keys).union(["radians", "degrees", "atan", "pow", "mod", "min", "max",
        "clamp", "mix", "step", "smoothstep", "length", "distance", "dot", "cross", "normalize", "reflect", "refract",
        "faceforward", "matrixCompMult", "lessThan", "lessThanEqual", "greaterThan", "greaterThanEqual", "equal",
        "notEqual", "any", "all", "not", "texture2D"])
    static let unsupported: Set<String> = ["texture2DProj", "texture2DLod", "texture2DProjLod", "textureCube",
        "textureCubeLod", "dFdx", "dFdy", "fwidth", "texture", "round", "trunc", "transpose", "inverse", "determinant",
        "outerProduct", "sinh", "cosh", "tanh", "isnan", "isinf"]

    static let argumentCounts: [String: ClosedRange<Int>] = ["atan": 1...2, "pow": 2...2, "mod": 2...2, "min": 2...2,
        "max": 2...2, "clamp": 3...3, "mix": 3...3, "step": 2...2, "smoothstep": 3...3, "length": 1...1,
        "distance": 2...2, "dot": 2...2, "cross": 2...2, "normalize": 1...1, "reflect": 2...2, "refract": 3...3,
        "faceforward": 3...3, "matrixCompMult": 2...2, "lessThan": 2...2, "lessThanEqual": 2...2, "greaterThan": 2...2,
        "greaterThanEqual": 2...2, "equal": 2...2, "notEqual": 2...2, "any": 1...1, "all": 1...1, "not": 1...1,
        "texture2D": 2...3, "radians": 1...1, "degrees": 1...1]
}

extension Lowering {
    private func isGen(_ t: ShaderType) -> Bool { t.scalar == .float && (t.isScalar || t.isVector) }

    private func signature(_ name: String, _ args: [Value]) -> String {
        "\(name)(" + args.map { $0.type.description }.joined(separator: ", ") + ")"
    }

    @inline(never)
    func callBuiltin(_ name: String, _ args: [Value], _ loc: ShaderSourceLocation) -> Value {
        let range = Builtins.argumentCounts[name] ?? 1...1
        guard range.contains(args.count) else {
            let expected = range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound) or \(range.upperBound)"
            error(loc, "wrong number of arguments to '\(name)': expected \(expected), found \(args.count)")
            return .error
        }
        func mismatch() -> Value {
            error(loc, "no matching overload for \(signature(name, args))")
            return .error
        }
        let t0 = args[0].type
        let x = args[0].ids
        // Broadcasts a float argument to the size of the generic type.
        func gen(_ i: Int, size: Int) -> [Int32]? {
            let a = args[i]
            if a.type == .vec(size) || (size == 1 && a.type == .float) { return a.ids }
            if a.type == .float { return Array(repeating: a.ids[0], count: size) }
            return nil
        }
        func map(_ f: (Int) -> Int32) -> Value { Value(type: t0, ids: (0..<t0.size).map(f)) }

        if let op = Builtins.unary[name] {
            guard isGen(t0) else { return mismatch() }
            return map { b.emit(op, x[$0]) }
        }
        switch name {
        case "radians", "degrees":
            guard isGen(t0) else { return mismatch() }
            let k = b.constant(name == "radians" ? Float.pi / 180 : 180 / Float.pi)
            return map { b.emit(.mul, x[$0], k) }
        case "atan":
            guard isGen(t0) else { return mismatch() }
            if args.count == 1 { return map { b.emit(.atan, x[$0]) } }
            guard args[1].type == t0 else { return mismatch() }
            return map { b.emit(.atan2, x[$0], args[1].ids[$0]) }
        case "pow", "mod", "min", "max", "step":
            // step(edge, x) generalises on its second argument; the rest on their first.
            let genIndex = name == "step" ? 1 : 0
            let t = args[genIndex].type
            guard isGen(t) else { return mismatch() }
            guard let a = gen(0, size: t.size), let c = gen(1, size: t.size),
                  name == "pow" ? args[1].type == t : (args[1 - genIndex].type == t || args[1 - genIndex].type == .float) else { return mismatch() }
            let ids: [Int32] = (0..<t.size).map { i in
                switch name {
                case "pow": return b.emit(.pow, a[i], c[i])
                case "mod": return b.emit(.mod, a[i], c[i])
                case "min": return b.emit(.min, a[i], c[i])
                case "max": return b.emit(.max, a[i], c[i])
                default: return b.emit(.not, b.emit(.lt, c[i], a[i]))  // x < edge ? 0 : 1
                }
            }
            return Value(type: t, ids: ids)
        case "clamp":
            guard isGen(t0), let lo = gen(1, size: t0.size), let hi = gen(2, size: t0.size),
                  args[1].type == args[2].type else { return mismatch() }
            return map { b.emit(.min, b.emit(.max, x[$0], lo[$0]), hi[$0]) }
        case "mix":
            guard isGen(t0), args[1].type == t0, let a = gen(2, size: t0.size) else { return mismatch() }
            let y = args[1].ids
            let one = b.constant(1)
            // x * (1 - a) + y * a, as the GLSL specification defines it.
            return map { b.emit(.add, b.emit(.mul, x[$0], b.emit(.sub, one, a[$0])), b.emit(.mul, y[$0], a[$0])) }
        case "smoothstep":
            let t = args[2].type
            guard isGen(t), let e0 = gen(0, size: t.size), let e1 = gen(1, size: t.size),
                  args[0].type == args[1].type else { return mismatch() }
            let v = args[2].ids
            let zero = b.constant(0), one = b.constant(1), two = b.constant(2), three = b.constant(3)
            return Value(type: t, ids: (0..<t.size).map { i in
                let s = b.emit(.div, b.emit(.sub, v[i], e0[i]), b.emit(.sub, e1[i], e0[i]))
                let c = b.emit(.min, b.emit(.max, s, zero), one)
                return b.emit(.mul, b.emit(.mul, c, c), b.emit(.sub, three, b.emit(.mul, two, c)))
            })
        case "length":
            guard isGen(t0) else { return mismatch() }
            return Value(type: .float, ids: [t0.size == 1 ? b.emit(.abs, x[0]) : b.emit(.sqrt, dot(x, x))])
        case "distance":
            guard isGen(t0), args[1].type == t0 else { return mismatch() }
            let d = (0..<t0.size).map { b.emit(.sub, x[$0], args[1].ids[$0]) }
            return Value(type: .float, ids: [t0.size == 1 ? b.emit(.abs, d[0]) : b.emit(.sqrt, dot(d, d))])
        case "dot":
            guard isGen(t0), args[1].type == t0 else { return mismatch() }
            return Value(type: .float, ids: [dot(x, args[1].ids)])
        case "cross":
            guard t0 == .vec(3), args[1].type == .vec(3) else { return mismatch() }
            let y = args[1].ids
            func c(_ i: Int, _ j: Int) -> Int32 { b.emit(.sub, b.emit(.mul, x[i], y[j]), b.emit(.mul, x[j], y[i])) }
            return Value(type: t0, ids: [c(1, 2), c(2, 0), c(0, 1)])
        case "normalize":
            guard isGen(t0) else { return mismatch() }
            if t0.size == 1 { return map { _ in b.emit(.sign, x[0]) } }
            let inv = b.emit(.rsqrt, dot(x, x))
            return map { b.emit(.mul, x[$0], inv) }
        case "reflect":
            guard isGen(t0), args[1].type == t0 else { return mismatch() }
            let n = args[1].ids
            let k = b.emit(.mul, b.constant(2), dot(n, x))
            return map { b.emit(.sub, x[$0], b.emit(.mul, k, n[$0])) }
        case "refract":
            guard isGen(t0), args[1].type == t0, args[2].type == .float else { return mismatch() }
            let n = args[1].ids, eta = args[2].ids[0]
            let one = b.constant(1), zero = b.constant(0)
            let d = dot(n, x)
            let k = b.emit(.sub, one, b.emit(.mul, b.emit(.mul, eta, eta), b.emit(.sub, one, b.emit(.mul, d, d))))
            let s = b.emit(.add, b.emit(.mul, eta, d), b.emit(.sqrt, b.emit(.max, k, zero)))
            let negative = b.emit(.lt, k, zero)
            return map { b.emit(.select, negative, zero, b.emit(.sub, b.emit(.mul, eta, x[$0]), b.emit(.mul, s, n[$0]))) }
        case "faceforward":
            guard isGen(t0), args[1].type == t0, args[2].type == t0 else { return mismatch() }
            let facing = b.emit(.lt, dot(args[2].ids, args[1].ids), b.constant(0))
            return map { b.emit(.select, facing, x[$0], b.emit(.neg, x[$0])) }
        case "matrixCompMult":
            guard t0.isMatrix, args[1].type == t0 else { return mismatch() }
            return Value(type: t0, ids: zip(x, args[1].ids).map { b.emit(.mul, $0, $1) })
        case "lessThan", "lessThanEqual", "greaterThan", "greaterThanEqual", "equal", "notEqual":
            let allowsBool = name == "equal" || name == "notEqual"
            guard t0.isVector, args[1].type == t0, t0.scalar != .bool || allowsBool else { return mismatch() }
            let y = args[1].ids
            let ids: [Int32] = (0..<t0.size).map { i in
                switch name {
                case "lessThan": return b.emit(.lt, x[i], y[i])
                case "lessThanEqual": return b.emit(.le, x[i], y[i])
                case "greaterThan": return b.emit(.lt, y[i], x[i])
                case "greaterThanEqual": return b.emit(.le, y[i], x[i])
                case "equal": return b.emit(.eq, x[i], y[i])
                default: return b.emit(.ne, x[i], y[i])
                }
            }
            return Value(type: .vector(.bool, t0.size), ids: ids)
        case "any", "all":
            guard t0.isVector, t0.scalar == .bool else { return mismatch() }
            return Value(type: .bool, ids: [x.dropFirst().reduce(x[0]) { b.emit(name == "any" ? .or : .and, $0, $1) }])
        case "not":
            guard t0.isVector, t0.scalar == .bool else { return mismatch() }
            return map { b.emit(.not, x[$0]) }
        case "texture2D":
            guard t0.scalar == .sampler, args[1].type == .vec(2), args.count == 2 || args[2].type == .float else { return mismatch() }
            let input = args[0].ids.first.flatMap(b.constantValue).flatMap { Lowering.index($0, below: ShaderLimits.inputs) } ?? 0
            return Value(type: .vec(4), ids: sample(args[1].ids[0], args[1].ids[1], input: UInt8(input)))
        default:
            return mismatch()
        }
    }

    /// texture2D: an exact texel read when the coordinate is a texel centre the kernel knows
    /// (textureCoordinate and its neighbours), a bilinear sample otherwise.
    private func sample(_ u: Int32, _ v: Int32, input: UInt8) -> [Int32] {
        let nu = b[u], nv = b[v]
        if nu.op == .coordX && nv.op == .coordY {
            return b.multi(.loadPixel, imm: nu.imm, imm2: Int32(nv.imm), input: input)
        }
        return b.multi(.texture, u, v, input: input)
    }
}
