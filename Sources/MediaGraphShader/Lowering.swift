import MediaGraphShaderTiles

/// Type-checks the syntax tree and lowers it to SSA in one walk: every expression is checked as
/// it is lowered, errors are collected (an erroneous expression yields `Value.error`, which later
/// checks ignore so one mistake gives one message).
///
/// Bounded on any input: its recursion by `nesting` (`ShaderLimits.inlinedNesting`), its work by
/// the builder's budget (`ShaderLimits.compileSteps`), which every expression and statement
/// lowered and every bulk copy is charged to, and which is checked at each of them.
final class Lowering {
    let b: IRBuilder
    /// Which stage this is: a vertex stage declares attributes and writes varyings (and
    /// gl_Position, which is ignored); a fragment stage writes gl_FragColor.
    let stage: ShaderStage
    /// With a vertex stage: its varyings' values (per pixel), which the fragment stage reads.
    var vertexVaryings: [String: Variable] = [:]
    var diagnostics: DiagnosticList
    var scopes: [[String: Variable]] = [[:]]
    var functions: [String: [UserFunction]] = [:]
    /// Signatures of the function items, by index in the translation unit (resolved once).
    var signatures: [Int: UserFunction] = [:]
    /// Expressions, statements and assignment targets being lowered, inlined calls included.
    var nesting = 0
    /// Set once a budget or nesting limit has been reported: lowering then unwinds.
    var stopped = false
    /// While a function is checked on its own: the values of the globals it assigns, before
    /// each assignment (restored in reverse afterwards).
    var globalWrites: [(Variable, [Int32])]?
    /// The last place lowering entered (for statements that record none).
    var here = ShaderSourceLocation(line: 1, column: 1)
    var frames: [Frame] = []
    var inlineStack: [String] = []
    var discardFlag: Int32?
    /// While set, assignments ignore masks (loop index updates in unrolled loops).
    var unmasked = false
    var fragColor: Variable!
    var fragColorWritten = false
    var uniforms: [ShaderUniform] = []
    var uniformSlotCount = 0
    /// Names of the input textures by input index (`inputImageTexture` is input 0,
    /// `inputImageTexture2` input 1, ...; other names take the next free input).
    var samplerNames: [String?] = []
    /// The bound uniform values (by slot) when the shader is lowered again at bind time: uniforms
    /// are then constants, so loops bounded by them unroll. Nil for the first compile.
    var uniformValues: [Float]?
    /// Loops whose condition depends on uniforms (found by the first compile): unrolled only once
    /// the values are bound, under the same iteration cap, with an error that says so.
    var uniformBoundLoops: Set<ShaderSourceLocation> = []
    var mainLocation = ShaderSourceLocation(line: 1, column: 1)

    static let maximumIterations = ShaderLimits.loopIterations
    /// Iterations of all loops together (nested empty loops emit nothing but still take time).
    static let maximumTotalIterations = ShaderLimits.totalLoopIterations
    var totalIterations = 0
    static let neighbourVaryings: [String: (Int, Int)] = [
        "textureCoordinate": (0, 0),
        "leftTextureCoordinate": (-1, 0), "rightTextureCoordinate": (1, 0),
        "topTextureCoordinate": (0, -1), "bottomTextureCoordinate": (0, 1),
        "topLeftTextureCoordinate": (-1, -1), "topRightTextureCoordinate": (1, -1),
        "bottomLeftTextureCoordinate": (-1, 1), "bottomRightTextureCoordinate": (1, 1),
    ]

    init(diagnostics: DiagnosticList, stage: ShaderStage = .fragment, builder: IRBuilder = IRBuilder()) {
        self.diagnostics = diagnostics
        self.stage = stage
        self.b = builder
    }

    func error(_ loc: ShaderSourceLocation, _ message: String) { diagnostics.error(loc, message) }

    /// Whether lowering may go on at `loc`: false once the operation cap or the compile budget
    /// is exceeded (reported here, once, at the place it happened).
    func withinBudget(at loc: ShaderSourceLocation) -> Bool {
        if stopped { return false }
        guard b.isOverBudget else { return true }
        stopped = true
        if b.isTooLarge {
            diagnostics.limitError(loc, "shader is too large after unrolling loops and inlining functions (more than \(IRBuilder.maximumNodes) operations)")
        } else {
            diagnostics.limitError(loc, "shader takes more than \(IRBuilder.maximumWork) compile steps: functions are inlined or loops unrolled too many times")
        }
        return false
    }

