import MediaGraphShaderTiles

/// Type-checks the syntax tree and lowers it to SSA in one walk: every expression is checked as
/// it is lowered, errors are collected (an erroneous expression yields `Value.error`, which later
/// checks ignore so one mistake gives one message).
final class Lowering {
    let b = IRBuilder()
    var diagnostics: DiagnosticList
    var scopes: [[String: Variable]] = [[:]]
    var functions: [String: [FunctionDecl]] = [:]
    var frames: [Frame] = []
    var inlineStack: [String] = []
    var discardFlag: Int32?
    /// While set, assignments ignore masks (loop index updates in unrolled loops).
    var unmasked = false
    var fragColor: Variable!
    var fragColorWritten = false
    var uniforms: [ShaderUniform] = []
    var uniformSlotCount = 0
    var samplerName: String?
    var mainLocation = ShaderSourceLocation(line: 1, column: 1)

    static let maximumIterations = 1024
    /// Iterations of all loops together (nested empty loops emit nothing but still take time).
    static let maximumTotalIterations = 65_536
    var totalIterations = 0
    static let neighbourVaryings: [String: (Int, Int)] = [
        "textureCoordinate": (0, 0),
        "leftTextureCoordinate": (-1, 0), "rightTextureCoordinate": (1, 0),
        "topTextureCoordinate": (0, -1), "bottomTextureCoordinate": (0, 1),
        "topLeftTextureCoordinate": (-1, -1), "topRightTextureCoordinate": (1, -1),
        "bottomLeftTextureCoordinate": (-1, 1), "bottomRightTextureCoordinate": (1, 1),
    ]

    init(diagnostics: DiagnosticList) { self.diagnostics = diagnostics }

    func error(_ loc: ShaderSourceLocation, _ message: String) { diagnostics.error(loc, message) }

    // MARK: program

    func lower(_ items: [TopLevel]) {
        fragColor = Variable(name: "gl_FragColor", type: .vec(4), ids: Array(repeating: b.constant(0), count: 4),
                             storage: .fragColor, location: ShaderSourceLocation(line: 1, column: 1))
        scopes[0]["gl_FragColor"] = fragColor
        frames = [Frame(name: "", ifMask: nil, returnFlag: nil, returnType: .void, returnValue: [])]
        var mainDecl: FunctionDecl?
        for item in items {
            switch item {
            case .global(let g): declareGlobal(g)
            case .function(let f): declareFunction(f, isMain: &mainDecl)
            }
        }
        // Check every function body once on its own so errors in it are reported once, even
        // if it is never called; calls inline it again later with diagnostics muted.
        for item in items {
            guard case .function(let f) = item, let body = f.body, f.name != "main" else { continue }
            let saved = scopes[0].values.map { ($0, $0.ids) }
            let savedWritten = fragColorWritten
            let savedDiscard = discardFlag
            let args = f.parameters.map { p -> Value in
                let t = parameterType(p)
                return Value(type: t, ids: (0..<max(0, t.componentCount)).map { _ in b.source(.opaque) })
            }
            _ = inline(f, body: body, arguments: args, checkingOnly: true)
            for (v, ids) in saved { v.ids = ids }
            fragColorWritten = savedWritten
            discardFlag = savedDiscard
        }
        guard let main = mainDecl, let body = main.body else {
            error(ShaderSourceLocation(line: 1, column: 1), "shader has no 'void main()' function")
            return
        }
        mainLocation = main.location
        _ = inline(main, body: body, arguments: [], checkingOnly: true)
        if b.isTooLarge {
            error(main.location, "shader is too large after unrolling loops and inlining functions (more than \(IRBuilder.maximumNodes) operations)")
        } else if !fragColorWritten && !diagnostics.hasErrors {
            error(main.location, "shader never writes gl_FragColor")
        }
    }

    func parameterType(_ p: Parameter) -> ShaderType {
        guard var t = resolveType(p.type) else { return Value.error.type }
        if let size = p.arraySize { t = t.withArrayLength(arraySize(size)) }
        return t
    }

