import CMediaGraphPlugin
import MediaGraphCore

/// A loaded plugin that speaks the MediaGraph C interface (`mediagraph_plugin.h`).
public struct CPlugin: @unchecked Sendable {
    /// The file it was loaded from.
    public let path: String
    /// The plugin's own name and version text.
    public let name: String
    public let version: String
    /// Its node types, ready to register (`origin` is the plugin file).
    public let nodeTypes: [(info: NodeTypeInfo, make: NodeRegistry.Factory)]

    /// The ABI version this host speaks.
    public static let hostABIVersion = UInt32(MG_PLUGIN_ABI_VERSION)

    /// Opens and checks a plugin file: entry point, ABI version, then every node type's
    /// declaration. Throws a `PluginError` naming the file (and node) on the first problem.
    public init(path: String) throws {
        let lib = try SharedLibrary(path: path)
        let entry = try lib.function(MG_PLUGIN_ENTRY_SYMBOL, as: mg_plugin_entry_fn.self, kind: "MediaGraph")
        guard let desc = entry() else { throw PluginError(file: path, "\(MG_PLUGIN_ENTRY_SYMBOL)() returned NULL") }
        // The version is the first field of every ABI version's descriptor: read it before trusting the rest.
        let abi = desc.pointee.abi_version
        guard abi == CPlugin.hostABIVersion else {
            throw PluginError(file: path, "built for plugin ABI version \(abi), but this mediagraph speaks version \(CPlugin.hostABIVersion); rebuild the plugin against this mediagraph_plugin.h")
        }
        self.path = path
        name = desc.pointee.name.map { String(cString: $0) } ?? "(unnamed)"
        version = desc.pointee.version.map { String(cString: $0) } ?? ""
        let count = Int(desc.pointee.node_count)
        guard count >= 0, count == 0 || desc.pointee.nodes != nil else {
            throw PluginError(file: path, "descriptor declares \(count) node types but no node array")
        }
        var types: [(NodeTypeInfo, NodeRegistry.Factory)] = []
        var seen: Set<String> = []
        for k in 0..<count {
            let node = desc.pointee.nodes! + k
            let type = try CPluginNodeType(path: path, desc: node, index: k)
            guard seen.insert(type.info.name).inserted else {
                throw PluginError(file: path, "declares node type '\(type.info.name)' twice")
            }
            types.append((type.info, { setup in try CPluginNode(type: type, setup: setup) }))
        }
        nodeTypes = types
    }
}

/// One node type of a C plugin: its declaration checked and turned into a `NodeTypeInfo`.
struct CPluginNodeType: @unchecked Sendable {
    let path: String
    let desc: UnsafePointer<mg_node_desc>
    let info: NodeTypeInfo
    let paramTypes: [mg_param_type]

    init(path: String, desc: UnsafePointer<mg_node_desc>, index: Int) throws {
        let d = desc.pointee
        guard let cname = d.name, case let name = String(cString: cname), !name.isEmpty else {
            throw PluginError(file: path, "node type #\(index) has no name")
        }
        func fail(_ m: String) -> PluginError { PluginError(file: path, "node type '\(name)': \(m)") }
        guard d.create != nil, d.process != nil, d.destroy != nil else {
            throw fail("the create, process and destroy callbacks are required")
        }
        guard d.format_count > 0, let fp = d.formats else { throw fail("declares no accepted pixel formats") }
        var formats: [PixelFormat] = []
        for i in 0..<Int(d.format_count) {
            guard let f = PixelFormatCode.format(fp[i]) else { throw fail("unknown pixel format code \(fp[i])") }
            formats.append(f)
        }
        guard d.param_count >= 0, d.param_count == 0 || (d.params != nil && d.set_param != nil) else {
            throw fail("declares \(d.param_count) params without a param array or a set_param callback")
        }
        var params: [ParamSpec] = []
        var types: [mg_param_type] = []
        for i in 0..<Int(d.param_count) {
            let p = d.params![i]
            guard let pn = p.name, case let pname = String(cString: pn), ParamName.isIdentifier(pname) else {
                throw fail("param #\(i) needs an identifier name (letters, digits, '_')")
            }
            let doc = p.doc.map { String(cString: $0) } ?? ""
            let range: ClosedRange<Double>? = p.has_range != 0 && p.min <= p.max ? p.min...p.max : nil
            if p.has_range != 0 && range == nil { throw fail("param '\(pname)': min \(p.min) is above max \(p.max)") }
            if let range, p.type != MG_PARAM_STRING.rawValue, p.type != MG_PARAM_BOOL.rawValue, !range.contains(p.default_number) {
                throw fail("param '\(pname)': default \(p.default_number) is outside \(range.lowerBound)…\(range.upperBound)")
            }
            switch p.type {
            case Int32(MG_PARAM_DOUBLE.rawValue):
                params.append(.double(pname, range, default: p.default_number, doc: doc))
            case Int32(MG_PARAM_INT.rawValue):
                let r = range.map { Int($0.lowerBound.rounded())...Int($0.upperBound.rounded()) }
                params.append(.int(pname, r, default: Int(p.default_number.rounded()), doc: doc))
            case Int32(MG_PARAM_BOOL.rawValue):
                params.append(.bool(pname, default: p.default_number != 0, doc: doc))
            case Int32(MG_PARAM_STRING.rawValue):
                params.append(.string(pname, default: p.default_string.map { String(cString: $0) } ?? "", doc: doc))
            default:
                throw fail("param '\(pname)' has unknown type code \(p.type)")
            }
            types.append(mg_param_type(rawValue: UInt32(p.type)))
        }
        self.path = path
        self.desc = desc
        self.paramTypes = types
        info = NodeTypeInfo(name: name, doc: d.doc.map { String(cString: $0) } ?? "", category: .filter,
                            inputs: [PortSpec("in", .video(formats), doc: "raw video")],
                            outputs: [PortSpec("out", .video(formats), doc: "raw video, same format")],
                            params: params, origin: path)
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
