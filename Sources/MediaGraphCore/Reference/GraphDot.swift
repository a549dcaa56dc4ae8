/// Renders a validated graph in Graphviz DOT: nodes (inserted converters dashed, own-thread
/// nodes bold) and edges labelled with their negotiated formats.
public enum GraphDot {
    public static func render(_ g: ValidatedGraph, ownThreads: Set<String>) -> String {
        var out = "digraph mediagraph {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n"
        for n in g.nodes {
            var attrs = ["label=\"\(n.id)\\n(\(n.info.name))\""]
            if n.inserted { attrs.append("style=dashed"); attrs.append("color=gray40") }
            else if ownThreads.contains(n.id) { attrs.append("penwidth=2") }
            out += "  \"\(n.id)\" [\(attrs.joined(separator: ", "))];\n"
        }
        for c in g.connections {
            let to = g.nodes[c.to]
            let port = to.inputNames[c.toInput]
            let from = g.nodes[c.from]
            var label = from.outputNames.count > 1 ? "\(from.outputNames[c.fromPort]) →\\n" : ""
            label += "\(c.format)" + (to.info.inputs.count > 1 || to.info.inputs.first?.repeatable == true ? "\\n→ \(port)" : "")
            out += "  \"\(g.nodes[c.from].id)\" -> \"\(to.id)\" [label=\"\(label)\"];\n"
        }
        return out + "}\n"
    }
}