    private func declareFunction(_ f: FunctionDecl, isMain mainDecl: inout FunctionDecl?) {
        if Builtins.names.contains(f.name) {
            error(f.location, "cannot redefine built-in function '\(f.name)'")
            return
        }
        if ShaderType.named(f.name) != nil || f.name.hasPrefix("gl_") {
            error(f.location, "'\(f.name)' is a reserved name and cannot be a function name")
            return
        }
        guard let ret = resolveType(f.returnType) else { return }
        if f.name == "main" {
            if ret != .void || !f.parameters.isEmpty { error(f.location, "'main' must be declared 'void main()'") }
            if f.body != nil {
                if mainDecl != nil { error(f.location, "redefinition of 'main'") }
                mainDecl = f
            }
            return
        }
        let types = f.parameters.map(parameterType)
        var list = functions[f.name] ?? []
        if let i = list.firstIndex(where: { $0.parameters.map(parameterType) == types }) {
            if list[i].body != nil && f.body != nil {
                error(f.location, "redefinition of function '\(f.name)' (first defined at line \(list[i].location.line))")
                return
            }
            if resolveType(list[i].returnType) != ret {
                error(f.location, "function '\(f.name)' redeclared with a different return type")
            }
            if f.body != nil { list[i] = f }
        } else {
            list.append(f)
        }
        functions[f.name] = list
    }

    func resolveType(_ t: TypeSyntax) -> ShaderType? {
        guard var type = ShaderType.named(t.name) else {
            error(t.location, t.name == "samplerCube" ? "unsupported feature: 'samplerCube'" : "unknown type '\(t.name)'")
            return nil
        }
        if let size = t.arraySize { type = type.withArrayLength(arraySize(size)) }
        return type
    }

    /// A constant positive integer array size (1 after an error, to keep going).
    func arraySize(_ e: Expr) -> Int {
        let v = lowerExpression(e)
        if v.isError { return 1 }
        guard v.type == .int, let k = b.constantValue(v.ids[0]) else {
            error(e.location, "array size must be a constant integer expression")
            return 1
        }
        guard k >= 1 && k <= 4096 else {
            error(e.location, "array size must be between 1 and 4096, found \(Int(k))")
            return 1
        }
        return Int(k)
    }

    private func declareGlobal(_ g: GlobalDecl) {
        guard var base = resolveType(g.type) else { return }
        if base == .void { error(g.type.location, "variables cannot have type void"); return }
        for d in g.declarators {
            var type = base
            if let size = d.arraySize {
                if type.isArray { error(d.location, "arrays of arrays are not supported") }
                type = base.withArrayLength(arraySize(size))
            }
            if scopes[0][d.name] != nil || d.name.hasPrefix("gl_") {
                error(d.location, d.name.hasPrefix("gl_") ? "'\(d.name)' is a reserved name" : "redefinition of '\(d.name)'")
                continue
            }
            switch g.storage {
            case .attribute:
                error(g.location, "attribute variables exist only in vertex shaders; a fragment shader reads varyings")
                declarePlaceholder(d.name, type: type, at: d.location)
            case .varying:
                guard let (dx, dy) = Lowering.neighbourVaryings[d.name] else {
                    error(d.location, "unknown varying '\(d.name)': the filter provides only textureCoordinate and the 8 neighbour coordinates (leftTextureCoordinate, topRightTextureCoordinate, ...)")
                    declarePlaceholder(d.name, type: type, at: d.location)
                    continue
                }
                if type != .vec(2) { error(g.type.location, "varying '\(d.name)' must be a vec2, found \(type)"); continue }
                let ids = [b.source(.coordX, imm: Float(dx)), b.source(.coordY, imm: Float(dy))]
                scopes[0][d.name] = Variable(name: d.name, type: type, ids: ids, storage: .varying, location: d.location)
                if d.initializer != nil { error(d.location, "varying '\(d.name)' cannot have an initializer") }
            case .uniform:
                if d.initializer != nil { error(d.location, "uniform '\(d.name)' cannot have an initializer; set its value from the graph") }
                if type.scalar == .sampler {
                    if type.isArray { error(d.location, "unsupported feature: arrays of samplers"); continue }
                    if let other = samplerName {
                        error(d.location, "unsupported feature: a second texture '\(d.name)' (the filter has one input, '\(other)')")
                        continue
                    }
                    samplerName = d.name
                    scopes[0][d.name] = Variable(name: d.name, type: type, ids: [], storage: .sampler, location: d.location)
                    continue
                }
                if let provided = providedUniform(d.name, type: type, at: d.location) {
                    scopes[0][d.name] = Variable(name: d.name, type: type, ids: provided, storage: .provided, location: d.location)
                    continue
                }
                let ids = (0..<type.componentCount).map { b.source(.uniform, imm2: Int32(uniformSlotCount + $0)) }
                uniforms.append(ShaderUniform(name: d.name, type: type, slot: uniformSlotCount, location: d.location))
                uniformSlotCount += type.componentCount
                scopes[0][d.name] = Variable(name: d.name, type: type, ids: ids, storage: .uniform, location: d.location)
            case .const, .none:
                declareVariable(d, type: type, isConst: g.storage == .const, typeLocation: g.type.location)
            }
        }
        _ = base
        base = .void
    }

