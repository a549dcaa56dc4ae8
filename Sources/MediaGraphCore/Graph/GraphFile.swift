import Foundation

/// Reads a graph file (JSON) into a `GraphSpec`, reporting every problem it finds together,
/// each with its line and column.
///
/// ```json
/// { "nodes": { "src": { "type": "testsrc", "params": { "frames": 60 } }, "out": { "type": "y4msink", "params": { "path": "out.y4m" } } },
///   "chains": [["src", "out"]] }
/// ```
/// In a chain, `"id.port"` names an input port of the node (where the edge arrives); on the
/// first element of a chain it names the output port the chain leaves from.
public enum GraphFile {
    /// Loads and parses the file at `path`, applying `--set id.param=value` overrides.
    public static func load(path: String, overrides: [String] = []) throws -> GraphSpec {
        let bytes: [UInt8]
        do {
            bytes = try SmallFileReader.read(path, limit: JSONLimits.maxBytes)
        } catch {
            let why: String
            switch error {
            case .unreadable(let reason): why = reason
            case .isDirectory: why = "it is a directory"
            case .tooLarge(let limit): why = "it is larger than the limit of \(limit) bytes (\(limit >> 20) MiB) for graph files"
            case .notRegularFile: why = "not a regular file"
            }
            throw GraphValidationError([.error("cannot read graph file '\(path)': \(why)", file: path)])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw GraphValidationError([.error("graph file '\(path)' is not UTF-8 text", file: path)])
        }
        let dir = (path as NSString).deletingLastPathComponent
        return try parse(text: text, file: path, baseDirectory: dir.isEmpty ? "." : dir, overrides: overrides)
    }

