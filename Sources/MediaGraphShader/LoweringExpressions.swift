import MediaGraphShaderTiles

/// Expressions: operators, swizzles, indexing, constructors, calls.
///
/// The walk recurses once per level of the syntax tree (and again through inlined calls), up to
/// `ShaderLimits.inlinedNesting` levels, which must fit a thread's stack in debug builds too. So
/// the functions on that path only lower their operands and hand the values to `@inline(never)`
/// functions (`finish...`) that check types and emit: a level costs a few small frames.
extension Lowering {
    func lowerExpression(_ e: Expr) -> Value {
        defer { nesting -= 1 }
        guard enter(at: e.location) else { return .error }
        switch e.kind {
        case .intLiteral, .floatLiteral, .boolLiteral, .identifier:
            return lowerLeaf(e)
        case .sequence(let l, let r):
            _ = lowerExpression(l)
            return lowerExpression(r)
        case .unary(let op, let x):
            if op == "++" || op == "--" { return lowerIncrement(op, x, isPrefix: true) }
            return finishUnary(op, lowerExpression(x), e.location)
        case .postfix(let op, let x):
            return lowerIncrement(op, x, isPrefix: false)
        case .binary(let op, let l, let r):
            return lowerBinary(op, l, r, e.location)
        case .assign(let op, let l, let r):
            return lowerAssignment(op, l, r, e.location)
        case .ternary(let c, let x, let y):
            return lowerTernary(c, x, y, e.location)
        case .field(let base, let name, let loc):
            return finishField(lowerExpression(base), name, loc)
        case .index(let base, let indexExpr):
            return finishIndex(lowerExpression(base), lowerExpression(indexExpr), indexExpr.location, e.location)
        case .call(let name, let args):
            return lowerCall(name, args, e.location)
        }
    }

    @inline(never)
    private func lowerLeaf(_ e: Expr) -> Value {
        switch e.kind {
        case .intLiteral(let v): return Value(type: .int, ids: [b.constant(Float(v))])
        case .floatLiteral(let v): return Value(type: .float, ids: [b.constant(Float(v))])
        case .boolLiteral(let v): return Value(type: .bool, ids: [b.constant(v ? 1 : 0)])
        case .identifier(let name):
            guard let v = lookup(name) else {
                if stage == .vertex && name == "gl_FragColor" {
                    error(e.location, "gl_FragColor is written by the fragment stage, not the vertex stage")
                } else if ["gl_FragCoord", "gl_FragData", "gl_PointCoord", "gl_FrontFacing", "gl_MaxDrawBuffers"].contains(name) {
                    error(e.location, "unsupported feature: '\(name)'")
                } else if ShaderType.named(name) != nil {
                    error(e.location, "type name '\(name)' used as a value; did you mean '\(name)(...)'?")
                } else {
                    error(e.location, "use of undeclared identifier '\(name.clipped())'")
                }
                return .error
            }
            if v.storage == .unprovidedVarying {
                let provider = stage == .fragment && !vertexVaryings.isEmpty ? "the vertex stage does not write it" : "the filter provides only textureCoordinate (textureCoordinate2, ... for further inputs) and the 8 neighbour coordinates (leftTextureCoordinate, topRightTextureCoordinate, ...)"
                error(e.location, "unknown varying '\(name)': \(provider)")
                return .error
            }
            return Value(type: v.type, ids: v.ids)
        default:
            return .error
        }
    }

    /// `++x`, `--x`, `x++`, `x--`: the new value, or for postfix the old one.
    private func lowerIncrement(_ op: String, _ x: Expr, isPrefix: Bool) -> Value {
        guard let lv = lvalue(x) else { return .error }
        return finishIncrement(op, lv, isPrefix: isPrefix, x.location)
    }

    @inline(never)
    private func finishIncrement(_ op: String, _ lv: LValue, isPrefix: Bool, _ loc: ShaderSourceLocation) -> Value {
        guard checkNumeric(lv.type, op, loc) else { return .error }
        let old = lv.positions.map { lv.variable.ids[$0] }
        let one = b.constant(1)
        let new = old.map { b.emit(op == "++" ? .add : .sub, $0, one) }
        assign(lv, new)
        return Value(type: lv.type, ids: isPrefix ? new : old)
    }

    private func lowerAssignment(_ op: String, _ l: Expr, _ r: Expr, _ loc: ShaderSourceLocation) -> Value {
        let rv = lowerExpression(r)
        guard let lv = lvalue(l) else { return .error }
        return finishAssignment(op, lv, rv, l, loc)
    }