    /// Enters one level of nesting at `loc` (callers leave it with `nesting -= 1`); false, after
    /// reporting it once, beyond `ShaderLimits.inlinedNesting` or the budget.
    func enter(at loc: ShaderSourceLocation) -> Bool {
        here = loc
        nesting += 1
        b.charge(1)
        if nesting > ShaderLimits.inlinedNesting && !stopped {
            stopped = true
            diagnostics.limitError(loc, "code nested more than \(ShaderLimits.inlinedNesting) levels deep once functions are inlined")
        }
        return withinBudget(at: loc)
    }

    // MARK: program

    func lower(_ items: [TopLevel]) {
        fragColor = Variable(name: "gl_FragColor", type: .vec(4), ids: Array(repeating: b.constant(0), count: 4),
                             storage: .fragColor, location: ShaderSourceLocation(line: 1, column: 1))
        fragColor.isGlobal = true
        if stage == .fragment {
            scopes[0]["gl_FragColor"] = fragColor
        } else {
            declareVertexOutputs()
        }
        frames = [Frame(name: "", ifMask: nil, returnFlag: nil, returnType: .void, returnValue: [])]
        var mainDecl: FunctionDecl?
        for (index, item) in items.enumerated() {
            switch item {
            case .global(let g): guard withinBudget(at: g.location) else { return }
            case .function(let f): guard withinBudget(at: f.location) else { return }
            }
            switch item {
            case .global(let g): declareGlobal(g)
            case .function(let f): declareFunction(f, index: index, isMain: &mainDecl)
            }
        }
        // Check every function body once on its own so errors in it are reported once, even
        // if it is never called; calls inline it again later with diagnostics muted.
        for (index, item) in items.enumerated() {
            guard case .function(let f) = item, f.body != nil, f.name != "main" else { continue }
            guard withinBudget(at: f.location) else { return }
            let function = signature(of: f, index: index)
            // Globals the body assigns are put back afterwards (journaled by `assign`: copying
            // every global for every function would be quadratic).
            globalWrites = []
            let savedWritten = fragColorWritten
            let savedDiscard = discardFlag
            let args = function.parameterTypes.map { t -> Value in
                b.charge(max(0, t.componentCount))
                return Value(type: t, ids: (0..<max(0, t.componentCount)).map { _ in b.source(.opaque) })
            }
            _ = inline(function, arguments: args, checkingOnly: true)
            for (v, ids) in (globalWrites ?? []).reversed() { v.ids = ids }
            globalWrites = nil
            fragColorWritten = savedWritten
            discardFlag = savedDiscard
        }
        guard let main = mainDecl, main.body != nil else {
            error(ShaderSourceLocation(line: 1, column: 1), "shader has no 'void main()' function")
            return
        }
        mainLocation = main.location
        _ = inline(UserFunction(decl: main, parameterTypes: [], returnType: .void), arguments: [], checkingOnly: true)
        if stage == .fragment && withinBudget(at: main.location) && !fragColorWritten && !diagnostics.hasErrors {
            error(main.location, "shader never writes gl_FragColor")
        }
    }

    /// The signature of the function item at `index`, resolved once (errors in its types are
    /// reported the first time).
    func signature(of f: FunctionDecl, index: Int) -> UserFunction {
        if let known = signatures[index] { return known }
        b.charge(f.parameters.count)
        let function = UserFunction(decl: f, parameterTypes: f.parameters.map(parameterType),
                                    returnType: resolveTypeQuietly(f.returnType))
        signatures[index] = function
        return function
    }

    func parameterType(_ p: Parameter) -> ShaderType {
        guard var t = resolveType(p.type) else { return Value.error.type }
        if let size = p.arraySize { t = t.withArrayLength(arraySize(size)) }
        return t
    }

