/// Syntax tree of a shader, as the parser builds it (types still unresolved names).

/// A type as written: a base type name, optionally an array size expression.
struct TypeSyntax: Sendable {
    var name: String
    var location: ShaderSourceLocation
    var arraySize: Expr?
}

indirect enum ExprKind: Sendable {
    case intLiteral(Int)
    case floatLiteral(Double)
    case boolLiteral(Bool)
    case identifier(String)
    /// `op e` for - ! ~ + and prefix ++/--.
    case unary(String, Expr)
    /// `e++` / `e--`.
    case postfix(String, Expr)
    case binary(String, Expr, Expr)
    /// `=`, `+=` and the other compound assignments.
    case assign(String, Expr, Expr)
    case ternary(Expr, Expr, Expr)
    /// A function call or a constructor (`vec3(...)`, `float[3](...)` is not GLSL ES 1.00).
    case call(String, [Expr])
    case field(Expr, String, ShaderSourceLocation)
    case index(Expr, Expr)
    /// `a, b`
    case sequence(Expr, Expr)
}

final class Expr: Sendable {
    let kind: ExprKind
    let location: ShaderSourceLocation
    /// Height of the tree below: checking and lowering recurse this deep.
    let depth: Int
    init(_ kind: ExprKind, _ location: ShaderSourceLocation) {
        self.kind = kind
        self.location = location
        switch kind {
        case .unary(_, let x), .postfix(_, let x), .field(let x, _, _): depth = x.depth + 1
        case .binary(_, let x, let y), .assign(_, let x, let y), .index(let x, let y), .sequence(let x, let y):
            depth = max(x.depth, y.depth) + 1
        case .ternary(let x, let y, let z): depth = max(x.depth, y.depth, z.depth) + 1
        case .call(_, let args): depth = (args.map(\.depth).max() ?? 0) + 1
        default: depth = 1
        }
    }
}

struct VarDeclarator: Sendable {
    var name: String
    var location: ShaderSourceLocation
    var arraySize: Expr?
    var initializer: Expr?
}

indirect enum Stmt: Sendable {
    case declaration(isConst: Bool, type: TypeSyntax, [VarDeclarator])
    case expression(Expr)
    case block([Stmt])
    case ifElse(Expr, Stmt, Stmt?, ShaderSourceLocation)
    case forLoop(init: Stmt?, condition: Expr?, step: Expr?, body: Stmt, ShaderSourceLocation)
    case whileLoop(ShaderSourceLocation)
    case doWhileLoop(ShaderSourceLocation)
    case breakStmt(ShaderSourceLocation)
    case continueStmt(ShaderSourceLocation)
    case returnStmt(Expr?, ShaderSourceLocation)
    case discard(ShaderSourceLocation)
    case empty
}

extension Stmt {
    /// Where the statement starts, when it records it.
    var location: ShaderSourceLocation? {
        switch self {
        case .declaration(_, let type, _): return type.location
        case .expression(let e): return e.location
        case .block(let list): return list.first?.location
        case .ifElse(_, _, _, let l), .forLoop(_, _, _, _, let l), .whileLoop(let l), .doWhileLoop(let l),
             .breakStmt(let l), .continueStmt(let l), .returnStmt(_, let l), .discard(let l): return l
        case .empty: return nil
        }
    }
}

enum ParameterQualifier: Sendable { case none, `in`, out, `inout` }

struct Parameter: Sendable {
    var qualifier: ParameterQualifier
    var isConst: Bool
    var type: TypeSyntax
    var name: String?
    var location: ShaderSourceLocation
    var arraySize: Expr?
}

struct FunctionDecl: Sendable {
    var returnType: TypeSyntax
    var name: String
    var location: ShaderSourceLocation
    var parameters: [Parameter]
    /// nil for a prototype.
    var body: [Stmt]?
}

enum StorageQualifier: Sendable { case none, const, uniform, varying, attribute }

struct GlobalDecl: Sendable {
    var storage: StorageQualifier
    var type: TypeSyntax
    var declarators: [VarDeclarator]
    var location: ShaderSourceLocation
}

enum TopLevel: Sendable {
    case global(GlobalDecl)
    case function(FunctionDecl)
}
