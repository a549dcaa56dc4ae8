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

extension CPluginNodeType {
    /// Sets every declared param on a new instance (the graph's value or the default, already
    /// checked by the host); the name of the first param the plugin refuses (its message in
    /// `error`), or nil.
    func setParams(_ values: ParamValues, on inst: UnsafeMutableRawPointer, error: inout mg_error) -> String? {
        guard let setParam = desc.set_param else { return nil }
        for (k, param) in params.enumerated() {
            var value = mg_param_value()
            value.type = Int32(param.cType.rawValue)
            error.message.0 = 0
            let status: Int32
            switch param {
            case .string(let key):
                status = values[key].withCString { cs in
                    value.string = cs
                    return setParam(inst, Int32(k), &value, &error)
                }
            case .bool(let key):
                value.number = values[key] ? 1 : 0
                status = setParam(inst, Int32(k), &value, &error)
            case .int(let key):
                value.number = Double(values[key])
                status = setParam(inst, Int32(k), &value, &error)
            case .double(let key):
                value.number = values[key]
                status = setParam(inst, Int32(k), &value, &error)
            }
            if status != 0 { return param.spec.name }
        }
        return nil
    }
}
