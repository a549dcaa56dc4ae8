import CMediaGraphPlugin
import MediaGraphCore
import MediaGraphPluginKit

/// A loaded plugin that speaks the MediaGraph C interface (`mediagraph_plugin.h`).
public struct CPlugin: Sendable {
    /// The file it was loaded from.
    public let path: String
    /// The plugin's own name and version text.
    public let name: String
    public let version: String
    /// Its node types, ready to register (`origin` is the plugin file).
    public let nodeTypes: [(info: NodeTypeInfo, make: NodeRegistry.Factory)]

    /// The newest ABI version this host speaks (mediagraph_plugin.h's MG_PLUGIN_ABI_VERSION).
    public static let hostABIVersion = UInt32(MG_PLUGIN_ABI_VERSION)
    /// The versions it loads: version 1's descriptors (mg_node_desc_v1) are read too.
    public static let supportedABIVersions: ClosedRange<UInt32> = 1...hostABIVersion

    /// Opens and checks a plugin file: entry point, ABI version, then every node type's
    /// declaration. Throws a `PluginError` naming the file (and node) on the first problem.
    public init(path: String) throws {
        let lib = try SharedLibrary(path: path)
        let entry = try lib.function(MG_PLUGIN_ENTRY_SYMBOL, as: mg_plugin_entry_fn.self, kind: "MediaGraph")
        guard let desc = entry() else { throw PluginError(file: path, "\(MG_PLUGIN_ENTRY_SYMBOL)() returned NULL") }
        // The version is the first field of every ABI version's descriptor: read it before trusting the rest.
        let abi = desc.pointee.abi_version
        guard CPlugin.supportedABIVersions.contains(abi) else {
            let speaks = CPlugin.supportedABIVersions.map(String.init).joined(separator: " or ")
            throw PluginError(file: path, "built for plugin ABI version \(abi), but this mediagraph speaks version \(speaks); rebuild the plugin against this mediagraph_plugin.h")
        }
        self.path = path
        func field(_ f: String) -> (String) -> PluginError { { PluginError(file: path, "descriptor field '\(f)' \($0)") } }
        name = try CText.read(desc.pointee.name, limit: PluginLimits.maxNameBytes, fail: field("name")) ?? "(unnamed)"
        version = try CText.read(desc.pointee.version, limit: PluginLimits.maxNameBytes, fail: field("version")) ?? ""
        let count = Int(desc.pointee.node_count)
        guard (0...PluginLimits.maxNodeTypes).contains(count) else {
            throw field("node_count")("is \(count); expected 0…\(PluginLimits.maxNodeTypes)")
        }
        guard count == 0 || desc.pointee.nodes != nil else {
            throw PluginError(file: path, "descriptor declares \(count) node types but no node array (field 'nodes' is NULL)")
        }
        var types: [(NodeTypeInfo, NodeRegistry.Factory)] = []
        var seen: Set<String> = []
        for k in 0..<count {
            // a version-1 plugin's array has version 1's (shorter) entries
            let node = abi == 1 ? CPluginNodeType.upgrade(UnsafeRawPointer(desc.pointee.nodes!).assumingMemoryBound(to: mg_node_desc_v1.self)[k])
                                : desc.pointee.nodes![k]
            let type = try CPluginNodeType(path: path, desc: node, index: k)
            guard seen.insert(type.info.name).inserted else {
                throw PluginError(file: path, "declares node type '\(type.info.name)' twice")
            }
            if type.isVersion2 {
                types.append((type.info, { setup in CPluginNodeN(type: type, setup: setup) }))
            } else {
                types.append((type.info, { setup in try CPluginNode(type: type, setup: setup) }))
            }
        }
        nodeTypes = types
    }
}

/// One node type of a C plugin: its declaration checked and turned into a `NodeTypeInfo`.
///
/// `@unchecked Sendable` because `desc` holds C pointers: into the plugin's descriptor, which the
/// plugin builds once and never changes (the ABI's contract), in a library that stays loaded for
/// the life of the process; the host only reads them, from any thread that creates a node.
struct CPluginNodeType: @unchecked Sendable {
    let path: String
    /// A copy of the plugin's declaration (a version-1 entry upgraded, version-2 fields zero).
    let desc: mg_node_desc
    let info: NodeTypeInfo
    /// The declared params as typed keys, in the plugin's order (index = the plugin's index).
    let params: [CPluginParam]
    /// A version-2 node (`process_n` set): N inputs, an output format of its own.
    let isVersion2: Bool
    /// Input port names, in input order (`in` for a version-1 node).
    let inputNames: [String]

