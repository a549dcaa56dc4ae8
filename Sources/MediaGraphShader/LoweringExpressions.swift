import MediaGraphShaderTiles

/// Expressions: operators, swizzles, indexing, constructors, calls.
extension Lowering {
    func lowerExpression(_ e: Expr) -> Value {
        if b.isTooLarge { return .error }
        switch e.kind {
        case .intLiteral(let v): return Value(type: .int, ids: [b.constant(Float(v))])
        case .floatLiteral(let v): return Value(type: .float, ids: [b.constant(Float(v))])
        case .boolLiteral(let v): return Value(type: .bool, ids: [b.constant(v ? 1 : 0)])
        case .identifier(let name):
            guard let v = lookup(name) else {
                if ["gl_FragCoord", "gl_FragData", "gl_PointCoord", "gl_FrontFacing", "gl_MaxDrawBuffers"].contains(name) {
                    error(e.location, "unsupported feature: '\(name)'")
                } else if ShaderType.named(name) != nil {
                    error(e.location, "type name '\(name)' used as a value; did you mean '\(name)(...)'?")
                } else {
                    error(e.location, "use of undeclared identifier '\(name)'")
                }
                return .error
            }
            return Value(type: v.type, ids: v.ids)
        case .sequence(let l, let r):
            _ = lowerExpression(l)
            return lowerExpression(r)
        case .unary(let op, let x):
            return lowerUnary(op, x, e.location)
        case .postfix(let op, let x):
            guard let lv = lvalue(x), checkNumeric(lv.type, op, x.location) else { return .error }
            let old = lv.positions.map { lv.variable.ids[$0] }
            let one = b.constant(1)
            assign(lv, old.map { b.emit(op == "++" ? .add : .sub, $0, one) })
            return Value(type: lv.type, ids: old)
        case .binary(let op, let l, let r):
            return lowerBinary(op, l, r, e.location)
        case .assign(let op, let l, let r):
            let rv = lowerExpression(r)
            guard let lv = lvalue(l) else { return .error }
            if lv.variable.storage == .fragColor { fragColorWritten = true }  // no second error for it
            if rv.isError { return .error }
            var value = rv
            if op != "=" {
                value = arithmetic(String(op.dropLast()), Value(type: lv.type, ids: lv.positions.map { lv.variable.ids[$0] }), rv, e.location)
                if value.isError { return .error }
            }
            guard value.type == lv.type else {
                error(e.location, op == "=" ? "cannot assign a value of type \(value.type) to \(describe(l)) of type \(lv.type)"
                                            : "'\(op)' of \(lv.type) and \(rv.type) gives \(value.type), which cannot be stored in \(describe(l)) of type \(lv.type)")
                return .error
            }
            assign(lv, value.ids)
            return value
        case .ternary(let c, let x, let y):
            let cv = lowerExpression(c)
            if !cv.isError && cv.type != .bool { error(c.location, "condition of '?:' must be a bool, found \(cv.type)") }
            let cond = (cv.isError || cv.type != .bool) ? b.constant(1) : cv.ids[0]
            let xv = underMask(cond) { lowerExpression(x) }
            let yv = underMask(b.emit(.not, cond)) { lowerExpression(y) }
            if cv.isError || xv.isError || yv.isError || cv.type != .bool { return .error }
            guard xv.type == yv.type else {
                error(e.location, "the two results of '?:' have different types: \(xv.type) and \(yv.type)")
                return .error
            }
            if xv.type.isArray { error(e.location, "'?:' cannot select arrays"); return .error }
            return Value(type: xv.type, ids: zip(xv.ids, yv.ids).map { b.emit(.select, cond, $0, $1) })
        case .field(let base, let name, let loc):
            let v = lowerExpression(base)
            if v.isError { return .error }
            guard let positions = swizzle(name, of: v.type, at: loc, forWriting: false) else { return .error }
            return Value(type: ShaderType(v.type.scalar, size: positions.count), ids: positions.map { v.ids[$0] })
        case .index(let base, let indexExpr):
            let v = lowerExpression(base)
            let i = lowerExpression(indexExpr)
            if v.isError || i.isError { return .error }
            guard let (elementType, stride, count) = indexing(v.type, at: e.location) else { return .error }
            guard i.type == .int else { error(indexExpr.location, "index must be an int, found \(i.type)"); return .error }
            if let k = b.constantValue(i.ids[0]) {
                guard k >= 0 && Int(k) < count else {
                    error(indexExpr.location, "index \(Int(k)) is out of range for \(v.type) (0...\(count - 1))")
                    return .error
                }
                return Value(type: elementType, ids: Array(v.ids[Int(k) * stride ..< (Int(k) + 1) * stride]))
            }
            // A varying index: select among the elements (out of range reads element 0).
            var ids = Array(v.ids[0..<stride])
            for k in 1..<count {
                let hit = b.emit(.eq, i.ids[0], b.constant(Float(k)))
                for c in 0..<stride { ids[c] = b.emit(.select, hit, v.ids[k * stride + c], ids[c]) }
            }
            return Value(type: elementType, ids: ids)
        case .call(let name, let args):
            return lowerCall(name, args, e.location)
        }
    }

