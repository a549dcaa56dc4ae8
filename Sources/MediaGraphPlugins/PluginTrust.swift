#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MediaGraphCore

/// Which plugins a graph file may make `mediagraph` load.
///
/// A plugin is code: loading it runs its constructors with the user's rights. Graph files come
/// from strangers, so — as GStreamer pipelines name only elements of plugins its registry found
/// on the plugin path, and a web page cannot install a browser extension — a graph's `"plugins"`
/// list may only name plugins the user or the installation already put on the search path:
/// - files given with `--plugin FILE`, and the `*.so` files in `--plugin DIR` directories;
/// - the files and `*.so` files of the directories in `MEDIAGRAPH_PLUGIN_PATH`;
/// - the built-in plugin directories (`builtinDirectories`).
/// An entry without '/' is a plugin name, looked up as NAME, NAME.so and libNAME.so in those
/// directories; an entry with '/' is a path relative to the graph file that must lead (links
/// followed) to one of those files. Anything else is refused before any library is opened,
/// unless the user passes `--allow-plugins` (trust every plugin this graph names) or names the
/// file with `--plugin`.
public struct PluginTrust {
    /// Directories whose plugins a graph may name, in search order.
    public let directories: [String]
    /// Single files a graph may name.
    public let files: [String]

    /// - Parameters:
    ///   - commandLine: the `--plugin` paths.
    ///   - environment: the `MEDIAGRAPH_PLUGIN_PATH` entries.
    ///   - builtin: the installation's plugin directories.
    public init(commandLine: [String], environment: [String], builtin: [String] = PluginTrust.builtinDirectories()) {
        var dirs: [String] = [], files: [String] = []
        for p in commandLine + environment + builtin {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { continue }
            if isDir.boolValue { dirs.append(p) } else { files.append(p) }
        }
        directories = dirs
        self.files = files
    }

    /// The installation's plugin directories: `lib/mediagraph/plugins` beside the `bin` of the
    /// executable, and the executable's own directory (where `swift build` puts the example
    /// plugin). Both are as trusted as the executable itself.
    public static func builtinDirectories() -> [String] {
        guard let exe = canonical("/proc/self/exe") else { return [] }
        let dir = (exe as NSString).deletingLastPathComponent
        return [((dir as NSString).deletingLastPathComponent as NSString).appendingPathComponent("lib/mediagraph/plugins"), dir]
    }

    /// Resolves a graph's plugin entries to files to load, or the reasons they are refused.
    /// With `allowAll`, every entry is taken as a path relative to the graph (the graph is trusted).
    public func resolve(_ entries: [GraphSpec.PluginEntry], baseDirectory: String, file: String?,
                        allowAll: Bool) -> (paths: [String], refused: [GraphDiagnostic]) {
        var paths: [String] = [], refused: [GraphDiagnostic] = []
        for e in entries {
            if let found = lookUp(e.text, baseDirectory: baseDirectory) {
                paths.append(found)
            } else if allowAll {
                paths.append(ParamValues.resolve(e.text, against: baseDirectory))
            } else {
                refused.append(.error(refusal(e.text), file: file, at: e.location))
            }
        }
        return (paths, refused)
    }

    /// The trusted file or directory an entry names, or nil.
    func lookUp(_ entry: String, baseDirectory: String) -> String? {
        if !entry.contains("/") {
            for dir in directories {
                for name in [entry, entry + ".so", "lib" + entry + ".so"] {
                    let p = (dir as NSString).appendingPathComponent(name)
                    if isRegularFile(p) { return p }
                }
            }
            for f in files where [entry, entry + ".so", "lib" + entry + ".so"].contains((f as NSString).lastPathComponent) { return f }
        }
        guard let real = PluginTrust.canonical(ParamValues.resolve(entry, against: baseDirectory)) else { return nil }
        for f in files where PluginTrust.canonical(f) == real { return real }
        for dir in directories {
            guard let d = PluginTrust.canonical(dir) else { continue }
            // the directory itself, or a plugin file directly in it (what loading the directory reads)
            if real == d || ((real as NSString).deletingLastPathComponent == d && real.hasSuffix(".so")) { return real }
        }
        return nil
    }

    func refusal(_ entry: String) -> String {
        var places = directories.map { "\($0)/" } + files
        if places.isEmpty { places = ["(none)"] }
        let how = entry.contains("/")
            ? "run with --plugin \(entry) to trust that file"
            : "put it in one of those directories, or run with --plugin PATH"
        return "plugin '\(entry)' is not on the plugin search path, and a graph file alone cannot make mediagraph load a library (a plugin is code). "
            + "A graph may name the plugins of: " + places.joined(separator: ", ") + " (--plugin, MEDIAGRAPH_PLUGIN_PATH and the built-in plugin directories). "
            + "To load it: \(how), or --allow-plugins to trust every plugin this graph names."
    }

    func isRegularFile(_ p: String) -> Bool {
        var st = stat()
        return stat(p, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    /// The path with every link followed, or nil when it does not exist.
    static func canonical(_ p: String) -> String? {
        guard let r = realpath(p, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }
}