    @inline(never)
    private func finishAssignment(_ op: String, _ lv: LValue, _ rv: Value, _ l: Expr, _ loc: ShaderSourceLocation) -> Value {
        if lv.variable.storage == .fragColor { fragColorWritten = true }  // no second error for it
        if rv.isError { return .error }
        var value = rv
        if op != "=" {
            value = arithmetic(String(op.dropLast()), Value(type: lv.type, ids: lv.positions.map { lv.variable.ids[$0] }), rv, loc)
            if value.isError { return .error }
        }
        guard value.type == lv.type else {
            error(loc, op == "=" ? "cannot assign a value of type \(value.type) to \(describe(l)) of type \(lv.type)"
                                 : "'\(op)' of \(lv.type) and \(rv.type) gives \(value.type), which cannot be stored in \(describe(l)) of type \(lv.type)")
            return .error
        }
        assign(lv, value.ids)
        return value
    }

    private func lowerTernary(_ c: Expr, _ x: Expr, _ y: Expr, _ loc: ShaderSourceLocation) -> Value {
        let cv = lowerExpression(c)
        let cond = ternaryCondition(cv, c.location)
        let xv = underMask(cond) { lowerExpression(x) }
        let yv = underMask(b.emit(.not, cond)) { lowerExpression(y) }
        return finishTernary(cv, cond, xv, yv, loc)
    }

    @inline(never)
    private func ternaryCondition(_ cv: Value, _ loc: ShaderSourceLocation) -> Int32 {
        if !cv.isError && cv.type != .bool { error(loc, "condition of '?:' must be a bool, found \(cv.type)") }
        return (cv.isError || cv.type != .bool) ? b.constant(1) : cv.ids[0]
    }

    @inline(never)
    private func finishTernary(_ cv: Value, _ cond: Int32, _ xv: Value, _ yv: Value, _ loc: ShaderSourceLocation) -> Value {
        if cv.isError || xv.isError || yv.isError || cv.type != .bool { return .error }
        guard xv.type == yv.type else {
            error(loc, "the two results of '?:' have different types: \(xv.type) and \(yv.type)")
            return .error
        }
        if xv.type.isArray { error(loc, "'?:' cannot select arrays"); return .error }
        return Value(type: xv.type, ids: zip(xv.ids, yv.ids).map { b.emit(.select, cond, $0, $1) })
    }

    @inline(never)
    private func finishField(_ v: Value, _ name: String, _ loc: ShaderSourceLocation) -> Value {
        if v.isError { return .error }
        guard let positions = swizzle(name, of: v.type, at: loc, forWriting: false) else { return .error }
        return Value(type: ShaderType(v.type.scalar, size: positions.count), ids: positions.map { v.ids[$0] })
    }

    @inline(never)
    private func finishIndex(_ v: Value, _ i: Value, _ indexLocation: ShaderSourceLocation, _ loc: ShaderSourceLocation) -> Value {
        if v.isError || i.isError { return .error }
        guard let (elementType, stride, count) = indexing(v.type, at: loc) else { return .error }
        guard i.type == .int else { error(indexLocation, "index must be an int, found \(i.type)"); return .error }
        if let k = b.constantValue(i.ids[0]) {
            guard let n = Lowering.index(k, below: count) else {
                error(indexLocation, "index \(Lowering.describe(k)) is out of range for \(v.type) (0...\(count - 1))")
                return .error
            }
            return Value(type: elementType, ids: Array(v.ids[n * stride ..< (n + 1) * stride]))
        }
        // A varying index: select among the elements (out of range reads element 0).
        var ids = Array(v.ids[0..<stride])
        for k in 1..<count {
            let hit = b.emit(.eq, i.ids[0], b.constant(Float(k)))
            for c in 0..<stride { ids[c] = b.emit(.select, hit, v.ids[k * stride + c], ids[c]) }
        }
        return Value(type: elementType, ids: ids)
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
        defer { nesting -= 1 }
        guard enter(at: e.location) else { return nil }
        switch e.kind {
        case .identifier(let name):
            return variableTarget(name, e.location)
        case .field(let base, let name, let loc):
            guard let lv = lvalue(base) else { return nil }
            return fieldTarget(lv, name, loc)
        case .index(let base, let indexExpr):
            guard let lv = lvalue(base) else { return nil }
            return indexTarget(lv, lowerExpression(indexExpr), indexExpr.location, e.location)
        default:
            error(e.location, "expression is not assignable")
            return nil
        }
    }

    @inline(never)
    private func variableTarget(_ name: String, _ loc: ShaderSourceLocation) -> LValue? {
        guard let v = lookup(name) else {
            error(loc, "use of undeclared identifier '\(name.clipped())'")
            return nil
        }
        if let reason = v.readOnlyReason { error(loc, reason); return nil }
        return LValue(variable: v, positions: Array(0..<v.type.componentCount), type: v.type)
    }

    @inline(never)
    private func fieldTarget(_ lv: LValue, _ name: String, _ loc: ShaderSourceLocation) -> LValue? {
        guard let positions = swizzle(name, of: lv.type, at: loc, forWriting: true) else { return nil }
        return LValue(variable: lv.variable, positions: positions.map { lv.positions[$0] },
                      type: ShaderType(lv.type.scalar, size: positions.count))
    }

