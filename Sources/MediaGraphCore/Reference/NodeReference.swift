/// Human and machine descriptions of node types: `mediagraph nodes [TYPE] [--json]` and the
/// generated Docs/nodes.md.
public enum NodeReference {
    /// One line per type, grouped by category.
    public static func list(registry: NodeRegistry) -> String {
        var out = ""
        for cat in NodeCategory.allCases {
            let infos = registry.typeNames.map { registry.entry($0)!.info }.filter { $0.category == cat }
            if infos.isEmpty { continue }
            out += "\(cat.rawValue)s:\n"
            let width = infos.map(\.name.count).max() ?? 0
            for i in infos {
                let origin = i.origin == "built-in" ? "" : "  [\(i.origin)]"
                out += "  " + i.name.padding(to: width) + "  " + i.doc + origin + "\n"
            }
        }
        return out
    }

    /// One type in full, like gst-inspect.
    public static func detail(_ i: NodeTypeInfo) -> String {
        var out = "\(i.name) (\(i.category.rawValue), \(i.origin))\n  \(i.doc)\n"
        out += "\ninputs:\n"
        if i.inputs.isEmpty { out += "  (none)\n" }
        for p in i.inputs {
            out += "  \(p.name)\(p.repeatable ? ", \(p.name)1, \(p.name)2, …" : "")\(p.optional ? " (optional)" : ""): \(p.caps)\(p.doc.isEmpty ? "" : " — \(p.doc)")\n"
        }
        out += "\noutputs:\n"
        if i.outputs.isEmpty { out += "  (none)\n" }
        for p in i.outputs { out += "  \(p.name): \(p.caps)\(p.doc.isEmpty ? "" : " — \(p.doc)")\n" }
        out += "\nparams:\n"
        if i.params.isEmpty { out += "  (none)\n" }
        for p in i.params {
            var line = "  \(p.name): \(p.type.summary)"
            if let d = p.defaultValue { line += ", default \(d.brief)" } else if p.required { line += ", required" }
            if p.live { line += ", changeable while running" }
            out += line + "\n      \(p.doc)\n"
        }
        out += "\nthreading: \(i.threading == .inline ? "runs on its upstream's thread" : "own thread behind a bounded queue")\n"
        return out
    }

    /// A type as JSON (for `--json`).
    public static func json(_ i: NodeTypeInfo) -> JSONValue {
        func port(_ p: PortSpec) -> JSONValue {
            .obj([("name", .str(p.name)), ("accepts", .str(p.caps.description)), ("repeatable", .bool(p.repeatable, nil)),
                  ("optional", .bool(p.optional, nil)), ("doc", .str(p.doc))])
        }
        return .obj([
            ("name", .str(i.name)), ("category", .str(i.category.rawValue)), ("origin", .str(i.origin)), ("doc", .str(i.doc)),
            ("inputs", .arr(i.inputs.map(port))), ("outputs", .arr(i.outputs.map(port))),
            ("params", .arr(i.params.map { p in
                var m: [(String, JSONValue)] = [("name", .str(p.name)), ("type", .str(p.type.summary)), ("required", .bool(p.required, nil)), ("doc", .str(p.doc))]
                if let d = p.defaultValue { m.append(("default", d)) }
                if p.live { m.append(("live", .bool(true, nil))) }
                return .obj(m)
            })),
        ])
    }

    /// Docs/nodes.md, generated (a test keeps the committed file in sync).
    public static func markdown(registry: NodeRegistry) -> String {
        var out = "# Node reference\n\nGenerated from the node registry by `mediagraph nodes --markdown`; do not edit by hand.\n"
        for cat in NodeCategory.allCases {
            let infos = registry.typeNames.map { registry.entry($0)!.info }.filter { $0.category == cat && $0.origin == "built-in" }
            if infos.isEmpty { continue }
            out += "\n## \(cat.rawValue.capitalized)s\n"
            for i in infos {
                out += "\n### \(i.name)\n\n\(i.doc)\n\n"
                if !i.inputs.isEmpty {
                    out += "Inputs: " + i.inputs.map { "`\($0.name)\($0.repeatable ? "`, `\($0.name)1`, …" : "`")\($0.optional ? " (optional)" : "") (\($0.caps))" }.joined(separator: "; ") + "\n\n"
                }
                if !i.outputs.isEmpty {
                    out += "Outputs: " + i.outputs.map { "`\($0.name)` (\($0.caps))" }.joined(separator: "; ") + "\n\n"
                }
                if i.params.isEmpty { out += "No params.\n" } else {
                    out += "| param | type | default | description |\n| --- | --- | --- | --- |\n"
                    for p in i.params {
                        let d = p.defaultValue.map { "`\($0.brief)`" } ?? (p.required ? "required" : "—")
                        out += "| `\(p.name)` | \(p.type.summary.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")) | \(d) | \(p.doc)\(p.live ? " (changeable while running)" : "") |\n"
                    }
                }
            }
        }
        return out
    }
}

extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