    /// Declares a variable after an error in its declaration, so its uses give no second error.
    private func declarePlaceholder(_ name: String, type: ShaderType, at loc: ShaderSourceLocation) {
        scopes[0][name] = Variable(name: name, type: type, ids: Array(repeating: b.constant(0), count: type.componentCount),
                                   storage: .varying, location: loc)
    }

    /// texelWidth, texelHeight and imageSize come from the frame when a shader declares them.
    private func providedUniform(_ name: String, type: ShaderType, at loc: ShaderSourceLocation) -> [Int32]? {
        let expected: ShaderType
        let ids: [Int32]
        switch name {
        case "texelWidth": expected = .float; ids = [b.source(.texelWidth)]
        case "texelHeight": expected = .float; ids = [b.source(.texelHeight)]
        case "imageSize": expected = .vec(2); ids = [b.source(.frameWidth), b.source(.frameHeight)]
        default: return nil
        }
        if type != expected {
            error(loc, "uniform '\(name)' is provided by the filter as \(expected), but is declared as \(type)")
        }
        return type == expected ? ids : Array(repeating: b.constant(0), count: type.componentCount)
    }

    /// Declares a local or global variable in the innermost scope.
    func declareVariable(_ d: VarDeclarator, type: ShaderType, isConst: Bool, typeLocation: ShaderSourceLocation) {
        if type.scalar == .sampler { error(typeLocation, "sampler variables must be uniforms"); return }
        if type.scalar == .void { error(typeLocation, "variables cannot have type void"); return }
        var ids = Array(repeating: b.constant(0), count: type.componentCount)
        if let initExpr = d.initializer {
            if type.isArray { error(initExpr.location, "unsupported feature: array initializers (GLSL ES 1.00 has none)") }
            let v = lowerExpression(initExpr)
            if !v.isError && !type.isArray {
                if v.type != type {
                    error(initExpr.location, "cannot initialize '\(d.name)' of type \(type) with a value of type \(v.type)")
                } else {
                    ids = v.ids
                    if isConst && !v.ids.allSatisfy(b.isConstant) {
                        error(initExpr.location, "const variable '\(d.name)' needs a constant initializer")
                    }
                }
            }
        } else if isConst {
            error(d.location, "const variable '\(d.name)' needs an initializer")
        }
        if scopes[scopes.count - 1][d.name] != nil {
            error(d.location, "redefinition of '\(d.name)'")
            return
        }
        if d.name.hasPrefix("gl_") { error(d.location, "'\(d.name)' is a reserved name"); return }
        scopes[scopes.count - 1][d.name] = Variable(name: d.name, type: type, ids: ids, storage: isConst ? .const : .local, location: d.location)
    }

    func lookup(_ name: String) -> Variable? {
        for scope in scopes.reversed() { if let v = scope[name] { return v } }
        return nil
    }

    // MARK: masks

    var frame: Frame {
        get { frames[frames.count - 1] }
        set { frames[frames.count - 1] = newValue }
    }

    /// Lanes that are executing at this point (nil: all of them).
    func activeMask() -> Int32? {
        if unmasked { return nil }
        var m = frame.ifMask
        func exclude(_ flag: Int32?) {
            guard let f = flag else { return }
            let keep = b.emit(.not, f)
            m = m.map { b.emit(.and, $0, keep) } ?? keep
        }
        exclude(discardFlag)
        exclude(frame.returnFlag)
        if let loop = frame.loops.last {
            exclude(loop.breakFlag)
            exclude(loop.continueFlag)
        }
        if let mm = m, let k = b.constantValue(mm), k != 0 { return nil }
        return m
    }

    /// Whether no lane executes here (code after an unconditional break/return/discard).
    func isDead() -> Bool {
        guard let m = activeMask() else { return false }
        return b.constantValue(m) == 0
    }

    /// Lanes in `flag` plus the active lanes.
    func setFlag(_ flag: Int32?) -> Int32 {
        guard let m = activeMask() else { return b.constant(1) }
        return flag.map { b.emit(.or, $0, m) } ?? m
    }

