import CMediaGraphPlugin
import Foundation
import MediaGraphCore

/// A loaded frei0r filter effect (one shared library), described as the node type `frei0r.NAME`
/// where NAME is the file name without `.so` (as ffmpeg's `frei0r=NAME` names it).
public struct Frei0rPlugin: Sendable {
    public let path: String
    /// `frei0r.NAME`.
    public let typeName: String
    public let info: NodeTypeInfo
    /// What the plugin calls itself, its author and version.
    public let pluginName: String
    public let author: String
    public let colorModel: Int32
    let api: Frei0rAPI
    let update: mgf0r_update_fn
    /// frei0r's own param kinds, index for index with `info.params`.
    let paramKinds: [Int32]

    /// The size frei0r's specification asks frames to be a multiple of.
    public static let sizeMultiple = 8

    /// Opens a frei0r library and reads its declaration; sources and mixers are refused.
    public init(path: String) throws {
        let lib = try SharedLibrary(path: path)
        let api = try Frei0rAPI(lib)
        _ = api.initialize()
        guard let update = api.update else {
            throw PluginError(file: path, "is not a frei0r filter: it exports no f0r_update", unsupported: true)
        }
        var pi = mgf0r_plugin_info()
        api.getPluginInfo(&pi)
        guard pi.plugin_type == MGF0R_TYPE_FILTER else {
            let kind = [MGF0R_TYPE_SOURCE: "source", MGF0R_TYPE_MIXER2: "two-input mixer", MGF0R_TYPE_MIXER3: "three-input mixer"][pi.plugin_type] ?? "type \(pi.plugin_type)"
            throw PluginError(file: path, "is a frei0r \(kind); only frei0r filters are supported", unsupported: true)
        }
        let formats: [PixelFormat]
        switch pi.color_model {
        case MGF0R_COLOR_BGRA8888: formats = [.bgra]
        case MGF0R_COLOR_RGBA8888: formats = [.rgba]
        case MGF0R_COLOR_PACKED32: formats = [.rgba, .bgra]
        default: throw PluginError(file: path, "unknown frei0r colour model \(pi.color_model)")
        }
        var base = path.split(separator: "/").last.map(String.init) ?? path
        if base.hasSuffix(".so") { base.removeLast(3) }
        func field(_ f: String) -> (String) -> PluginError { { PluginError(file: path, "f0r_plugin_info field '\(f)' \($0)") } }
        guard (0...PluginLimits.maxParams).contains(Int(pi.num_params)) else {
            throw field("num_params")("is \(pi.num_params); expected 0…\(PluginLimits.maxParams)")
        }
        self.path = path
        self.api = api
        self.update = update
        typeName = "frei0r." + base
        pluginName = try CText.read(pi.name, limit: PluginLimits.maxNameBytes, fail: field("name")) ?? base
        author = try CText.read(pi.author, limit: PluginLimits.maxTextBytes, fail: field("author")) ?? ""
        colorModel = pi.color_model

        // Defaults: frei0r declares none, so read them from a small instance, as hosts do.
        let probe = api.construct(64, 64)
        defer { if let probe { api.destruct(probe) } }
        var params: [ParamSpec] = []
        var kinds: [Int32] = []
        var used: Set<String> = []
        for k in 0..<Int(pi.num_params) {
            var p = mgf0r_param_info()
            api.getParamInfo(&p, Int32(k))
            func paramField(_ f: String) -> (String) -> PluginError { { PluginError(file: path, "f0r_param_info #\(k) field '\(f)' \($0)") } }
            let original = try CText.read(p.name, limit: PluginLimits.maxNameBytes, fail: paramField("name")) ?? "param\(k)"
            var name = ParamName.sanitize(original)
            while !used.insert(name).inserted { name += "_\(k)" }
            let explanation = try CText.read(p.explanation, limit: PluginLimits.maxTextBytes, fail: paramField("explanation")) ?? ""
            let d = probe.map { Frei0rParam.read(api, $0, index: Int32(k), kind: p.type) } ?? nil
            // The plugin's value is reported in the doc, not declared as the param's default:
            // only params the graph gives are set (as ffmpeg does), so a plugin whose
            // constructor leaves a field unset is not fed a value read back from another
            // instance.
            let doc = "\(explanation.isEmpty ? original : explanation) (frei0r param #\(k) \"\(original)\"\(d.map { "; plugin's value \($0.brief)" } ?? ""))"
            switch p.type {
            case MGF0R_PARAM_BOOL:
                params.append(ParamSpec(name, .bool, doc: doc))
            case MGF0R_PARAM_DOUBLE:
                params.append(ParamSpec(name, .double(nil), doc: doc + "; nominally 0…1"))
            case MGF0R_PARAM_COLOR:
                params.append(ParamSpec(name, .numbers(3...3), doc: doc + "; colour [r, g, b], each 0…1"))
            case MGF0R_PARAM_POSITION:
                params.append(ParamSpec(name, .numbers(2...2), doc: doc + "; position [x, y], nominally 0…1"))
            case MGF0R_PARAM_STRING:
                params.append(ParamSpec(name, .string, doc: doc))
            default:
                throw PluginError(file: path, "param #\(k) \"\(original)\" has unknown frei0r type \(p.type)")
            }
            kinds.append(p.type)
        }
        paramKinds = kinds
        var explanation = (try CText.read(pi.explanation, limit: PluginLimits.maxTextBytes, fail: field("explanation")) ?? "").trimmingCharacters(in: .whitespaces)
        if !explanation.isEmpty && !".!?".contains(explanation.last!) { explanation += "." }
        let doc = "frei0r \(pluginName) \(pi.major_version).\(pi.minor_version): \(explanation) Frame width and height must be multiples of \(Frei0rPlugin.sizeMultiple)."
        info = NodeTypeInfo(name: typeName, doc: doc, category: .filter,
                            inputs: [PortSpec("in", .video(formats), doc: "raw video, packed 32-bit pixels")],
                            outputs: [PortSpec("out", .video(formats), doc: "raw video, same format")],
                            params: params, origin: path)
    }