    private func declareFunction(_ f: FunctionDecl, index: Int, isMain mainDecl: inout FunctionDecl?) {
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
        let function = signature(of: f, index: index)
        var list = functions[f.name] ?? []
        b.charge(list.count)
        if let i = list.firstIndex(where: { $0.parameterTypes == function.parameterTypes }) {
            if list[i].decl.body != nil && f.body != nil {
                error(f.location, "redefinition of function '\(f.name)' (first defined at line \(list[i].decl.location.line))")
                return
            }
            if list[i].returnType != ret {
                error(f.location, "function '\(f.name)' redeclared with a different return type")
            }
            if f.body != nil { list[i] = function }
        } else {
            list.append(function)
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
        guard let n = Lowering.index(k, below: ShaderLimits.arrayLength + 1), n >= 1 else {
            error(e.location, "array size must be between 1 and \(ShaderLimits.arrayLength), found \(Lowering.describe(k))")
            return 1
        }
        return n
    }

    /// A constant as an index in 0..<count, or nil: NaN, infinities, fractions and values out of
    /// range are never converted to Int (which would trap, or worse without checks).
    static func index(_ k: Float, below count: Int) -> Int? {
        guard k >= 0, k < Float(count), k == k.rounded(.towardZero) else { return nil }
        return Int(k)
    }

    /// A constant as a message shows it: whole numbers without ".0", others as Float prints them.
    static func describe(_ k: Float) -> String {
        k.isFinite && k == k.rounded(.towardZero) && Swift.abs(k) < 1e15 ? String(Int64(k)) : String(describing: k)
    }

    private func declareGlobal(_ g: GlobalDecl) {
        guard var base = resolveType(g.type) else { return }
        if base == .void { error(g.type.location, "variables cannot have type void"); return }
        for d in g.declarators {
            guard withinBudget(at: d.location) else { return }
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
            case .attribute where stage == .vertex:
                declareAttribute(d, type: type)
            case .varying where stage == .vertex:
                declareVertexVarying(d, type: type)
            case .varying where vertexVaryings[d.name] != nil:
                linkVarying(d, type: type)
            case .attribute:
                error(g.location, "attribute variables exist only in vertex shaders; a fragment shader reads varyings")
                declarePlaceholder(d.name, type: type, at: d.location)
            case .varying:
                guard let (dx, dy) = Lowering.neighbourVaryings[d.name] ?? Lowering.inputCoordinate(d.name) else {
                    // As a GPU links them: declaring a varying nothing provides is fine, using it is
                    // the error (GPUImage declares some it never reads).
                    b.charge(type.componentCount)
                    scopes[0][d.name] = Variable(name: d.name, type: type, ids: Array(repeating: b.constant(0), count: type.componentCount),
                                                 storage: .unprovidedVarying, location: d.location)
                    continue
                }
                if type != .vec(2) { error(g.type.location, "varying '\(d.name)' must be a vec2, found \(type)"); continue }
                let ids = [b.source(.coordX, imm: Float(dx)), b.source(.coordY, imm: Float(dy))]
                scopes[0][d.name] = Variable(name: d.name, type: type, ids: ids, storage: .varying, location: d.location)
                if d.initializer != nil { error(d.location, "varying '\(d.name)' cannot have an initializer") }
            case .uniform:
                if d.initializer != nil { error(d.location, "uniform '\(d.name)' cannot have an initializer; set its value from the graph") }
                if type.scalar == .sampler && stage == .vertex {
                    error(d.location, "the vertex stage cannot sample textures; sample them in the fragment stage")
                    continue
                }
                if type.scalar == .sampler {
                    if type.isArray { error(d.location, "unsupported feature: arrays of samplers"); continue }
                    guard let input = inputIndex(forSampler: d.name, at: d.location) else { continue }
                    // The sampler's one value is its input index (texture2D reads it).
                    scopes[0][d.name] = Variable(name: d.name, type: type, ids: [b.constant(Float(input))], storage: .sampler,
                                                 location: d.location)
                    continue
                }
                if let provided = providedUniform(d.name, type: type, at: d.location) {
                    scopes[0][d.name] = Variable(name: d.name, type: type, ids: provided, storage: .provided, location: d.location)
                    continue
                }
                if let shared = uniforms.first(where: { $0.name == d.name }) {
                    // Declared by the vertex stage too: the same uniform, the same slots.
                    guard shared.type == type else {
                        error(d.location, "uniform '\(d.name)' is \(type) here but \(shared.type) in the vertex stage")
                        declarePlaceholder(d.name, type: type, at: d.location)
                        continue
                    }
                    let ids = (0..<type.componentCount).map { k -> Int32 in
                        let slot = shared.slot + k
                        if let values = uniformValues { return b.constant(slot < values.count ? values[slot] : 0) }
                        return b.source(.uniform, imm2: Int32(slot))
                    }
                    scopes[0][d.name] = Variable(name: d.name, type: type, ids: ids, storage: .uniform, location: d.location)
                    continue
                }
                if type.componentCount > ShaderLimits.uniformComponents - uniformSlotCount {
                    error(d.location, "uniform '\(d.name)' (\(type)) goes over the \(ShaderLimits.uniformComponents) uniform components a shader may declare")
                    declarePlaceholder(d.name, type: type, at: d.location)
                    continue
                }
                b.charge(type.componentCount)
                let ids = (0..<type.componentCount).map { k -> Int32 in
                    let slot = uniformSlotCount + k
                    if let values = uniformValues { return b.constant(slot < values.count ? values[slot] : 0) }
                    return b.source(.uniform, imm2: Int32(slot))
                }
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

    /// `textureCoordinate2` ... `textureCoordinate8`: the further inputs' coordinates, the same
    /// normalised position as `textureCoordinate` (each input is sampled with its own size).
    static func inputCoordinate(_ name: String) -> (Int, Int)? {
        guard name.hasPrefix("textureCoordinate"), let k = Int(name.dropFirst("textureCoordinate".count)),
              k >= 2, k <= ShaderLimits.inputs else { return nil }
        return (0, 0)
    }

    /// The input a sampler reads: `inputImageTexture` 0, `inputImageTextureN` N - 1, any other
    /// name the first input not taken yet; nil (after the error) past `ShaderLimits.inputs`.
    private func inputIndex(forSampler name: String, at loc: ShaderSourceLocation) -> Int? {
        var index: Int
        let prefix = "inputImageTexture"
        if name == prefix {
            index = 0
        } else if name.hasPrefix(prefix), let k = Int(name.dropFirst(prefix.count)), k >= 2 {
            guard k <= ShaderLimits.inputs else {
                error(loc, "texture '\(name.clipped())' would be input \(k): a shader reads at most \(ShaderLimits.inputs) input textures")
                return nil
            }
            index = k - 1
        } else {
            index = samplerNames.firstIndex(where: { $0 == nil }) ?? samplerNames.count
        }
        if index >= ShaderLimits.inputs {
            error(loc, "texture '\(name.clipped())' would be input \(index + 1): a shader reads at most \(ShaderLimits.inputs) input textures")
            return nil
        }
        while samplerNames.count <= index { samplerNames.append(nil) }
        if let other = samplerNames[index] {
            error(loc, "textures '\(other)' and '\(name.clipped())' both read input \(index + 1)")
            return nil
        }
        samplerNames[index] = name
        return index
    }

    /// Declares a variable after an error in its declaration, so its uses give no second error.
    func declarePlaceholder(_ name: String, type: ShaderType, at loc: ShaderSourceLocation) {
        b.charge(type.componentCount)
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
        // GPUImage's Sharpen filter sets these to 1 / width and 1 / height.
        case "imageWidthFactor": expected = .float; ids = [b.source(.texelWidth)]
        case "imageHeightFactor": expected = .float; ids = [b.source(.texelHeight)]
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
        b.charge(type.componentCount)
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
        let variable = Variable(name: d.name, type: type, ids: ids, storage: isConst ? .const : .local, location: d.location)
        variable.isGlobal = scopes.count == 1
        scopes[scopes.count - 1][d.name] = variable
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
        if lv.variable.isGlobal && globalWrites != nil { globalWrites?.append((lv.variable, lv.variable.ids)) }
        let m = activeMask()
        for (k, p) in lv.positions.enumerated() {
            lv.variable.ids[p] = m.map { b.emit(.select, $0, value[k], lv.variable.ids[p]) } ?? value[k]
        }
    }

    // MARK: statements

    func lowerBlock(_ stmts: [Stmt]) {
        scopes.append([:])
        for s in stmts where !stopped { lowerStatement(s) }
        scopes.removeLast()
    }

    /// Lowers one statement. Like `lowerExpression`, the functions on the recursive path (blocks,
    /// if/else, loops) stay small; the rest is in `@inline(never)` functions.
    func lowerStatement(_ s: Stmt) {
        defer { nesting -= 1 }
        guard enter(at: s.location ?? here), !isDead() else { return }
        switch s {
        case .empty: break
        case .block(let stmts): lowerBlock(stmts)
        case .expression(let e): _ = lowerExpression(e)
        case .declaration(let isConst, let typeSyntax, let decls):
            lowerDeclaration(isConst: isConst, typeSyntax, decls)
        case .ifElse(let condExpr, let thenS, let elseS, _):
            lowerIf(condExpr, thenS, elseS)
        case .forLoop(let initS, let condExpr, let step, let body, let loc):
            lowerFor(initS, condExpr, step, body, loc)
        case .returnStmt(let e, let loc):
            lowerReturn(e.map(lowerExpression), e?.location, loc)
        case .whileLoop, .doWhileLoop, .breakStmt, .continueStmt, .discard:
            lowerJump(s)
        }
    }

    @inline(never)
    private func lowerDeclaration(isConst: Bool, _ typeSyntax: TypeSyntax, _ decls: [VarDeclarator]) {
        guard let base = resolveType(typeSyntax) else { return }
        for d in decls {
            guard withinBudget(at: d.location) else { return }
            var type = base
            if let size = d.arraySize {
                if type.isArray { error(d.location, "arrays of arrays are not supported") }
                type = base.withArrayLength(arraySize(size))
            }
            declareVariable(d, type: type, isConst: isConst, typeLocation: typeSyntax.location)
        }
    }

    private func lowerIf(_ condExpr: Expr, _ thenS: Stmt, _ elseS: Stmt?) {
        guard let cond = ifCondition(lowerExpression(condExpr), condExpr.location) else { return }
        if let k = b.constantValue(cond) {  // decided at compile time: lower one branch only
            if k != 0 { scoped(thenS) } else if let e = elseS { scoped(e) }
            return
        }
        let saved = frame.ifMask
        let outer = activeMask()
        frame.ifMask = narrowed(outer, cond)
        scoped(thenS)
        if let e = elseS {
            frame.ifMask = narrowed(outer, b.emit(.not, cond))
            scoped(e)
        }
        frame.ifMask = saved
    }

    /// The condition's value, or nil (after the error) when it is not a bool.
    @inline(never)
    private func ifCondition(_ c: Value, _ loc: ShaderSourceLocation) -> Int32? {
        if !c.isError && c.type != .bool {
            error(loc, "'if' condition must be a bool, found \(c.type)")
            return nil
        }
        return c.isError ? b.constant(1) : c.ids[0]
    }

    /// The lanes of `outer` (nil: all) where `cond` holds.
    func narrowed(_ outer: Int32?, _ cond: Int32) -> Int32 {
        outer.map { b.emit(.and, $0, cond) } ?? cond
    }

    @inline(never)
    private func lowerReturn(_ v: Value?, _ valueLocation: ShaderSourceLocation?, _ loc: ShaderSourceLocation) {
        var value: [Int32] = []
        // On an error the function still counts as returning: no second "does not return".
        defer { frame.returnFlag = setFlag(frame.returnFlag) }
        if let v = v {
            if v.isError { return }
            let at = valueLocation ?? loc
            if frame.returnType == .void {
                error(at, "void function '\(frame.name)' cannot return a value")
                return
            }
            if v.type != frame.returnType {
                error(at, "function '\(frame.name)' returns \(frame.returnType), but this returns \(v.type)")
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
    }

    /// break, continue, discard, and the loops GLSL ES 1.00 does not have.
    @inline(never)
    private func lowerJump(_ s: Stmt) {
        switch s {
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
        case .discard(let loc) where stage == .vertex:
            error(loc, "'discard' is for the fragment stage, not the vertex stage")
        case .discard:
            discardFlag = setFlag(discardFlag)
        default:
            break
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
            if isUniformBound(c) {
                checkUniformBoundLoop(c.ids[0], step, body, loc)
                return
            }
            guard loopContinues(c, condExpr.location) else { return }
            iterations += 1
            guard countIteration(iterations, loc) else { return }
            if case .declaration = body {} else { scoped(body) }
            frames[frames.count - 1].loops[frames[frames.count - 1].loops.count - 1].continueFlag = nil
            if let s = step {
                // without a step the index never changes: the constant condition stays true
                unmasked = true
                _ = lowerExpression(s)
                unmasked = false
            }
        }
    }

    /// Whether a loop condition depends on uniforms (and constants) only, before they are bound.
    private func isUniformBound(_ c: Value) -> Bool {
        uniformValues == nil && !c.isError && c.type == .bool && !b.isConstant(c.ids[0]) && b.isUniformOnly(c.ids[0])
    }

    /// A loop bounded by a uniform (GPUImage's Kuwahara: `j <= radius`), met before the values
    /// are known: its body is checked once, under the condition, and the program is lowered
    /// again when the uniforms are bound, which unrolls it (`ShaderProgram.bind`).
    @inline(never)
    private func checkUniformBoundLoop(_ cond: Int32, _ step: Expr?, _ body: Stmt, _ loc: ShaderSourceLocation) {
        uniformBoundLoops.insert(loc)
        guard countIteration(1, loc) else { return }
        let saved = frame.ifMask
        frame.ifMask = narrowed(activeMask(), cond)
        if case .declaration = body {} else { scoped(body) }
        frame.ifMask = saved
        if let s = step {
            unmasked = true
            _ = lowerExpression(s)
            unmasked = false
        }
    }

    /// Whether the loop condition, just lowered, lets another iteration run: a constant true (and
    /// no unconditional break yet); false after reporting a condition that is not a constant bool.
    @inline(never)
    private func loopContinues(_ c: Value, _ loc: ShaderSourceLocation) -> Bool {
        if c.isError { return false }
        guard c.type == .bool else { error(loc, "loop condition must be a bool, found \(c.type)"); return false }
        guard let k = b.constantValue(c.ids[0]) else {
            error(loc, "loop condition is not a constant expression: loops need bounds that are constants or uniforms and an index the body does not change (GLSL ES 1.00, Appendix A)")
            return false
        }
        if k == 0 { return false }
        if let brk = frame.loops.last?.breakFlag, b.constantValue(brk) == 1 { return false }
        return true
    }

    /// Counts an iteration against the loop's and the shader's limits and the budget.
    @inline(never)
    private func countIteration(_ iterations: Int, _ loc: ShaderSourceLocation) -> Bool {
        totalIterations += 1
        if iterations > Lowering.maximumIterations {
            if uniformBoundLoops.contains(loc) {
                error(loc, "loop bounded by a uniform runs more than \(Lowering.maximumIterations) iterations with the uniform values given")
            } else {
                error(loc, "loop does not end within \(Lowering.maximumIterations) iterations (infinite loop?)")
            }
            return false
        }
        if totalIterations > Lowering.maximumTotalIterations {
            // a limit of the whole shader: said once, at the loop that crossed it, and lowering
            // stops (each enclosing loop would cross it again on its next iteration)
            if !stopped { diagnostics.limitError(loc, "loops run more than \(Lowering.maximumTotalIterations) iterations in all once unrolled") }
            stopped = true
            return false
        }
        return withinBudget(at: loc)
    }

    // MARK: functions

    /// Lowers a call to a user function by inlining its body. Arguments are already lowered.
    func inline(_ function: UserFunction, arguments: [Value], checkingOnly: Bool) -> (value: Value, outs: [[Int32]]) {
        let f = function.decl
        let returnType = function.returnType
        func zeros() -> (value: Value, outs: [[Int32]]) {
            (Value(type: returnType, ids: Array(repeating: b.constant(0), count: max(0, returnType.componentCount))), [])
        }
        guard let body = f.body, !stopped else { return zeros() }
        if inlineStack.count >= ShaderLimits.callNesting && !inlineStack.contains(f.name) {
            diagnostics.limitError(f.location, "function calls nested more than \(ShaderLimits.callNesting) deep (at '\(f.name)')")
        }
        if inlineStack.contains(f.name) || inlineStack.count >= ShaderLimits.callNesting {  // recursion: reported by the call-graph check
            return zeros()
        }
        b.charge(f.parameters.count + max(0, returnType.componentCount))
        inlineStack.append(f.name)
        if !checkingOnly { diagnostics.muted += 1 }
        let savedScopes = scopes
        let entryMask = frames.isEmpty ? nil : activeMask()
        let savedUnmasked = unmasked
        unmasked = false
        scopes = [scopes[0], [:]]
        for ((p, t), a) in zip(zip(f.parameters, function.parameterTypes), arguments) {
            guard let name = p.name else { continue }
            let ids = p.qualifier == .out ? Array(repeating: b.constant(0), count: max(0, t.componentCount)) : a.ids
            if p.qualifier == .out { b.charge(t.componentCount) }
            scopes[1][name] = Variable(name: name, type: t, ids: ids, storage: p.isConst ? .constParameter : .local, location: p.location)
        }
        frames.append(Frame(name: f.name, ifMask: entryMask, returnFlag: nil, returnType: returnType,
                            returnValue: Array(repeating: b.constant(0), count: max(0, returnType.componentCount))))
        lowerBlock(body)
        let done = frames.removeLast()
        if returnType != .void && done.returnFlag == nil && !returnType.isError && !stopped {
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
