import CMediaGraphPlugin
import MediaGraphCore

/// Converting frei0r param values to and from JSON.
enum Frei0rParam {
    static func read(_ api: Frei0rAPI, _ inst: UnsafeMutableRawPointer, index: Int32, kind: Int32) -> JSONValue? {
        switch kind {
        case MGF0R_PARAM_BOOL:
            var v = 0.0
            api.getParam(inst, &v, index)
            return .bool(v >= 0.5, nil)
        case MGF0R_PARAM_DOUBLE:
            var v = 0.0
            api.getParam(inst, &v, index)
            return v.isFinite ? .number(v, nil) : nil
        case MGF0R_PARAM_COLOR:
            var c = mgf0r_color()
            api.getParam(inst, &c, index)
            return .array([Double(c.r), Double(c.g), Double(c.b)].map { .number($0, nil) }, nil)
        case MGF0R_PARAM_POSITION:
            var p = mgf0r_position()
            api.getParam(inst, &p, index)
            return .array([p.x, p.y].map { .number($0, nil) }, nil)
        case MGF0R_PARAM_STRING:
            var s: UnsafeMutablePointer<CChar>? = nil
            api.getParam(inst, &s, index)
            // a plugin's own text: bounded, an unterminated one reads as empty
            let text = try? CText.read(s.map { UnsafePointer($0) }, limit: PluginLimits.maxTextBytes) { PluginError(file: "", $0) }
            return .string(text ?? "", nil)
        default:
            return nil
        }
    }

    static func write(_ api: Frei0rAPI, _ inst: UnsafeMutableRawPointer, index: Int32, kind: Int32, value: JSONValue) {
        switch kind {
        case MGF0R_PARAM_BOOL:
            var v = (value.boolValue ?? false) ? 1.0 : 0.0
            api.setParam(inst, &v, index)
        case MGF0R_PARAM_DOUBLE:
            var v = value.numberValue ?? 0
            api.setParam(inst, &v, index)
        case MGF0R_PARAM_COLOR:
            let n = value.arrayValue?.compactMap(\.numberValue) ?? []
            guard n.count == 3 else { return }
            var c = mgf0r_color(r: Float(n[0]), g: Float(n[1]), b: Float(n[2]))
            api.setParam(inst, &c, index)
        case MGF0R_PARAM_POSITION:
            let n = value.arrayValue?.compactMap(\.numberValue) ?? []
            guard n.count == 2 else { return }
            var p = mgf0r_position(x: n[0], y: n[1])
            api.setParam(inst, &p, index)
        case MGF0R_PARAM_STRING:
            let s = value.stringValue ?? ""
            s.withCString { cs in
                var p: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(mutating: cs)
                api.setParam(inst, &p, index)
            }
        default:
            break
        }
    }
}
