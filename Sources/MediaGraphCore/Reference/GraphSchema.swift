/// Generates the JSON Schema of graph files from the node registry, so editors can complete node
/// types and params (`mediagraph schema > Docs/graph.schema.json`).
public enum GraphSchema {
    public static func make(registry: NodeRegistry) -> JSONValue {
        var nodeVariants: [JSONValue] = []
        for name in registry.typeNames {
            let info = registry.entry(name)!.info
            var props: [(String, JSONValue)] = []
            for p in info.params { props.append((p.name, schema(of: p))) }
            let required = info.params.filter(\.required).map { JSONValue.str($0.name) }
            var paramsSchema: [(String, JSONValue)] = [("type", .str("object")), ("additionalProperties", .bool(false, nil)),
                                                        ("properties", .obj(props))]
            if !required.isEmpty { paramsSchema.append(("required", .arr(required))) }
            var variant: [(String, JSONValue)] = [
                ("description", .str(info.doc)),
                ("properties", .obj([("type", .obj([("const", .str(name))])), ("params", .obj(paramsSchema))])),
            ]
            variant.append(("required", .arr(required.isEmpty ? [.str("type")] : [.str("type"), .str("params")])))
            nodeVariants.append(.obj([("if", .obj([("properties", .obj([("type", .obj([("const", .str(name))]))]))])),
                                      ("then", .obj(variant))]))
        }
        let node: JSONValue = .obj([
            ("type", .str("object")),
            ("additionalProperties", .bool(false, nil)),
            ("required", .arr([.str("type")])),
            ("properties", .obj([
                ("type", .obj([
                    ("anyOf", .arr([
                        .obj([("enum", .arr(registry.typeNames.map { .str($0) }))]),
                        // frei0r effects and plugins loaded at run time ("frei0r.glow", "example.posterize"):
                        // their params are checked when the graph is validated, not here
                        .obj([("type", .str("string")), ("pattern", .str("^[A-Za-z0-9_-]+\\.[A-Za-z0-9_.-]+$"))]),
                    ])),
                    ("description", .str("node type (`mediagraph nodes` lists them); a dotted name is a frei0r effect or a plugin's type")),
                ])),
                ("params", .obj([("type", .str("object"))])),
            ])),
            ("allOf", .arr(nodeVariants)),
        ])
        let ref: JSONValue = .obj([("type", .str("string")), ("pattern", .str("^[A-Za-z_-][A-Za-z0-9_-]*(\\.[A-Za-z_-][A-Za-z0-9_-]*)?$"))])
        return .obj([
            ("$schema", .str("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .str("https://mediagraph.dev/graph.schema.json")),
            ("title", .str("MediaGraph graph file")),
            ("type", .str("object")),
            ("additionalProperties", .bool(false, nil)),
            ("required", .arr([.str("nodes"), .str("chains")])),
            ("properties", .obj([
                ("description", .obj([("type", .str("string"))])),
                ("fuse", .obj([("type", .str("boolean")),
                               ("description", .str("false keeps every filter its own pass (bit-exact stage-by-stage output); default true"))])),
                ("plugins", .obj([("type", .str("array")), ("items", .obj([("type", .str("string"))])),
                                  ("description", .str("plugin files or directories, relative to the graph file"))])),
                ("nodes", .obj([("type", .str("object")),
                                ("propertyNames", .obj([("pattern", .str("^[A-Za-z_-][A-Za-z0-9_-]*$"))])),
                                ("additionalProperties", node)])),
                ("chains", .obj([("type", .str("array")),
                                 ("items", .obj([("type", .str("array")), ("minItems", .int(2)), ("items", ref)]))])),
            ])),
        ])
    }

    static func schema(of p: ParamSpec) -> JSONValue {
        var s: [(String, JSONValue)] = [("description", .str(p.doc))]
        switch p.type {
        case .int(let r):
            s.append(("type", .str("integer")))
            if let r { s.append(("minimum", .int(r.lowerBound))); s.append(("maximum", .int(r.upperBound))) }
        case .double(let r):
            s.append(("type", .str("number")))
            if let r { s.append(("minimum", .num(r.lowerBound))); s.append(("maximum", .num(r.upperBound))) }
        case .bool: s.append(("type", .str("boolean")))
        case .string, .path: s.append(("type", .str("string")))
        case .choice(let words):
            // a numeral choice may be written as a number too (`ParamValidator.choiceWord`)
            let numbers = words.compactMap { ParamValidator.numeral($0).map(JSONValue.num) }
            s.append(("enum", .arr(words.map { .str($0) } + numbers)))
        case .rational: s.append(("type", .arr([.str("string"), .str("number")])))
        case .numbers(let c):
            s.append(("type", .str("array")))
            s.append(("items", .obj([("type", .str("number"))])))
            s.append(("minItems", .int(c.lowerBound)))
            s.append(("maxItems", .int(c.upperBound)))
        case .json: break
        case .time:
            s.append(("type", .arr([.str("string"), .str("number")])))
            s.append(("minimum", .int(0)))
            s.append(("pattern", .str(#"^\s*(frame:[0-9]+|([0-9]+:)?([0-9]+:)?[0-9]+(\.[0-9]+)?)\s*$"#)))
        case .times(let c):
            s.append(("type", .str("array")))
            s.append(("items", .obj([("type", .arr([.str("string"), .str("number")])), ("minimum", .int(0)),
                                     ("pattern", .str(#"^\s*([0-9]+:)?([0-9]+:)?[0-9]+(\.[0-9]+)?\s*$"#))])))
            s.append(("minItems", .int(c.lowerBound)))
            s.append(("maxItems", .int(c.upperBound)))
        }
        if let d = p.defaultValue { s.append(("default", d)) }
        return .obj(s)
    }
}