    /// A version-1 entry as a current one: the same fields, version 2's zero.
    static func upgrade(_ v1: mg_node_desc_v1) -> mg_node_desc {
        var d = mg_node_desc()
        d.name = v1.name
        d.doc = v1.doc
        d.formats = v1.formats
        d.format_count = v1.format_count
        d.params = v1.params
        d.param_count = v1.param_count
        d.flags = v1.flags
        d.node_data = v1.node_data
        d.create = v1.create
        d.set_param = v1.set_param
        d.process = v1.process
        d.flush = v1.flush
        d.destroy = v1.destroy
        return d
    }

    init(path: String, desc d: mg_node_desc, index: Int) throws {
        let cname = try CText.read(d.name, limit: PluginLimits.maxNameBytes) {
            PluginError(file: path, "node type #\(index): field 'name' \($0)")
        }
        guard let name = cname, !name.isEmpty else {
            throw PluginError(file: path, "node type #\(index) has no name")
        }
        func fail(_ m: String) -> PluginError { PluginError(file: path, "node type '\(name)': \(m)") }
        func field(_ f: String) -> (String) -> PluginError { { fail("field '\(f)' \($0)") } }
        let version2 = d.process_n != nil
        if version2 {
            guard d.create_n != nil, d.destroy != nil else {
                throw fail("a version-2 node (process_n set) needs the create_n, process_n and destroy callbacks")
            }
            guard (1...PluginLimits.maxInputs).contains(Int(d.input_count)) else {
                throw field("input_count")("is \(d.input_count); expected 1…\(PluginLimits.maxInputs) video inputs")
            }
        } else {
            guard d.create != nil, d.process != nil, d.destroy != nil else {
                throw fail("the create, process and destroy callbacks are required")
            }
            guard d.input_count == 0 || d.input_count == 1, d.input_names == nil else {
                throw fail("declares input_count \(d.input_count) or input names without a process_n callback; a node with several inputs is a version-2 node (set create_n and process_n)")
            }
        }
        let inputCount = version2 ? Int(d.input_count) : 1
        var inputNames: [String] = []
        for k in 0..<inputCount {
            guard version2, let names = d.input_names else { inputNames.append(k == 0 ? "in" : "in\(k)"); continue }
            let n = try CText.read(names[k], limit: PluginLimits.maxNameBytes) { fail("input #\(k): field 'input_names' \($0)") }
            guard let n, ParamName.isIdentifier(n) else { throw fail("input #\(k) needs an identifier name (letters, digits, '_'), found \(n.map { "'\($0)'" } ?? "NULL")") }
            guard !inputNames.contains(n) else { throw fail("declares input '\(n)' twice") }
            inputNames.append(n)
        }
        guard (1...PluginLimits.maxFormats).contains(Int(d.format_count)) else {
            throw d.format_count <= 0 ? fail("declares no accepted pixel formats")
                                      : field("format_count")("is \(d.format_count); expected 1…\(PluginLimits.maxFormats)")
        }
        guard let fp = d.formats else { throw field("formats")("is NULL but format_count is \(d.format_count)") }
        var formats: [PixelFormat] = []
        for i in 0..<Int(d.format_count) {
            guard let f = FormatCode.format(fp[i]) else { throw fail("unknown pixel format code \(fp[i])") }
            formats.append(f)
        }
        guard (0...PluginLimits.maxParams).contains(Int(d.param_count)) else {
            throw field("param_count")("is \(d.param_count); expected 0…\(PluginLimits.maxParams)")
        }
        guard d.param_count == 0 || (d.params != nil && d.set_param != nil) else {
            throw fail("declares \(d.param_count) params without a param array or a set_param callback")
        }
        let doc = try CText.read(d.doc, limit: PluginLimits.maxTextBytes, fail: field("doc")) ?? ""
        var params: [CPluginParam] = []
        var seen: Set<String> = []
        for i in 0..<Int(d.param_count) {
            let p = d.params![i]
            let pn = try CText.read(p.name, limit: PluginLimits.maxNameBytes) { fail("param #\(i): field 'name' \($0)") }
            guard let pname = pn, ParamName.isIdentifier(pname) else {
                throw fail("param #\(i) needs an identifier name (letters, digits, '_')")
            }
            guard seen.insert(pname).inserted else { throw fail("declares param '\(pname)' twice") }
            if inputCount > 1, SyncParams.all.contains(where: { $0.spec.name == pname }) {
                throw fail("param '\(pname)' has the name of a param the host gives every node with several inputs (end, offsets, ended)")
            }
            func paramField(_ f: String) -> (String) -> PluginError { { fail("param '\(pname)': field '\(f)' \($0)") } }
            let pdoc = try CText.read(p.doc, limit: PluginLimits.maxTextBytes, fail: paramField("doc")) ?? ""
            let isNumber = p.type == Int32(MG_PARAM_DOUBLE.rawValue) || p.type == Int32(MG_PARAM_INT.rawValue)
            let isInteger = p.type == Int32(MG_PARAM_INT.rawValue)
            // numbers first: NaN, ±1e300 or 2.5 for an integer must not reach a conversion
            if isNumber || p.type == Int32(MG_PARAM_BOOL.rawValue) {
                if let why = DeclaredNumber.problem(p.default_number, integer: isInteger) { throw paramField("default_number")(why) }
            }
            if isNumber && p.has_range != 0 {
                if let why = DeclaredNumber.problem(p.min, integer: isInteger) { throw paramField("min")(why) }
                if let why = DeclaredNumber.problem(p.max, integer: isInteger) { throw paramField("max")(why) }
            }
            let range: ClosedRange<Double>? = p.has_range != 0 && p.min <= p.max ? p.min...p.max : nil
            if isNumber && p.has_range != 0 && range == nil { throw fail("param '\(pname)': min \(p.min) is above max \(p.max)") }
            if let range, isNumber, !range.contains(p.default_number) {
                throw fail("param '\(pname)': default \(p.default_number) is outside \(range.lowerBound)…\(range.upperBound)")
            }
            switch p.type {
            case Int32(MG_PARAM_DOUBLE.rawValue):
                params.append(.double(Param(pname, range, default: p.default_number, doc: pdoc)))
            case Int32(MG_PARAM_INT.rawValue):
                // whole and within ±1e15 (checked above): the conversions are exact
                let r = range.map { Int($0.lowerBound)...Int($0.upperBound) }
                params.append(.int(Param(pname, r, default: Int(p.default_number), doc: pdoc)))
            case Int32(MG_PARAM_BOOL.rawValue):
                params.append(.bool(Param(pname, default: p.default_number != 0, doc: pdoc)))
            case Int32(MG_PARAM_STRING.rawValue):
                let d = try CText.read(p.default_string, limit: PluginLimits.maxTextBytes, fail: paramField("default_string")) ?? ""
                params.append(.string(Param(pname, default: d, doc: pdoc)))
            default:
                throw fail("param '\(pname)' has unknown type code \(p.type)")
            }
        }
        self.path = path
        self.desc = d
        self.params = params
        self.isVersion2 = version2
        self.inputNames = inputNames
        if version2 {
            let same = d.flags & UInt32(MG_NODE_SAME_INPUT_SIZE) != 0
            let inputs = inputNames.enumerated().map { k, n in
                PortSpec(n, .video(formats), doc: k == 0 ? "raw video" : same ? "raw video; a scale or convert is inserted when it differs from '\(inputNames[0])'" : "raw video")
            }
            var v2 = NodeTypeInfo(name: name, doc: doc, category: .filter, inputs: inputs,
                                  outputs: [PortSpec("out", .video(FormatCode.formats), doc: "raw video of the size and format the plugin chooses from its inputs'")],
                                  params: params.map(\.spec) + (inputCount > 1 ? ParamSpec.list(SyncParams.all) : []), origin: path)
            v2.matchedInputs = same ? [.videoGeometry, .videoUpright] : [.videoUpright]
            info = v2
        } else {
            info = NodeTypeInfo(name: name, doc: doc, category: .filter,
                                inputs: [PortSpec("in", .video(formats), doc: "raw video")],
                                outputs: [PortSpec("out", .video(formats), doc: "raw video, same format")],
                                params: params.map(\.spec), origin: path)
        }
    }
}

/// Param names as graph files write them.
enum ParamName {
    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.properties.isAlphabetic && first.isASCII) else { return false }
        return s.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// A frei0r param name ("Shadow strength", "Blur-amount") as an identifier: words joined
    /// in lower camel case, other characters dropped, a leading digit prefixed with '_'.
    static func sanitize(_ s: String) -> String {
        var words: [String] = []
        var current = ""
        for ch in s.unicodeScalars {
            if ch.isASCII && (ch.properties.isAlphabetic || ("0"..."9").contains(ch)) {
                current.unicodeScalars.append(ch)
            } else if !ch.isASCII {
                continue   // "Bézier" reads as "Bzier", not as two words
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        var out = ""
        for (i, w) in words.enumerated() {
            out += i == 0 ? w.prefix(1).lowercased() + w.dropFirst() : w.prefix(1).uppercased() + w.dropFirst()
        }
        if out.isEmpty { return "_" }
        if let f = out.unicodeScalars.first, ("0"..."9").contains(f) { out = "_" + out }
        return out
    }
}