    func assign(_ lv: LValue, _ value: [Int32]) {
        if lv.variable.storage == .fragColor { fragColorWritten = true }
        let m = activeMask()
        for (k, p) in lv.positions.enumerated() {
            lv.variable.ids[p] = m.map { b.emit(.select, $0, value[k], lv.variable.ids[p]) } ?? value[k]
        }
    }

    // MARK: statements

    func lowerBlock(_ stmts: [Stmt]) {
        scopes.append([:])
        for s in stmts { lowerStatement(s) }
        scopes.removeLast()
    }

    func lowerStatement(_ s: Stmt) {
        if isDead() || b.isTooLarge { return }
        switch s {
        case .empty: break
        case .block(let stmts): lowerBlock(stmts)
        case .expression(let e): _ = lowerExpression(e)
        case .declaration(let isConst, let typeSyntax, let decls):
            guard let base = resolveType(typeSyntax) else { return }
            for d in decls {
                var type = base
                if let size = d.arraySize {
                    if type.isArray { error(d.location, "arrays of arrays are not supported") }
                    type = base.withArrayLength(arraySize(size))
                }
                declareVariable(d, type: type, isConst: isConst, typeLocation: typeSyntax.location)
            }
        case .ifElse(let condExpr, let thenS, let elseS, _):
            let c = lowerExpression(condExpr)
            if !c.isError && c.type != .bool {
                error(condExpr.location, "'if' condition must be a bool, found \(c.type)")
                return
            }
            let cond = c.isError ? b.constant(1) : c.ids[0]
            if let k = b.constantValue(cond) {  // decided at compile time: lower one branch only
                if k != 0 { scoped(thenS) } else if let e = elseS { scoped(e) }
                return
            }
            let saved = frame.ifMask
            let outer = activeMask()
            frame.ifMask = outer.map { b.emit(.and, $0, cond) } ?? cond
            scoped(thenS)
            if let e = elseS {
                let notCond = b.emit(.not, cond)
                frame.ifMask = outer.map { b.emit(.and, $0, notCond) } ?? notCond
                scoped(e)
            }
            frame.ifMask = saved
        case .forLoop(let initS, let condExpr, let step, let body, let loc):
            lowerFor(initS, condExpr, step, body, loc)
        case .whileLoop(let loc):
            error(loc, "unsupported feature: 'while' loop; use a for loop with constant bounds")
        case .doWhileLoop(let loc):
            error(loc, "unsupported feature: 'do-while' loop; use a for loop with constant bounds")
        case .breakStmt(let loc):
            guard !frame.loops.isEmpty else { error(loc, "'break' outside a loop"); return }
            let f = setFlag(frame.loops[frame.loops.count - 1].breakFlag)
            frame.loops[frame.loops.count - 1].breakFlag = f
        case .continueStmt(let loc):
            guard !frame.loops.isEmpty else { error(loc, "'continue' outside a loop"); return }
            let f = setFlag(frame.loops[frame.loops.count - 1].continueFlag)
            frame.loops[frame.loops.count - 1].continueFlag = f
        case .returnStmt(let e, let loc):
            var value: [Int32] = []
            // On an error the function still counts as returning: no second "does not return".
            defer { frame.returnFlag = setFlag(frame.returnFlag) }
            if let e = e {
                let v = lowerExpression(e)
                if v.isError { return }
                if frame.returnType == .void {
                    error(e.location, "void function '\(frame.name)' cannot return a value")
                    return
                }
                if v.type != frame.returnType {
                    error(e.location, "function '\(frame.name)' returns \(frame.returnType), but this returns \(v.type)")
                    return
                }
                value = v.ids
            } else if frame.returnType != .void && !frame.returnType.isError {
                error(loc, "function '\(frame.name)' must return a value of type \(frame.returnType)")
                return
            }
            let m = activeMask()
            for k in 0..<value.count {
                frame.returnValue[k] = m.map { b.emit(.select, $0, value[k], frame.returnValue[k]) } ?? value[k]
            }
        case .discard:
            discardFlag = setFlag(discardFlag)
        }
    }

    private func scoped(_ s: Stmt) {
        scopes.append([:])
        lowerStatement(s)
        scopes.removeLast()
    }

