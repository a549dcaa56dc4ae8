/// Recursive-descent parser for GLSL ES 1.00 fragment shaders. Reports a syntax error, skips to
/// the end of the statement and carries on, so one run reports several errors.
///
/// Its recursion is bounded on any input: every way an expression nests (parentheses, prefix
/// operators, the right side of `=`, both results of `?:`, arguments, indices) counts one level
/// of `ShaderLimits.expressionNesting` before it recurses, and the tree it builds is no deeper
/// (later passes recurse on it); blocks and statements have their own limits. Binary operators
/// are parsed by precedence climbing, so a nesting level costs a few stack frames, not one per
/// precedence level.
struct Parser {
    private var tokens: [Token]
    private var index = 0
    var diagnostics: DiagnosticList

    private struct SyntaxError: Error {}
    static let maximumExpressionDepth = ShaderLimits.expressionNesting
    static let maximumBlockDepth = ShaderLimits.blockNesting
    private var blockDepth = 0
    private var statementDepth = 0
    private var functionCount = 0
    /// Set when a limit stopped the parse (the function count): nothing after it is read.
    private(set) var failed = false

    static let typeNames: Set<String> = ["void", "float", "int", "bool", "vec2", "vec3", "vec4",
                                         "ivec2", "ivec3", "ivec4", "bvec2", "bvec3", "bvec4",
                                         "mat2", "mat3", "mat4", "sampler2D", "samplerCube"]
    private static let precisions: Set<String> = ["lowp", "mediump", "highp"]
    /// Words GLSL ES 1.00 reserves for later versions: using one is a clear error, not a parse mess.
    private static let reserved: Set<String> = ["asm", "class", "union", "enum", "typedef", "template", "this",
        "packed", "goto", "switch", "default", "inline", "noinline", "volatile", "public", "static", "extern",
        "external", "interface", "flat", "long", "short", "double", "half", "fixed", "unsigned", "superp",
        "input", "output", "hvec2", "hvec3", "hvec4", "dvec2", "dvec3", "dvec4", "fvec2", "fvec3", "fvec4",
        "sampler1D", "sampler3D", "sampler1DShadow", "sampler2DShadow", "sampler2DRect", "sampler3DRect",
        "sampler2DRectShadow", "sizeof", "cast", "namespace", "using", "case", "struct", "while", "do"]

    init(tokens: [Token], diagnostics: DiagnosticList) {
        self.tokens = tokens
        self.diagnostics = diagnostics
    }

