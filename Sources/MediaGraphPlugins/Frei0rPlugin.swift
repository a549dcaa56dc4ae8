import CMediaGraphPlugin
import Foundation
import MediaGraphCore

/// What a frei0r library does, from its `plugin_type`: a filter (one input, `f0r_update`) or a
/// mixer of two or three inputs (`f0r_update2`). Sources are not node types.
public enum Frei0rKind: Sendable, Equatable {
    case filter, mixer2, mixer3

    /// Video inputs of the node type.
    public var inputCount: Int {
        switch self {
        case .filter: return 1
        case .mixer2: return 2
        case .mixer3: return 3
        }
    }
}

/// A loaded frei0r effect (one shared library), described as the node type `frei0r.NAME` where
/// NAME is the file name without `.so` (as ffmpeg's `frei0r=NAME` names it). Filters have one
/// input `in`; mixers have `in`, `in1` (and `in2`), aligned by time by the engine.
public struct Frei0rPlugin: Sendable {
    public let path: String
    /// `frei0r.NAME`.
    public let typeName: String
    public let info: NodeTypeInfo
    /// What the plugin calls itself, its author and version.
    public let pluginName: String
    public let author: String
    public let colorModel: Int32
    public let kind: Frei0rKind
    let api: Frei0rAPI
    /// frei0r's own param kinds, index for index with the first entries of `info.params` (a
    /// mixer's sync params follow them).
    let paramKinds: [Int32]

    /// The size frei0r's specification asks frames to be a multiple of.
    public static let sizeMultiple = 8

    /// Opens a frei0r library and reads its declaration; sources are refused (as unsupported).
    public init(path: String) throws {
        let lib = try SharedLibrary(path: path)
        let api = try Frei0rAPI(lib)
        _ = api.initialize()
        var pi = mgf0r_plugin_info()
        api.getPluginInfo(&pi)
        let kind: Frei0rKind
        switch pi.plugin_type {
        case MGF0R_TYPE_FILTER:
            guard api.update != nil else {
                throw PluginError(file: path, "is a frei0r filter but exports no f0r_update")
            }
            kind = .filter
        case MGF0R_TYPE_MIXER2, MGF0R_TYPE_MIXER3:
            guard api.update2 != nil else {
                throw PluginError(file: path, "is a frei0r mixer but exports no f0r_update2")
            }
            kind = pi.plugin_type == MGF0R_TYPE_MIXER2 ? .mixer2 : .mixer3
        case MGF0R_TYPE_SOURCE:
            throw PluginError(file: path, "is a frei0r source; only frei0r filters and mixers are supported", unsupported: true)
        default:
            throw PluginError(file: path, "has unknown frei0r plugin_type \(pi.plugin_type); expected 0 (filter), 1 (source), 2 or 3 (mixers)")
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
        self.kind = kind
        typeName = "frei0r." + base
        pluginName = try CText.read(pi.name, limit: PluginLimits.maxNameBytes, fail: field("name")) ?? base
        author = try CText.read(pi.author, limit: PluginLimits.maxTextBytes, fail: field("author")) ?? ""
        colorModel = pi.color_model

        // Defaults: frei0r declares none, so read them from a small instance, as hosts do.
        let probe = api.construct(64, 64)
        defer { if let probe { api.destruct(probe) } }
        var params: [ParamSpec] = []
        var kinds: [Int32] = []
        // a mixer's own sync params keep their names; a frei0r param of the same name gets a suffix
        var used: Set<String> = kind == .filter ? [] : Set(SyncParams.all.map(\.spec.name))
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
        let sizeRule = "Frame width and height must be multiples of \(Frei0rPlugin.sizeMultiple)."
        if kind == .filter {
            info = NodeTypeInfo(name: typeName, doc: "frei0r \(pluginName) \(pi.major_version).\(pi.minor_version): \(explanation) \(sizeRule)",
                                category: .filter,
                                inputs: [PortSpec("in", .video(formats), doc: "raw video, packed 32-bit pixels")],
                                outputs: [PortSpec("out", .video(formats), doc: "raw video, same format")],
                                params: params, origin: path)
        } else {
            let n = kind.inputCount
            let names = (0..<n).map(Frei0rPlugin.inputName)
            let inputs = names.enumerated().map { k, name in
                PortSpec(name, .video(formats), doc: k == 0
                    ? "raw video, packed 32-bit pixels (frei0r's inframe1); the output has its size and format"
                    : "raw video (frei0r's inframe\(k + 1)); a scale or convert is inserted when it differs from '\(names[0])'")
            }
            var mixer = NodeTypeInfo(name: typeName, doc: "frei0r \(pluginName) \(pi.major_version).\(pi.minor_version): \(explanation) A \(n)-input mixer: inputs \(names.joined(separator: ", ")) aligned by time (Docs/multi-input.md). \(sizeRule)",
                                     category: .filter, inputs: inputs,
                                     outputs: [PortSpec("out", .video(formats), doc: "raw video of the first input's size and format")],
                                     params: params + ParamSpec.list(SyncParams.all), origin: path)
            mixer.matchedInputs = [.videoGeometry, .videoUpright]
            info = mixer
        }
    }

    /// The name of input `k` of a mixer: `in`, `in1`, `in2` (as `stack` names its inputs).
    static func inputName(_ k: Int) -> String { k == 0 ? "in" : "in\(k)" }

    /// The factory to register with `info`.
    public var make: NodeRegistry.Factory {
        let plugin = self
        if kind == .filter { return { setup in Frei0rNode(plugin: plugin, setup: setup) } }
        return { setup in Frei0rMixerNode(plugin: plugin, setup: setup) }
    }
}