    /// Unrolls a for loop: the condition must be a compile-time constant at every iteration.
    private func lowerFor(_ initS: Stmt?, _ condExpr: Expr?, _ step: Expr?, _ body: Stmt, _ loc: ShaderSourceLocation) {
        scopes.append([:])
        defer { scopes.removeLast() }
        if let i = initS {
            if case .declaration = i {
                // The loop index lives in all lanes: lanes that skip the loop never read it.
                unmasked = true
                lowerStatement(i)
                unmasked = false
            } else {
                lowerStatement(i)
            }
        }
        guard let condExpr = condExpr else {
            error(loc, "for loop has no condition: loops need constant bounds (GLSL ES 1.00, Appendix A)")
            return
        }
        frames[frames.count - 1].loops.append(LoopState())
        defer { frames[frames.count - 1].loops.removeLast() }
        var iterations = 0
        while true {
            unmasked = true
            let c = lowerExpression(condExpr)
            unmasked = false
            if c.isError { return }
            guard c.type == .bool else { error(condExpr.location, "loop condition must be a bool, found \(c.type)"); return }
            guard let k = b.constantValue(c.ids[0]) else {
                error(condExpr.location, "loop condition is not a constant expression: loops need constant bounds and an index the body does not change (GLSL ES 1.00, Appendix A)")
                return
            }
            if k == 0 { return }
            if let brk = frame.loops.last?.breakFlag, b.constantValue(brk) == 1 { return }
            iterations += 1
            totalIterations += 1
            if iterations > Lowering.maximumIterations {
                error(loc, "loop does not end within \(Lowering.maximumIterations) iterations (infinite loop?)")
                return
            }
            if totalIterations > Lowering.maximumTotalIterations {
                let muted = diagnostics.muted
                diagnostics.muted = 0
                error(loc, "loops run more than \(Lowering.maximumTotalIterations) iterations in all once unrolled")
                diagnostics.muted = muted
                return
            }
            if b.isTooLarge { return }
            if case .declaration = body {} else { scoped(body) }
            frames[frames.count - 1].loops[frames[frames.count - 1].loops.count - 1].continueFlag = nil
            if let s = step {
                unmasked = true
                _ = lowerExpression(s)
                unmasked = false
            } else if iterations == 1 {
                // without a step the index never changes: the constant condition stays true
            }
        }
    }

    // MARK: functions

    /// Lowers a call to a user function by inlining its body. Arguments are already lowered.
    func inline(_ f: FunctionDecl, body: [Stmt], arguments: [Value], checkingOnly: Bool) -> (value: Value, outs: [[Int32]]) {
        let returnType = resolveTypeQuietly(f.returnType)
        if inlineStack.count >= 64 && !inlineStack.contains(f.name) {
            let muted = diagnostics.muted
            diagnostics.muted = 0
            error(f.location, "function calls nested more than 64 deep (at '\(f.name)')")
            diagnostics.muted = muted
        }
        if inlineStack.contains(f.name) || inlineStack.count >= 64 {  // recursion: reported by the call-graph check
            return (Value(type: returnType, ids: Array(repeating: b.constant(0), count: max(0, returnType.componentCount))), [])
        }
        inlineStack.append(f.name)
        if !checkingOnly { diagnostics.muted += 1 }
        let savedScopes = scopes
        let entryMask = frames.isEmpty ? nil : activeMask()
        let savedUnmasked = unmasked
        unmasked = false
        scopes = [scopes[0], [:]]
        for (p, a) in zip(f.parameters, arguments) {
            guard let name = p.name else { continue }
            let t = parameterType(p)
            let ids = p.qualifier == .out ? Array(repeating: b.constant(0), count: max(0, t.componentCount)) : a.ids
            scopes[1][name] = Variable(name: name, type: t, ids: ids, storage: p.isConst ? .constParameter : .local, location: p.location)
        }
        frames.append(Frame(name: f.name, ifMask: entryMask, returnFlag: nil, returnType: returnType,
                            returnValue: Array(repeating: b.constant(0), count: max(0, returnType.componentCount))))
        lowerBlock(body)
        let done = frames.removeLast()
        if returnType != .void && done.returnFlag == nil && !returnType.isError {
            error(f.location, "function '\(f.name)' does not return a value")
        }
        let outValues = f.parameters.map { p in p.name.flatMap { scopes[1][$0]?.ids } ?? [] }
        scopes = savedScopes
        unmasked = savedUnmasked
        if !checkingOnly { diagnostics.muted -= 1 }
        inlineStack.removeLast()
        return (Value(type: returnType, ids: done.returnValue), outValues)
    }

    func resolveTypeQuietly(_ t: TypeSyntax) -> ShaderType {
        diagnostics.muted += 1
        defer { diagnostics.muted -= 1 }
        return resolveType(t) ?? Value.error.type
    }
}

extension ShaderType {
    var isError: Bool { size < 0 }
}
