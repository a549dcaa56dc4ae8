import ArgumentParser
import Foundation
import MediaGraphCodecs
import MediaGraphCore
import MediaGraphNodes
import MediaGraphPlugins

@main
struct MediaGraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mediagraph",
        abstract: "Runs media processing graphs described in JSON files.",
        discussion: "Exit codes: 0 success, 1 a run-time error, 2 an invalid graph or bad arguments, 130 stopped by Ctrl-C (143 by SIGTERM, 129 by SIGHUP), outputs finalized.",
        version: versionText,
        subcommands: [RunCommand.self, PlanCommand.self, RunSegmentCommand.self, JoinCommand.self, ValidateCommand.self, NodesCommand.self, DotCommand.self, SchemaCommand.self, PluginsCommand.self, ProbeCommand.self, ThumbnailsCommand.self])

    /// What `--version` prints: ours, the plugin ABI, and the libraries as loaded.
    static var versionText: String {
        let libraries = LinkedLibraries.versions.map { "\($0.name) \($0.version)" }.joined(separator: ", ")
        return "mediagraph \(MediaGraphVersion.string)\nplugin ABI \(CPlugin.hostABIVersion)\n\(libraries)"
    }

    /// Parses and runs as swift-argument-parser's own `main` does, except that arguments the
    /// parser refuses (a missing or unknown argument or option, a value it cannot read) exit 2,
    /// as the exit codes above say, instead of its 64 (EX_USAGE); its message and usage are kept.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            Console.error(fullMessage(for: error))
            Foundation.exit(2)
        }
    }
}

/// Options every graph command shares.
struct GraphOptions: ParsableArguments {
    @Argument(help: "The graph file (JSON).")
    var graph: String

    @Option(name: .customLong("set"), help: ArgumentHelp("Override a param: id.param=value (repeatable).", valueName: "id.param=value"))
    var overrides: [String] = []

    @OptionGroup var plugins: PluginOptions

    @Flag(name: .customLong("allow-plugins"), help: "Load every plugin the graph's \"plugins\" list names, also from outside the plugin search path (only for graph files you trust: a plugin is code).")
    var allowPlugins = false

    /// Loads and validates the graph and instantiates it (for a run, or only to show it), or
    /// prints every problem and exits with 2.
    func load(stop: StopFlag = StopFlag(), quiet: Bool = false, for purpose: GraphPurpose = .run) -> ValidatedGraph {
        GraphLoading.instantiate(label: graph, plugins: plugins, allowPlugins: allowPlugins, stop: stop, quiet: quiet, for: purpose) {
            try GraphFile.load(path: graph, overrides: overrides)
        }
    }
}

/// From a graph spec to a graph ready to run, for every command that runs or shows one.
enum GraphLoading {
    /// Loads the spec `load` gives, resolves its plugins, validates and instantiates it, or
    /// prints every problem (led by `label`, the graph's name) and exits with 2.
    static func instantiate(label: String, plugins: PluginOptions?, allowPlugins: Bool, stop: StopFlag = StopFlag(), quiet: Bool = false,
                            for purpose: GraphPurpose = .run, _ load: () throws -> GraphSpec) -> ValidatedGraph {
        do {
            var spec = try load()
            let catalog = try registry(for: spec, plugins: plugins, allowPlugins: allowPlugins)
            CommandLinePaths.resolve(in: &spec, registry: catalog)
            let g = try GraphPlan(validating: spec, registry: catalog).instantiate(stop: stop, for: purpose)
            if !quiet {
                for w in g.warnings { Console.error(w.description) }
            }
            return g
        } catch {
            exitInvalid(label: label, error)
        }
    }

    /// The node types a spec may use: the built-in ones, the plugins it is allowed to load and
    /// the frei0r effects it names (nil `plugins`: the built-ins alone). Prints catalog failures
    /// and exits with 2 on any.
    static func registry(for spec: GraphSpec, plugins: PluginOptions?, allowPlugins: Bool) throws -> NodeRegistry {
        guard let plugins else { return BuiltinNodes.makeRegistry() }
        // frei0r: open only the effects the graph uses
        let effects = Set(spec.nodes.map(\.type).filter { $0.hasPrefix("frei0r.") })
        // which plugins the graph may load is decided before any library is opened
        let trust = PluginTrust(commandLine: plugins.paths, environment: PluginSearch.environmentPaths())
        let graphPlugins = trust.resolve(spec.pluginEntries, baseDirectory: spec.baseDirectory, file: spec.file, allowAll: allowPlugins)
        if !graphPlugins.refused.isEmpty { throw GraphValidationError(graphPlugins.refused) }
        let catalog = plugins.catalog(graphPlugins: graphPlugins.paths, frei0r: .named(effects))
        for f in catalog.failures { Console.error("error: \(f)") }
        if !catalog.failures.isEmpty { Foundation.exit(2) }
        return catalog.registry
    }

    /// Prints a validation failure (every problem, up to the limit) and exits with 2.
    static func exitInvalid(label: String, _ error: Error) -> Never {
        if let e = error as? GraphValidationError {
            for d in e.diagnostics.prefix(GraphLimits.maxPrintedDiagnostics) { Console.error(d.description) }
            if e.diagnostics.count > GraphLimits.maxPrintedDiagnostics {
                Console.error("… and \(e.diagnostics.count - GraphLimits.maxPrintedDiagnostics) more problems not shown")
            }
            let n = e.errors.count
            Console.error("\(label): \(n) error\(n == 1 ? "" : "s"); the graph was not run")
        } else {
            Console.error("\(label): \(error)")
        }
        Foundation.exit(2)
    }
}

enum Console {
    static func error(_ s: String) { FileHandle.standardError.write((s + "\n").data(using: .utf8)!) }
    static func out(_ s: String) { FileHandle.standardOutput.write(s.data(using: .utf8)!) }
}