    /// Lowers `body` with the active lanes narrowed to `cond` (side effects in one branch of
    /// '?:', '&&', '||' happen only where that branch is taken).
    func underMask(_ cond: Int32, _ body: () -> Value) -> Value {
        if unmasked { return body() }
        let saved = frame.ifMask
        let outer = activeMask()
        frame.ifMask = outer.map { b.emit(.and, $0, cond) } ?? cond
        defer { frame.ifMask = saved }
        return body()
    }

    func describe(_ e: Expr) -> String {
        if case .identifier(let n) = e.kind { return "'\(n)'" }
        return "the target"
    }

    func checkNumeric(_ t: ShaderType, _ op: String, _ loc: ShaderSourceLocation) -> Bool {
        if t.isNumeric && t.scalar != .sampler { return true }
        error(loc, "operator '\(op)' needs an int or float operand (scalar, vector or matrix), found \(t)")
        return false
    }

    /// Element type, components per element and element count of an indexable type.
    func indexing(_ t: ShaderType, at loc: ShaderSourceLocation) -> (ShaderType, Int, Int)? {
        if t.isArray { return (t.element, t.element.componentCount, t.arrayLength) }
        if t.isMatrix { return (t.column, t.size, t.columns) }
        if t.isVector { return (t.componentType, 1, t.size) }
        error(loc, "cannot index a value of type \(t)")
        return nil
    }

    /// Component positions named by a swizzle like `xy`, `bgr` or `stp`.
    func swizzle(_ name: String, of t: ShaderType, at loc: ShaderSourceLocation, forWriting: Bool) -> [Int]? {
        guard t.isVector else {
            error(loc, t.isScalar ? "cannot swizzle a scalar (\(t)) in GLSL ES 1.00: '.\(name)'" : "type \(t) has no field '\(name)'")
            return nil
        }
        let sets = ["xyzw", "rgba", "stpq"].map(Array.init)
        let chars = Array(name)
        guard chars.count <= 4, let set = sets.first(where: { s in chars.allSatisfy { s.contains($0) } }) else {
            error(loc, "invalid swizzle '.\(name)': use up to four of xyzw, rgba or stpq, without mixing the sets")
            return nil
        }
        let positions = chars.map { set.firstIndex(of: $0)! }
        if let bad = positions.first(where: { $0 >= t.size }) {
            error(loc, "swizzle '.\(name)' reads component '\(set[bad])', but \(t) has only \(t.size) components")
            return nil
        }
        if forWriting && Set(positions).count != positions.count {
            error(loc, "cannot assign to swizzle '.\(name)': it names a component twice")
            return nil
        }
        return positions
    }