    @inline(never)
    private func indexTarget(_ lv: LValue, _ i: Value, _ indexLocation: ShaderSourceLocation, _ loc: ShaderSourceLocation) -> LValue? {
        if i.isError { return nil }
        guard let (elementType, stride, count) = indexing(lv.type, at: loc) else { return nil }
        guard i.type == .int, let k = b.constantValue(i.ids[0]) else {
            error(indexLocation, "unsupported feature: assigning through a non-constant index (use a constant or a loop index)")
            return nil
        }
        guard let n = Lowering.index(k, below: count) else {
            error(indexLocation, "index \(Lowering.describe(k)) is out of range for \(lv.type) (0...\(count - 1))")
            return nil
        }
        return LValue(variable: lv.variable, positions: Array(lv.positions[n * stride ..< (n + 1) * stride]), type: elementType)
    }

    // MARK: operators

    @inline(never)
    private func finishUnary(_ op: String, _ v: Value, _ loc: ShaderSourceLocation) -> Value {
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
            return finishLogical(op, lv, rv, loc)
        }
        return finishBinary(op, lowerExpression(l), lowerExpression(r), loc)
    }

    @inline(never)
    private func finishLogical(_ op: String, _ lv: Value, _ rv: Value, _ loc: ShaderSourceLocation) -> Value {
        if lv.isError || rv.isError { return .error }
        guard lv.type == .bool && rv.type == .bool else {
            error(loc, "operator '\(op)' needs bool operands, found \(lv.type) and \(rv.type)")
            return .error
        }
        let o: Op = op == "&&" ? .and : op == "||" ? .or : .xor
        return Value(type: .bool, ids: [b.emit(o, lv.ids[0], rv.ids[0])])
    }

    @inline(never)
    private func finishBinary(_ op: String, _ lv: Value, _ rv: Value, _ loc: ShaderSourceLocation) -> Value {
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

    /// Constructors, user functions (inlined) and built-ins; arguments are lowered first.
    private func lowerCall(_ name: String, _ argExprs: [Expr], _ loc: ShaderSourceLocation) -> Value {
        let type = ShaderType.named(name)
        let overloads = functions[name]
        guard type != nil || overloads != nil || Builtins.names.contains(name) else { return unknownFunction(name, loc) }
        var args: [Value] = []
        args.reserveCapacity(argExprs.count)
        for a in argExprs { args.append(lowerExpression(a)) }
        if args.contains(where: \.isError) { return .error }
        if let type { return construct(type, name: name, args, loc) }
        if let overloads { return callUserFunction(name, overloads, args, argExprs, loc) }
        return callBuiltin(name, args, loc)
    }

    @inline(never)
    private func unknownFunction(_ name: String, _ loc: ShaderSourceLocation) -> Value {
        if Builtins.unsupported.contains(name) {
            error(loc, "unsupported feature: built-in function '\(name)'")
        } else {
            error(loc, "use of undeclared function '\(name.clipped())'")
        }
        return .error
    }

    /// Inlines the overload the argument types select; out/inout arguments are resolved as
    /// targets (the others were lowered as values) and assigned the results.
    private func callUserFunction(_ name: String, _ overloads: [UserFunction], _ args: [Value], _ argExprs: [Expr],
                                  _ loc: ShaderSourceLocation) -> Value {
        b.charge(overloads.count)
        guard let function = overloads.first(where: { $0.parameterTypes.elementsEqual(args.lazy.map(\.type)) }) else {
            return noMatchingOverload(name, overloads, args, loc)
        }
        let f = function.decl
        var targets: [LValue?] = []
        for (p, a) in zip(f.parameters, argExprs) {
            if p.qualifier == .out || p.qualifier == .inout {
                guard let lv = lvalue(a) else { return .error }
                targets.append(lv)
            } else {
                targets.append(nil)
            }
        }
        guard f.body != nil else {
            error(loc, "function '\(name)' is declared but never defined")
            return .error
        }
        let (value, outs) = inline(function, arguments: args, checkingOnly: false)
        for (i, t) in targets.enumerated() {
            if let t = t, i < outs.count, outs[i].count == t.positions.count { assign(t, outs[i]) }
        }
        return value
    }

    @inline(never)
    private func noMatchingOverload(_ name: String, _ overloads: [UserFunction], _ args: [Value], _ loc: ShaderSourceLocation) -> Value {
        let expected = overloads.prefix(8).map { "\(name)(" + $0.parameterTypes.map(\.description).joined(separator: ", ") + ")" }
            + (overloads.count > 8 ? ["... (\(overloads.count) in all)"] : [])
        if overloads.count == 1 && overloads[0].parameterTypes.count != args.count {
            error(loc, "wrong number of arguments to '\(name)': expected \(overloads[0].parameterTypes.count), found \(args.count)")
        } else {
            error(loc, "no matching function for call to \(name)(" + args.map(\.type.description).joined(separator: ", ") + "); candidates: " + expected.joined(separator: ", "))
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

    @inline(never)
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
