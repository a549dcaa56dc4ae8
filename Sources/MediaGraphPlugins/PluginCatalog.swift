import Foundation
import MediaGraphCore

/// Loads plugins into a `NodeRegistry` and records what was found and what failed, and why
/// (what `mediagraph plugins` prints). Loading never stops at the first failure.
public final class PluginCatalog {
    /// One file that loaded.
    public struct Loaded: Sendable {
        public var path: String
        /// "mediagraph" or "frei0r".
        public var kind: String
        /// The plugin's own name and version.
        public var name: String
        public var nodeTypes: [String]
    }

    /// Which frei0r effects to load.
    public enum Frei0rSelection: Sendable {
        case none
        /// Every effect found in the standard places.
        case all
        /// Only these type names (`frei0r.NAME`): what a graph uses, so a run opens only those.
        case named(Set<String>)
    }

    public let registry: NodeRegistry
    /// Files already opened (resolved paths): naming one twice, e.g. with --plugin and in the
    /// graph, loads it once instead of reporting its types as duplicates of themselves.
    private var seenFiles: Set<String> = []
    public private(set) var loaded: [Loaded] = []
    public private(set) var failures: [PluginError] = []
    /// Valid plugins of kinds this host does not run (frei0r sources).
    public private(set) var skipped: [PluginError] = []

    public init(registry: NodeRegistry) {
        self.registry = registry
    }

    /// Loads MediaGraph plugins from files or directories (a directory: each `*.so` in it).
    public func loadPlugins(_ paths: [String]) {
        for path in paths {
            let files = PluginSearch.files(at: path)
            for file in files {
                let resolved = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
                guard seenFiles.insert(resolved).inserted else { continue }
                do {
                    let plugin = try CPlugin(path: file)
                    var names: [String] = []
                    for t in plugin.nodeTypes {
                        do {
                            try registry.register(t.info, make: t.make)
                            names.append(t.info.name)
                        } catch {
                            failures.append(PluginError(file: file, "\(error)"))
                        }
                    }
                    loaded.append(Loaded(path: file, kind: "mediagraph", name: "\(plugin.name) \(plugin.version)", nodeTypes: names))
                } catch let e as PluginError {
                    failures.append(e)
                } catch {
                    failures.append(PluginError(file: file, "\(error)"))
                }
            }
        }
    }

    /// Loads frei0r filters and mixers from the standard places.
    public func loadFrei0r(_ selection: Frei0rSelection, environment: [String: String]? = nil) {
        if case .none = selection { return }
        let found = environment.map { PluginSearch.frei0rFiles($0) } ?? PluginSearch.frei0rFiles()
        let dirs = environment.map { PluginSearch.frei0rDirectories($0) } ?? PluginSearch.frei0rDirectories()
        var wanted: Set<String>? = nil
        if case .named(let names) = selection { wanted = names }
        for (typeName, path) in found where wanted?.contains(typeName) ?? true {
            do {
                let p = try Frei0rPlugin(path: path)
                try registry.register(p.info, make: p.make)
                loaded.append(Loaded(path: path, kind: "frei0r", name: "\(p.pluginName) by \(p.author)", nodeTypes: [p.typeName]))
            } catch let e as PluginError {
                if e.unsupported { skipped.append(e) } else { failures.append(e) }
            } catch {
                failures.append(PluginError(file: path, "\(error)"))
            }
        }
        if let wanted {
            let foundNames = Set(found.map(\.typeName))
            for missing in wanted.subtracting(foundNames).sorted() {
                failures.append(PluginError(file: missing, "no frei0r effect of that name in \(dirs.joined(separator: ", ")) (install frei0r-plugins or set FREI0R_PATH)"))
            }
        }
    }
}
