import ArgumentParser
import Foundation
import MediaGraphCore
import MediaGraphNodes
import MediaGraphPlugins

/// `--plugin PATH` (repeatable) and the registry every command builds from it.
struct PluginOptions: ParsableArguments {
    @Option(name: .customLong("plugin"), help: ArgumentHelp("Load a plugin file, or every *.so in a directory (repeatable). MEDIAGRAPH_PLUGIN_PATH (colon-separated) adds more, except for schema, which describes only the built-ins and what is named here (nodes --markdown: built-ins only).", valueName: "path"))
    var paths: [String] = []

    /// Built-ins, then `--plugin`, MEDIAGRAPH_PLUGIN_PATH (when `environment`), the graph's own
    /// list, then the frei0r effects selected.
    func catalog(graphPlugins: [String] = [], environment: Bool = true,
                 frei0r: PluginCatalog.Frei0rSelection) -> PluginCatalog {
        let catalog = PluginCatalog(registry: BuiltinNodes.makeRegistry())
        catalog.loadPlugins(paths + (environment ? PluginSearch.environmentPaths() : []) + graphPlugins)
        catalog.loadFrei0r(frei0r)
        return catalog
    }
}

struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the plugins found (--plugin, MEDIAGRAPH_PLUGIN_PATH, frei0r's standard places), their node types, and what failed to load and why.")

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let catalog = plugins.catalog(frei0r: .all)
        Console.out("MediaGraph plugins (plugin ABI version \(CPlugin.hostABIVersion)):\n")
        let env = PluginSearch.environmentPaths()
        Console.out("  searched: --plugin \(plugins.paths.isEmpty ? "(none)" : plugins.paths.joined(separator: ", ")); MEDIAGRAPH_PLUGIN_PATH \(env.isEmpty ? "(unset)" : env.joined(separator: ":"))\n")
        let trust = PluginTrust(commandLine: plugins.paths, environment: env)
        Console.out("  a graph's \"plugins\" may name (without --allow-plugins): \((trust.directories.map { $0 + "/" } + trust.files).joined(separator: ", "))\n")
        for l in catalog.loaded where l.kind == "mediagraph" {
            Console.out("  \(l.path): \(l.name): \(l.nodeTypes.joined(separator: ", "))\n")
        }
        let frei0r = catalog.loaded.filter { $0.kind == "frei0r" }
        Console.out("frei0r effects (\(frei0r.count) filters) from \(PluginSearch.frei0rDirectories().joined(separator: ", ")):\n")
        for l in frei0r { Console.out("  \(l.nodeTypes.joined()) — \(l.name) — \(l.path)\n") }
        if !catalog.skipped.isEmpty {
            Console.out("skipped (\(catalog.skipped.count) frei0r sources; only filters and mixers are nodes): " + catalog.skipped.map { $0.file.split(separator: "/").last.map(String.init) ?? $0.file }.joined(separator: ", ") + "\n")
        }
        if catalog.failures.isEmpty {
            Console.out("failed: none\n")
        } else {
            Console.out("failed (\(catalog.failures.count)):\n")
            for f in catalog.failures { Console.out("  \(f)\n") }
        }
        // a plugin the user named (--plugin, MEDIAGRAPH_PLUGIN_PATH) that does not load is an
        // error, as it is for `run` (a broken frei0r effect among the system's is only listed)
        let named = Set((plugins.paths + env).flatMap { [$0] + PluginSearch.files(at: $0) })
        if catalog.failures.contains(where: { named.contains($0.file) }) { throw ExitCode(1) }
    }
}
