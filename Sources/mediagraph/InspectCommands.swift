import ArgumentParser
import Foundation
import MediaGraphCore
import MediaGraphNodes

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a graph without running it; print its nodes, edges and the negotiated format on every edge.")

    @OptionGroup var options: GraphOptions

    func run() throws {
        let g = options.load(for: .inspect)
        let runner = GraphRunner(graph: g)
        let threads = runner.ownThreadNodes
        Console.out("nodes:\n")
        for n in g.nodes {
            let thread = threads.contains(n.id) ? "own thread" : "inline"
            Console.out("  \(n.id) (\(n.info.name))\(n.inserted ? " [inserted]" : "") — \(thread)\n")
        }
        Console.out("edges:\n")
        for c in g.connections {
            let to = g.nodes[c.to]
            let from = g.nodes[c.from]
            let fromName = from.outputNames.count > 1 || from.info.hasDynamicOutputs ? "\(from.id).\(from.outputNames[c.fromPort])" : from.id
            Console.out("  \(fromName) -> \(to.id).\(to.inputNames[c.toInput]): \(c.format)\n")
        }
        for note in g.notes { Console.out("note: \(note)\n") }
        Console.out("ok: \(options.graph) is valid\n")
    }
}

struct DotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dot",
        abstract: "Print the validated graph in Graphviz DOT (inserted converters dashed), e.g. `mediagraph dot g.json | dot -Tpng > g.png`.")

    @OptionGroup var options: GraphOptions

    func run() throws {
        let g = options.load(quiet: true, for: .inspect)
        Console.out(GraphDot.render(g, ownThreads: GraphRunner(graph: g).ownThreadNodes))
    }
}

struct NodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nodes",
        abstract: "List node types, or describe one in full (ports, params, defaults).")

    @Argument(help: "A node type to describe.") var type: String?
    @Flag(help: "Machine-readable JSON.") var json = false
    @Flag(help: "The node reference in Markdown (Docs/nodes.md): built-in types only.") var markdown = false
    @OptionGroup var plugins: PluginOptions

    func run() throws {
        if markdown { Console.out(NodeReference.markdown(registry: BuiltinNodes.makeRegistry())); return }
        let catalog = plugins.catalog(frei0r: .all)
        for f in catalog.failures { Console.error("warning: \(f)") }
        let registry = catalog.registry
        if markdown { Console.out(NodeReference.markdown(registry: registry)); return }
        if let type {
            guard let e = registry.entry(type) else {
                var msg = "unknown node type '\(type)'"
                if let advice = registry.unknownTypeAdvice(type) { msg += "; " + advice }
                Console.error("error: " + msg)
                throw ExitCode(2)
            }
            Console.out(json ? NodeReference.json(e.info).serialized(pretty: true) + "\n" : NodeReference.detail(e.info))
            return
        }
        if json {
            Console.out(JSONValue.arr(registry.typeNames.map { NodeReference.json(registry.entry($0)!.info) }).serialized(pretty: true) + "\n")
        } else {
            Console.out(NodeReference.list(registry: registry))
        }
    }
}

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of graph files, generated from the node registry (built-ins and --plugin only).")

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let catalog = plugins.catalog(environment: false, frei0r: .none)
        for f in catalog.failures { Console.error("error: \(f)") }
        if !catalog.failures.isEmpty { throw ExitCode(2) }
        Console.out(GraphSchema.make(registry: catalog.registry).serialized(pretty: true) + "\n")
    }
}