    /// Resolves an assignment target; reports why it is not one.
    func lvalue(_ e: Expr) -> LValue? {
        switch e.kind {
        case .identifier(let name):
            guard let v = lookup(name) else {
                error(e.location, "use of undeclared identifier '\(name)'")
                return nil
            }
            if let reason = v.readOnlyReason { error(e.location, reason); return nil }
            return LValue(variable: v, positions: Array(0..<v.type.componentCount), type: v.type)
        case .field(let base, let name, let loc):
            guard let lv = lvalue(base), let positions = swizzle(name, of: lv.type, at: loc, forWriting: true) else { return nil }
            return LValue(variable: lv.variable, positions: positions.map { lv.positions[$0] },
                          type: ShaderType(lv.type.scalar, size: positions.count))
        case .index(let base, let indexExpr):
            guard let lv = lvalue(base) else { return nil }
            let i = lowerExpression(indexExpr)
            if i.isError { return nil }
            guard let (elementType, stride, count) = indexing(lv.type, at: e.location) else { return nil }
            guard i.type == .int, let k = b.constantValue(i.ids[0]) else {
                error(indexExpr.location, "unsupported feature: assigning through a non-constant index (use a constant or a loop index)")
                return nil
            }
            guard k >= 0 && Int(k) < count else {
                error(indexExpr.location, "index \(Int(k)) is out of range for \(lv.type) (0...\(count - 1))")
                return nil
            }
            return LValue(variable: lv.variable, positions: Array(lv.positions[Int(k) * stride ..< (Int(k) + 1) * stride]), type: elementType)
        default:
            error(e.location, "expression is not assignable")
            return nil
        }
    }

    // MARK: operators

    private func lowerUnary(_ op: String, _ x: Expr, _ loc: ShaderSourceLocation) -> Value {
        if op == "++" || op == "--" {
            guard let lv = lvalue(x), checkNumeric(lv.type, op, x.location) else { return .error }
            let one = b.constant(1)
            let new = lv.positions.map { b.emit(op == "++" ? .add : .sub, lv.variable.ids[$0], one) }
            assign(lv, new)
            return Value(type: lv.type, ids: new)
        }
        let v = lowerExpression(x)
        if v.isError { return .error }
        switch op {
        case "-":
            guard checkNumeric(v.type, op, loc), !v.type.isArray else { return .error }
            return Value(type: v.type, ids: v.ids.map { b.emit(.neg, $0) })
        case "+":
            guard checkNumeric(v.type, op, loc), !v.type.isArray else { return .error }
            return v
        default:  // "!"
            guard v.type == .bool else { error(loc, "operator '!' needs a bool, found \(v.type); use not() for bvec"); return .error }
            return Value(type: .bool, ids: [b.emit(.not, v.ids[0])])
        }
    }

    private func lowerBinary(_ op: String, _ l: Expr, _ r: Expr, _ loc: ShaderSourceLocation) -> Value {
        if op == "&&" || op == "||" || op == "^^" {
            let lv = lowerExpression(l)
            let lid = (lv.isError || lv.type != .bool) ? b.constant(1) : lv.ids[0]
            let rv = op == "^^" ? lowerExpression(r) : underMask(op == "&&" ? lid : b.emit(.not, lid)) { lowerExpression(r) }
            if lv.isError || rv.isError { return .error }
            guard lv.type == .bool && rv.type == .bool else {
                error(loc, "operator '\(op)' needs bool operands, found \(lv.type) and \(rv.type)")
                return .error
            }
            let o: Op = op == "&&" ? .and : op == "||" ? .or : .xor
            return Value(type: .bool, ids: [b.emit(o, lv.ids[0], rv.ids[0])])
        }
        let lv = lowerExpression(l)
        let rv = lowerExpression(r)
        if lv.isError || rv.isError { return .error }
        switch op {
        case "<", ">", "<=", ">=":
            guard lv.type == rv.type, lv.type == .float || lv.type == .int else {
                error(loc, "operator '\(op)' needs two int or two float scalars, found \(lv.type) and \(rv.type); use lessThan() etc. for vectors")
                return .error
            }
            let (o, x, y): (Op, Int32, Int32) = switch op {
            case "<": (.lt, lv.ids[0], rv.ids[0])
            case ">": (.lt, rv.ids[0], lv.ids[0])
            case "<=": (.le, lv.ids[0], rv.ids[0])
            default: (.le, rv.ids[0], lv.ids[0])
            }
            return Value(type: .bool, ids: [b.emit(o, x, y)])
        case "==", "!=":
            guard lv.type == rv.type, !lv.type.isArray, lv.type.scalar != .sampler, lv.type.scalar != .void else {
                error(loc, "type mismatch: cannot compare \(lv.type) and \(rv.type) with '\(op)'")
                return .error
            }
            var all = b.constant(1)
            for (x, y) in zip(lv.ids, rv.ids) { all = b.emit(.and, all, b.emit(.eq, x, y)) }
            return Value(type: .bool, ids: [op == "==" ? all : b.emit(.not, all)])
        default:
            return arithmetic(op, lv, rv, loc)
        }
    }

