import CMediaGraphPlugin
import MediaGraphCore

/// One param of a C plugin's node type: the typed key the node reads its value with (declared
/// from the plugin's `mg_param_desc` when the plugin loads, as built-in nodes declare theirs in
/// code), and so the C type `set_param` receives it as.
enum CPluginParam: Sendable {
    case double(Param<Double>)
    case int(Param<Int>)
    case bool(Param<Bool>)
    case string(Param<String>)

    var spec: ParamSpec {
        switch self {
        case .double(let p): return p.spec
        case .int(let p): return p.spec
        case .bool(let p): return p.spec
        case .string(let p): return p.spec
        }
    }

    var cType: mg_param_type {
        switch self {
        case .double: return MG_PARAM_DOUBLE
        case .int: return MG_PARAM_INT
        case .bool: return MG_PARAM_BOOL
        case .string: return MG_PARAM_STRING
        }
    }
}