    private var current: Token { tokens[index] }
    private func peek(_ n: Int = 1) -> Token { tokens[min(index + n, tokens.count - 1)] }
    private mutating func advance() -> Token {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    private mutating func fail(_ message: String, at location: ShaderSourceLocation? = nil) -> SyntaxError {
        let loc = location ?? current.location
        // A bad character already reported on this line explains the syntax error that follows.
        if !diagnostics.hasError(onLine: loc.line) { diagnostics.error(loc, message) }
        return SyntaxError()
    }

    private func describe(_ t: Token) -> String { t.kind == .end ? "end of file" : "'\(t.text)'" }

    @discardableResult
    private mutating func expect(_ p: String, _ context: String) throws -> Token {
        if current.isPunct(p) { return advance() }
        throw fail("expected '\(p)' \(context), found \(describe(current))")
    }

    // MARK: top level

    mutating func parseTranslationUnit() -> [TopLevel] {
        var items: [TopLevel] = []
        while current.kind != .end && !failed {
            let start = index
            do {
                if let item = try parseExternalDeclaration() { items.append(item) }
            } catch {
                synchronize(topLevel: true)
            }
            if index == start { _ = advance() }
        }
        return items
    }

    /// Skips to just after the next ';' (or past a '}' block at top level) so parsing resumes cleanly.
    private mutating func synchronize(topLevel: Bool) {
        var depth = 0
        while current.kind != .end {
            if current.isPunct("{") { depth += 1 }
            if current.isPunct("}") {
                if depth == 0 { if topLevel { _ = advance() }; return }
                depth -= 1
                if depth == 0 && topLevel { _ = advance(); return }
            }
            if current.isPunct(";") && depth == 0 { _ = advance(); return }
            _ = advance()
        }
    }

    private mutating func skipPrecisions() { while Parser.precisions.contains(current.text) && current.kind == .identifier { _ = advance() } }

    private mutating func parseExternalDeclaration() throws -> TopLevel? {
        if current.isPunct(";") { _ = advance(); return nil }
        if current.isIdent("precision") { try parsePrecisionStatement(); return nil }
        let start = current.location
        if current.isIdent("invariant") { _ = advance() }
        var storage = StorageQualifier.none
        switch current.kind == .identifier ? current.text : "" {
        case "const": storage = .const; _ = advance()
        case "uniform": storage = .uniform; _ = advance()
        case "varying": storage = .varying; _ = advance()
        case "attribute": storage = .attribute; _ = advance()
        default: break
        }
        skipPrecisions()
        let type = try parseTypeName()
        if storage == .none && current.kind == .identifier && peek().isPunct("(") {
            functionCount += 1
            if functionCount > ShaderLimits.functions {
                failed = true
                throw fail("more than \(ShaderLimits.functions) functions")
            }
            return .function(try parseFunction(returnType: type))
        }
        let decls = try parseDeclarators(type: type)
        return .global(GlobalDecl(storage: storage, type: type, declarators: decls, location: start))
    }

    private mutating func parsePrecisionStatement() throws {
        _ = advance()
        guard Parser.precisions.contains(current.text) else { throw fail("expected a precision (lowp, mediump, highp) after 'precision', found \(describe(current))") }
        _ = advance()
        guard Parser.typeNames.contains(current.text) else { throw fail("expected a type after the precision, found \(describe(current))") }
        _ = advance()
        try expect(";", "after the precision statement")
    }

    private mutating func parseTypeName() throws -> TypeSyntax {
        let t = current
        if t.isIdent("struct") { throw fail("unsupported feature: 'struct'") }
        guard t.kind == .identifier, Parser.typeNames.contains(t.text) else {
            if t.kind == .identifier && Parser.reserved.contains(t.text) {
                throw fail("'\(t.text)' is a reserved word in GLSL ES 1.00")
            }
            throw fail("expected a type, found \(describe(t))")
        }
        _ = advance()
        var arraySize: Expr?
        if current.isPunct("[") {
            _ = advance()
            arraySize = try parseExpression()
            try expect("]", "after the array size")
        }
        return TypeSyntax(name: t.text, location: t.location, arraySize: arraySize)
    }

    private mutating func parseDeclarators(type: TypeSyntax) throws -> [VarDeclarator] {
        var result: [VarDeclarator] = []
        repeat {
            if !result.isEmpty { _ = advance() }
            let nameTok = current
            guard nameTok.kind == .identifier else { throw fail("expected a variable name, found \(describe(nameTok))") }
            if Parser.reserved.contains(nameTok.text) || Parser.typeNames.contains(nameTok.text) {
                throw fail("'\(nameTok.text)' is a reserved word and cannot be a variable name")
            }
            _ = advance()
            var d = VarDeclarator(name: nameTok.text, location: nameTok.location)
            if current.isPunct("[") {
                _ = advance()
                if current.isPunct("]") { throw fail("array size missing: GLSL ES 1.00 arrays need a constant size") }
                d.arraySize = try parseExpression()
                try expect("]", "after the array size")
            }
            if current.isPunct("=") {
                _ = advance()
                do {
                    d.initializer = try parseAssignment()
                } catch {
                    // the initializer's error is reported; the variable is still declared, so
                    // its uses do not each add an "undeclared identifier"
                    result.append(d)
                    synchronize(topLevel: false)
                    return result
                }
            }
            result.append(d)
        } while current.isPunct(",")
        try expect(";", "after the declaration")
        return result
    }

    private mutating func parseFunction(returnType: TypeSyntax) throws -> FunctionDecl {
        let nameTok = advance()
        try expect("(", "after the function name")
        var params: [Parameter] = []
        if current.isIdent("void") && peek().isPunct(")") { _ = advance() }
        while !current.isPunct(")") {
            if !params.isEmpty { try expect(",", "between parameters") }
            let loc = current.location
            var isConst = false
            var q = ParameterQualifier.none
            if current.isIdent("const") { isConst = true; _ = advance() }
            switch current.kind == .identifier ? current.text : "" {
            case "in": q = .in; _ = advance()
            case "out": q = .out; _ = advance()
            case "inout": q = .inout; _ = advance()
            default: break
            }
            skipPrecisions()
            let type = try parseTypeName()
            var p = Parameter(qualifier: q, isConst: isConst, type: type, name: nil, location: loc, arraySize: nil)
            if current.kind == .identifier {
                p.name = advance().text
                if current.isPunct("[") {
                    _ = advance()
                    p.arraySize = try parseExpression()
                    try expect("]", "after the array size")
                }
            }
            params.append(p)
        }
        _ = advance()
        if current.isPunct(";") {
            _ = advance()
            return FunctionDecl(returnType: returnType, name: nameTok.text, location: nameTok.location, parameters: params, body: nil)
        }
        guard current.isPunct("{") else { throw fail("expected '{' or ';' after the parameters of '\(nameTok.text)', found \(describe(current))") }
        let body = parseBlockBody()
        return FunctionDecl(returnType: returnType, name: nameTok.text, location: nameTok.location, parameters: params, body: body)
    }

    // MARK: statements

    /// Parses `{ ... }` starting at '{'; syntax errors inside are recorded and skipped.
    private mutating func parseBlockBody() -> [Stmt] {
        let open = advance()
        blockDepth += 1
        defer { blockDepth -= 1 }
        if blockDepth > Parser.maximumBlockDepth || statementDepth > ShaderLimits.statementNesting {
            diagnostics.error(open.location, "blocks nested more than \(Parser.maximumBlockDepth) deep")
            synchronizeToClosingBrace()
            return []
        }
        var stmts: [Stmt] = []
        while !current.isPunct("}") {
            if current.kind == .end {
                diagnostics.error(current.location, "expected '}' to close the block opened at line \(open.location.line), found end of file")
                return stmts
            }
            let start = index
            do {
                stmts.append(try parseStatement())
            } catch {
                synchronize(topLevel: false)
            }
            if index == start { _ = advance() }
        }
        _ = advance()
        return stmts
    }

    /// Skips past the '}' matching an already consumed '{'.
    private mutating func synchronizeToClosingBrace() {
        var depth = 1
        while current.kind != .end {
            let t = advance()
            if t.isPunct("{") { depth += 1 }
            if t.isPunct("}") { depth -= 1; if depth == 0 { return } }
        }
    }

    private func startsDeclaration() -> Bool {
        let t = current
        guard t.kind == .identifier else { return false }
        if ["const", "lowp", "mediump", "highp"].contains(t.text) { return true }
        if Parser.typeNames.contains(t.text) { return !peek().isPunct("(") }
        return false
    }

    private mutating func parseStatement() throws -> Stmt {
        let t = current
        // if/else and for without braces nest statements too.
        statementDepth += 1
        defer { statementDepth -= 1 }
        if statementDepth > ShaderLimits.statementNesting {
            throw fail("statements nested more than \(ShaderLimits.statementNesting) deep")
        }
        if t.isPunct("{") { return .block(parseBlockBody()) }
        if t.isPunct(";") { _ = advance(); return .empty }
        if t.kind == .identifier {
            switch t.text {
            case "if":
                _ = advance()
                try expect("(", "after 'if'")
                let cond = try parseExpression()
                try expect(")", "after the 'if' condition")
                let then = try parseStatement()
                var els: Stmt?
                if current.isIdent("else") { _ = advance(); els = try parseStatement() }
                return .ifElse(cond, then, els, t.location)
            case "for":
                _ = advance()
                try expect("(", "after 'for'")
                var initS: Stmt?
                if current.isPunct(";") { _ = advance() } else if startsDeclaration() {
                    initS = try parseDeclarationStatement()
                } else {
                    initS = .expression(try parseExpression())
                    try expect(";", "after the loop initializer")
                }
                let cond = current.isPunct(";") ? nil : try parseExpression()
                try expect(";", "after the loop condition")
                let step = current.isPunct(")") ? nil : try parseExpression()
                try expect(")", "after the loop increment")
                let body = try parseStatement()
                return .forLoop(init: initS, condition: cond, step: step, body: body, t.location)
            case "while":
                _ = advance()
                try expect("(", "after 'while'")
                _ = try parseExpression()
                try expect(")", "after the 'while' condition")
                _ = try parseStatement()
                return .whileLoop(t.location)
            case "do":
                _ = advance()
                _ = try parseStatement()
                guard current.isIdent("while") else { throw fail("expected 'while' after the body of 'do', found \(describe(current))") }
                _ = advance()
                try expect("(", "after 'while'")
                _ = try parseExpression()
                try expect(")", "after the 'while' condition")
                try expect(";", "after 'do ... while (...)'")
                return .doWhileLoop(t.location)
            case "break": _ = advance(); try expect(";", "after 'break'"); return .breakStmt(t.location)
            case "continue": _ = advance(); try expect(";", "after 'continue'"); return .continueStmt(t.location)
            case "discard": _ = advance(); try expect(";", "after 'discard'"); return .discard(t.location)
            case "return":
                _ = advance()
                if current.isPunct(";") { _ = advance(); return .returnStmt(nil, t.location) }
                let e = try parseExpression()
                try expect(";", "after the return value")
                return .returnStmt(e, t.location)
            case "precision":
                try parsePrecisionStatement()
                return .empty
            case "switch", "case", "default", "goto":
                throw fail("unsupported feature: '\(t.text)' (reserved in GLSL ES 1.00)")
            case "struct":
                throw fail("unsupported feature: 'struct'")
            case "uniform", "varying", "attribute":
                throw fail("'\(t.text)' variables must be declared at global scope")
            default: break
            }
        }
        if startsDeclaration() { return try parseDeclarationStatement() }
        let e = try parseExpression()
        try expect(";", "after the expression")
        return .expression(e)
    }

    private mutating func parseDeclarationStatement() throws -> Stmt {
        var isConst = false
        if current.isIdent("const") { isConst = true; _ = advance() }
        skipPrecisions()
        let type = try parseTypeName()
        return .declaration(isConst: isConst, type: type, try parseDeclarators(type: type))
    }

    // MARK: expressions

    mutating func parseExpression() throws -> Expr {
        var e = try parseAssignment()
        while current.isPunct(",") {
            let loc = advance().location
            e = try checked(Expr(.sequence(e, try parseAssignment()), loc))
        }
        return e
    }

    /// Expressions open around the current token (see the type's comment).
    private var expressionNesting = 0

    /// Counts one level of nesting before the parser recurses into it.
    private mutating func enterNesting() throws {
        expressionNesting += 1
        if expressionNesting > Parser.maximumExpressionDepth {
            throw fail("expression too complex: nested more than \(Parser.maximumExpressionDepth) levels")
        }
    }

    private mutating func checked(_ e: Expr) throws -> Expr {
        if e.depth > Parser.maximumExpressionDepth {
            throw fail("expression too complex: nested more than \(Parser.maximumExpressionDepth) levels", at: e.location)
        }
        return e
    }

    private static let assignOps: Set<String> = ["=", "+=", "-=", "*=", "/="]
    private static let unsupportedAssignOps: Set<String> = ["%=", "<<=", ">>=", "&=", "|=", "^="]

    /// `a = b = c` and `c ? x : y = z` nest to the right: each level counts before recursing.
    private mutating func parseAssignment() throws -> Expr {
        try enterNesting()
        defer { expressionNesting -= 1 }
        let lhs = try parseTernary()
        if current.kind == .punct && Parser.assignOps.contains(current.text) {
            let op = advance()
            let rhs = try parseAssignment()
            return try checked(Expr(.assign(op.text, lhs, rhs), op.location))
        }
        if current.kind == .punct && Parser.unsupportedAssignOps.contains(current.text) {
            throw fail("unsupported feature: operator '\(current.text)' is reserved in GLSL ES 1.00")
        }
        return lhs
    }

    private mutating func parseTernary() throws -> Expr {
        let cond = try parseBinary(0)
        guard current.isPunct("?") else { return cond }
        let q = advance()
        let a = try parseExpression()
        try expect(":", "in the conditional expression '?:'")
        let b = try parseAssignment()
        return try checked(Expr(.ternary(cond, a, b), q.location))
    }

    private static let levels: [[String]] = [["||"], ["^^"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="],
                                             ["<", ">", "<=", ">="], ["<<", ">>"], ["+", "-"], ["*", "/", "%"]]
    /// Precedence level of each binary operator (index into `levels`, higher binds tighter).
    private static let precedence: [String: Int] = {
        var table: [String: Int] = [:]
        for (level, ops) in levels.enumerated() { for op in ops { table[op] = level } }
        return table
    }()

    /// Binary operators of precedence `minimum` and tighter, left-associative (precedence
    /// climbing: the same trees as one function per level, without their stack frames).
    private mutating func parseBinary(_ minimum: Int) throws -> Expr {
        var lhs = try parseUnary()
        while current.kind == .punct, let level = Parser.precedence[current.text], level >= minimum {
            let op = advance()
            if ["|", "^", "&", "<<", ">>", "%"].contains(op.text) {
                throw fail("unsupported feature: operator '\(op.text)' is reserved in GLSL ES 1.00" + (op.text == "%" ? "; use mod()" : ""), at: op.location)
            }
            let rhs = try parseBinary(level + 1)
            lhs = try checked(Expr(.binary(op.text, lhs, rhs), op.location))
        }
        return lhs
    }

    private mutating func parseUnary() throws -> Expr {
        let t = current
        if t.kind == .punct && ["-", "+", "!", "~", "++", "--"].contains(t.text) {
            _ = advance()
            if t.text == "~" { throw fail("unsupported feature: operator '~' is reserved in GLSL ES 1.00", at: t.location) }
            // A run of prefix operators nests too.
            try enterNesting()
            defer { expressionNesting -= 1 }
            return try checked(Expr(.unary(t.text, try parseUnary()), t.location))
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws -> Expr {
        var e = try parsePrimary()
        while true {
            let t = current
            if t.isPunct(".") {
                _ = advance()
                guard current.kind == .identifier else { throw fail("expected a field or swizzle after '.', found \(describe(current))") }
                let f = advance()
                if current.isPunct("(") { throw fail("unsupported feature: method call '.\(f.text)()'", at: f.location) }
                e = try checked(Expr(.field(e, f.text, f.location), t.location))
            } else if t.isPunct("[") {
                _ = advance()
                let i = try parseExpression()
                try expect("]", "after the index")
                e = try checked(Expr(.index(e, i), t.location))
            } else if t.isPunct("++") || t.isPunct("--") {
                _ = advance()
                e = try checked(Expr(.postfix(t.text, e), t.location))
            } else {
                return e
            }
        }
    }

    private mutating func parsePrimary() throws -> Expr {
        let t = current
        switch t.kind {
        case .intLiteral: _ = advance(); return Expr(.intLiteral(t.intValue), t.location)
        case .floatLiteral: _ = advance(); return Expr(.floatLiteral(t.floatValue), t.location)
        case .identifier:
            if t.text == "true" || t.text == "false" { _ = advance(); return Expr(.boolLiteral(t.text == "true"), t.location) }
            if Parser.reserved.contains(t.text) { throw fail("'\(t.text)' is a reserved word in GLSL ES 1.00") }
            _ = advance()
            if current.isPunct("(") {
                _ = advance()
                var args: [Expr] = []
                if current.isIdent("void") && peek().isPunct(")") { _ = advance() }
                while !current.isPunct(")") {
                    if !args.isEmpty { try expect(",", "between arguments of '\(t.text)'") }
                    args.append(try parseAssignment())
                }
                _ = advance()
                return try checked(Expr(.call(t.text, args), t.location))
            }
            if current.isPunct("[") && Parser.typeNames.contains(t.text) {
                throw fail("unsupported feature: array constructor '\(t.text)[]'")
            }
            return Expr(.identifier(t.text), t.location)
        case .punct:
            if t.isPunct("(") {
                _ = advance()
                let e = try parseExpression()
                try expect(")", "to close '('")
                return e
            }
            throw fail("expected an expression, found \(describe(t))")
        case .end:
            throw fail("expected an expression, found end of file")
        }
    }
}