    /// Parses graph JSON text.
    public static func parse(text: String, file: String? = nil, baseDirectory: String = ".",
                             overrides: [String] = []) throws -> GraphSpec {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch let e as JSONSyntaxError {
            throw GraphValidationError([.error("invalid JSON: \(e.message)", file: file, at: e.location)])
        }
        var problems: [GraphDiagnostic] = []
        var spec = GraphSpec()
        spec.file = file
        spec.baseDirectory = baseDirectory

        guard let top = root.objectMembers else {
            throw GraphValidationError([.error("a graph file must be a JSON object with \"nodes\" and \"chains\", found \(root.typeName)",
                                               file: file, at: root.location)])
        }
        for (key, value) in top where !["nodes", "chains", "plugins", "description", "fuse"].contains(key) {
            var msg = "unknown top-level key \"\(key)\"; expected \"nodes\", \"chains\", \"plugins\", \"fuse\" or \"description\""
            if let near = ClosestName.find(key, in: ["nodes", "chains", "plugins", "description", "fuse"]) { msg += " (did you mean \"\(near)\"?)" }
            problems.append(.error(msg, file: file, at: value.location))
        }

        // nodes
        if let nodes = root["nodes"] {
            if let members = nodes.objectMembers, members.count > GraphLimits.maxNodes {
                problems.append(.error("the graph has \(members.count) nodes, more than the limit of \(GraphLimits.maxNodes)", file: file, at: nodes.location))
            } else if let members = nodes.objectMembers, members.isEmpty {
                problems.append(.error("\"nodes\" is empty: a graph needs at least a source and a sink (`mediagraph nodes` lists them)", file: file, at: nodes.location))
            } else if let members = nodes.objectMembers {
                for (id, value) in members {
                    if !isIdentifier(id) {
                        problems.append(.error("node id \"\(id)\" is not an identifier (letters, digits, '_' and '-', not starting with a digit)",
                                               node: id, file: file, at: value.location))
                        continue
                    }
                    guard let fields = value.objectMembers else {
                        problems.append(.error("node '\(id)': expected an object with \"type\" and \"params\", found \(value.typeName)",
                                               node: id, file: file, at: value.location))
                        continue
                    }
                    for (k, v) in fields where k != "type" && k != "params" {
                        problems.append(.error("node '\(id)': unknown key \"\(k)\"; a node has \"type\" and \"params\"",
                                               node: id, file: file, at: v.location))
                    }
                    guard let typeValue = value["type"] else {
                        problems.append(.error("node '\(id)': missing \"type\"", node: id, file: file, at: value.location))
                        continue
                    }
                    guard let type = typeValue.stringValue else {
                        problems.append(.error("node '\(id)': \"type\" must be a string, found \(typeValue.typeName)",
                                               node: id, file: file, at: typeValue.location))
                        continue
                    }
                    spec.nodes.append(.init(id: id, type: type, params: value["params"], location: typeValue.location))
                }
            } else {
                problems.append(.error("\"nodes\" must be an object mapping ids to nodes, found \(nodes.typeName)", file: file, at: nodes.location))
            }
        } else {
            problems.append(.error("the graph has no \"nodes\"", file: file, at: root.location))
        }

        // chains
        if let chains = root["chains"] {
            let references = chains.arrayValue?.reduce(0) { $0 + ($1.arrayValue?.count ?? 1) } ?? 0
            if references > GraphLimits.maxChainReferences {
                problems.append(.error("the chains hold \(references) node references, more than the limit of \(GraphLimits.maxChainReferences)", file: file, at: chains.location))
            } else if let list = chains.arrayValue {
                for chain in list {
                    guard let refs = chain.arrayValue else {
                        problems.append(.error("each chain must be an array of node references, found \(chain.typeAndValue)",
                                               file: file, at: chain.location))
                        continue
                    }
                    if refs.count < 2 {
                        problems.append(.error("a chain needs at least two node references, found \(refs.count)", file: file, at: chain.location))
                        continue
                    }
                    var parsed: [(PortRef, SourceLocation?)] = []
                    var ok = true
                    for r in refs {
                        guard let s = r.stringValue else {
                            problems.append(.error("a node reference must be a string \"id\" or \"id.port\", found \(r.typeAndValue)",
                                                   file: file, at: r.location))
                            ok = false
                            continue
                        }
                        let ref = parseRef(s)
                        if !isIdentifier(ref.node) || (ref.port.map { !isIdentifier($0) } ?? false) {
                            problems.append(.error("\"\(s)\" is not a node reference \"id\" or \"id.port\"", file: file, at: r.location))
                            ok = false
                            continue
                        }
                        parsed.append((ref, r.location))
                    }
                    guard ok else { continue }
                    for k in 1..<parsed.count {
                        var from = parsed[k - 1].0
                        if k - 1 > 0 { from.port = nil }
                        spec.edges.append(.init(from: from, to: parsed[k].0, location: parsed[k].1))
                    }
                }
            } else {
                problems.append(.error("\"chains\" must be an array of chains, found \(chains.typeName)", file: file, at: chains.location))
            }
        }

        // fuse: false keeps every stage separate (bit-exact stage-by-stage output)
        if let fuse = root["fuse"] {
            if let b = fuse.boolValue { spec.fuse = b }
            else { problems.append(.error("\"fuse\" must be true or false, found \(fuse.typeAndValue)", file: file, at: fuse.location)) }
        }

        // plugins
        if let plugins = root["plugins"] {
            if let list = plugins.arrayValue {
                for p in list {
                    if let s = p.stringValue {
                        spec.plugins.append(ParamValues.resolve(s, against: baseDirectory))
                        spec.pluginEntries.append(.init(text: s, location: p.location))
                    }
                    else { problems.append(.error("\"plugins\" entries must be paths (strings), found \(p.typeName)", file: file, at: p.location)) }
                }
            } else {
                problems.append(.error("\"plugins\" must be an array of paths, found \(plugins.typeName)", file: file, at: plugins.location))
            }
        }

        // --set overrides
        for o in overrides {
            guard let eq = o.firstIndex(of: "="), let dot = o[..<eq].firstIndex(of: ".") else {
                problems.append(.error("--set '\(o)': expected id.param=value"))
                continue
            }
            let id = String(o[..<dot]), param = String(o[o.index(after: dot)..<eq]), raw = String(o[o.index(after: eq)...])
            guard let n = spec.nodes.firstIndex(where: { $0.id == id }) else {
                var msg = "--set '\(o)': no node '\(id)' in the graph"
                if let near = ClosestName.find(id, in: spec.nodes.map(\.id)) { msg += "; did you mean '\(near)'?" }
                problems.append(.error(msg, node: id))
                continue
            }
            let value = (try? JSONParser.parse(raw)) ?? .string(raw, nil)
            var members = spec.nodes[n].params?.objectMembers ?? []
            members.removeAll { $0.key == param }
            members.append((key: param, value: value))
            spec.nodes[n].params = .object(members, spec.nodes[n].params?.location)
            spec.nodes[n].commandLine[param] = CommandLineValue(argument: o, text: raw)
        }

        if problems.contains(where: { $0.severity == .error }) { throw GraphValidationError(problems) }
        return spec
    }

    /// Splits `"id.port"` into node and port.
    public static func parseRef(_ s: String) -> PortRef {
        if let dot = s.firstIndex(of: ".") {
            return PortRef(node: String(s[..<dot]), port: String(s[s.index(after: dot)...]))
        }
        return PortRef(node: s)
    }

    /// Ids and port names: letters, digits, `_` and `-`, not starting with a digit.
    public static func isIdentifier(_ s: String) -> Bool {
        guard let f = s.unicodeScalars.first, !("0"..."9").contains(f) else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }
}