    /// The factory to register with `info`.
    public var make: NodeRegistry.Factory {
        let plugin = self
        return { setup in Frei0rNode(plugin: plugin, setup: setup) }
    }
}

/// The frei0r functions of one library, looked up once.
struct Frei0rAPI: Sendable {
    let initialize: mgf0r_init_fn
    let getPluginInfo: mgf0r_get_plugin_info_fn
    let getParamInfo: mgf0r_get_param_info_fn
    let construct: mgf0r_construct_fn
    let destruct: mgf0r_destruct_fn
    let setParam: mgf0r_set_param_value_fn
    let getParam: mgf0r_get_param_value_fn
    /// Absent in mixers (they export f0r_update2 only).
    let update: mgf0r_update_fn?

    init(_ lib: SharedLibrary) throws {
        func f<T>(_ name: String, _ t: T.Type) throws -> T { try lib.function(name, as: t, kind: "frei0r") }
        initialize = try f("f0r_init", mgf0r_init_fn.self)
        getPluginInfo = try f("f0r_get_plugin_info", mgf0r_get_plugin_info_fn.self)
        getParamInfo = try f("f0r_get_param_info", mgf0r_get_param_info_fn.self)
        construct = try f("f0r_construct", mgf0r_construct_fn.self)
        destruct = try f("f0r_destruct", mgf0r_destruct_fn.self)
        setParam = try f("f0r_set_param_value", mgf0r_set_param_value_fn.self)
        getParam = try f("f0r_get_param_value", mgf0r_get_param_value_fn.self)
        update = lib.symbol("f0r_update").map { unsafeBitCast($0, to: mgf0r_update_fn.self) }
    }
}

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