    /// + - * / on scalars, vectors and matrices, with GLSL's shapes (no implicit int/float
    /// conversion, as in GLSL ES 1.00).
    func arithmetic(_ op: String, _ l: Value, _ r: Value, _ loc: ShaderSourceLocation) -> Value {
        let lt = l.type, rt = r.type
        guard lt.isNumeric, rt.isNumeric, lt.scalar == rt.scalar, !lt.isArray, !rt.isArray else {
            error(loc, "type mismatch: cannot apply '\(op)' to \(lt) and \(rt)")
            return .error
        }
        let o: Op = switch op { case "+": .add; case "-": .sub; case "*": .mul; default: .div }
        let isInt = lt.scalar == .int
        func apply(_ x: Int32, _ y: Int32) -> Int32 {
            let v = b.emit(o, x, y)
            return isInt && o == .div ? b.emit(.trunc, v) : v
        }
        if op == "*" && lt.isMatrix && rt.isMatrix && lt == rt {
            let n = lt.size
            var ids: [Int32] = []
            for col in 0..<n {
                for row in 0..<n { ids.append(dot((0..<n).map { l.ids[$0 * n + row] }, (0..<n).map { r.ids[col * n + $0] })) }
            }
            return Value(type: lt, ids: ids)
        }
        if op == "*" && lt.isMatrix && rt.isVector && rt.size == lt.size {
            let n = lt.size
            return Value(type: rt, ids: (0..<n).map { row in dot((0..<n).map { l.ids[$0 * n + row] }, r.ids) })
        }
        if op == "*" && lt.isVector && rt.isMatrix && lt.size == rt.size {
            let n = rt.size
            return Value(type: lt, ids: (0..<n).map { col in dot(l.ids, Array(r.ids[col * n ..< (col + 1) * n])) })
        }
        if lt == rt { return Value(type: lt, ids: zip(l.ids, r.ids).map { apply($0, $1) }) }
        if lt.isScalar { return Value(type: rt, ids: r.ids.map { apply(l.ids[0], $0) }) }
        if rt.isScalar { return Value(type: lt, ids: l.ids.map { apply($0, r.ids[0]) }) }
        error(loc, "type mismatch: cannot apply '\(op)' to \(lt) and \(rt)")
        return .error
    }

    func dot(_ x: [Int32], _ y: [Int32]) -> Int32 {
        var sum = b.emit(.mul, x[0], y[0])
        for i in 1..<x.count { sum = b.emit(.add, sum, b.emit(.mul, x[i], y[i])) }
        return sum
    }

    // MARK: calls

