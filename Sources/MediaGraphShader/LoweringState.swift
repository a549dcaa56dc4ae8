import MediaGraphShaderTiles

/// A value during lowering: its type and one SSA value per scalar component.
struct Value {
    var type: ShaderType
    var ids: [Int32]
    var isError: Bool { type.size < 0 }
    static let error = Value(type: ShaderType(.void, size: -1), ids: [])
    static let void = Value(type: .void, ids: [])
}

/// A named variable; its SSA values change as it is assigned.
final class Variable {
    enum Storage { case local, const, uniform, varying, sampler, fragColor, constParameter, provided
        /// A varying neither the filter nor the vertex stage provides: an error where it is read.
        case unprovidedVarying
    }
    let name: String
    let type: ShaderType
    var ids: [Int32]
    let storage: Storage
    let location: ShaderSourceLocation
    /// Declared at global scope (and assignable): checking a function alone must undo its writes.
    var isGlobal = false
    init(name: String, type: ShaderType, ids: [Int32], storage: Storage, location: ShaderSourceLocation) {
        self.name = name; self.type = type; self.ids = ids; self.storage = storage; self.location = location
    }

    /// Why the variable cannot be assigned, or nil.
    var readOnlyReason: String? {
        switch storage {
        case .uniform, .provided: return "cannot assign to uniform '\(name)'"
        case .varying, .unprovidedVarying: return "cannot assign to varying '\(name)': varyings are read-only in a fragment shader"
        case .sampler: return "cannot assign to sampler '\(name)'"
        case .const: return "cannot assign to const variable '\(name)'"
        case .constParameter: return "cannot assign to const parameter '\(name)'"
        default: return nil
        }
    }
}

/// A place that can be assigned: components `positions` of `variable`.
struct LValue {
    var variable: Variable
    var positions: [Int]
    var type: ShaderType
}

/// Break and continue state of one unrolled loop: the lanes that have left it.
struct LoopState {
    var breakFlag: Int32?
    var continueFlag: Int32?
}

/// One function being lowered (main or an inlined call).
struct Frame {
    var name: String
    /// Lanes the enclosing `if`s and the call site let through (nil: all).
    var ifMask: Int32?
    /// Lanes that have executed `return`.
    var returnFlag: Int32?
    var returnType: ShaderType
    var returnValue: [Int32]
    var loops: [LoopState] = []
}

/// A user function with its parameter and return types resolved once.
struct UserFunction {
    var decl: FunctionDecl
    var parameterTypes: [ShaderType]
    var returnType: ShaderType
}