    private func lowerCall(_ name: String, _ argExprs: [Expr], _ loc: ShaderSourceLocation) -> Value {
        if let type = ShaderType.named(name) {
            let args = argExprs.map(lowerExpression)
            if args.contains(where: \.isError) { return .error }
            return construct(type, name: name, args, loc)
        }
        if let overloads = functions[name] {
            // out/inout arguments are resolved as targets, the others as values.
            let args = argExprs.map(lowerExpression)
            if args.contains(where: \.isError) { return .error }
            let types = args.map(\.type)
            guard let f = overloads.first(where: { $0.parameters.map(parameterType) == types }) else {
                let expected = overloads.map { "\(name)(" + $0.parameters.map { parameterType($0).description }.joined(separator: ", ") + ")" }
                if overloads.count == 1 && overloads[0].parameters.count != args.count {
                    error(loc, "wrong number of arguments to '\(name)': expected \(overloads[0].parameters.count), found \(args.count)")
                } else {
                    error(loc, "no matching function for call to \(name)(" + types.map(\.description).joined(separator: ", ") + "); candidates: " + expected.joined(separator: ", "))
                }
                return .error
            }
            var targets: [LValue?] = []
            for (p, a) in zip(f.parameters, argExprs) {
                if p.qualifier == .out || p.qualifier == .inout {
                    let lv = lvalue(a)
                    if lv == nil { return .error }
                    targets.append(lv)
                } else {
                    targets.append(nil)
                }
            }
            guard let body = f.body else {
                error(loc, "function '\(name)' is declared but never defined")
                return .error
            }
            let (value, outs) = inline(f, body: body, arguments: args, checkingOnly: false)
            for (i, t) in targets.enumerated() {
                if let t = t, i < outs.count, outs[i].count == t.positions.count { assign(t, outs[i]) }
            }
            return value
        }
        if Builtins.names.contains(name) {
            let args = argExprs.map(lowerExpression)
            if args.contains(where: \.isError) { return .error }
            return callBuiltin(name, args, loc)
        }
        if Builtins.unsupported.contains(name) {
            error(loc, "unsupported feature: built-in function '\(name)'")
        } else {
            error(loc, "use of undeclared function '\(name)'")
        }
        return .error
    }

    /// Converts component `x` of scalar kind `from` to kind `to` (GLSL constructor rules).
    func convert(_ x: Int32, from: ShaderType.Scalar, to: ShaderType.Scalar) -> Int32 {
        if from == to { return x }
        switch to {
        case .int: return from == .float ? b.emit(.trunc, x) : x
        case .bool: return b.bool(x)
        default: return x
        }
    }

    func construct(_ type: ShaderType, name: String, _ args: [Value], _ loc: ShaderSourceLocation) -> Value {
        if type.scalar == .void || type.scalar == .sampler {
            error(loc, "cannot construct a value of type \(type)")
            return .error
        }
        guard !args.isEmpty else { error(loc, "constructor '\(name)' needs at least one argument"); return .error }
        for a in args where !(a.type.isScalarOrVector || a.type.isMatrix) {
            error(loc, "constructor '\(name)' cannot take an argument of type \(a.type)")
            return .error
        }
        let n = type.componentCount
        let zero = b.constant(0), one = b.constant(1)
        if args.count == 1 && args[0].type.isScalar && n > 1 {
            let x = convert(args[0].ids[0], from: args[0].type.scalar, to: type.scalar)
            if type.isMatrix {  // diagonal matrix
                return Value(type: type, ids: (0..<n).map { $0 % (type.size + 1) == 0 ? x : zero })
            }
            return Value(type: type, ids: Array(repeating: x, count: n))
        }
        if type.isMatrix && args.count == 1 && args[0].type.isMatrix {
            let m = args[0].type.size, t = type.size
            var ids: [Int32] = []
            for col in 0..<t {
                for row in 0..<t {
                    ids.append(col < m && row < m ? args[0].ids[col * m + row] : (col == row ? one : zero))
                }
            }
            return Value(type: type, ids: ids)
        }
        if type.isMatrix && args.count > 1 && args.contains(where: { $0.type.isMatrix }) {
            error(loc, "constructor '\(name)' cannot mix a matrix with other arguments")
            return .error
        }
        var ids: [Int32] = []
        for (i, a) in args.enumerated() {
            if ids.count >= n {
                error(loc, "too many arguments to constructor '\(name)': argument \(i + 1) is not used")
                return .error
            }
            for x in a.ids where ids.count < n { ids.append(convert(x, from: a.type.scalar, to: type.scalar)) }
        }
        guard ids.count == n else {
            error(loc, "not enough data for constructor '\(name)': \(ids.count) components given, \(n) needed")
            return .error
        }
        return Value(type: type, ids: ids)
    }
}
