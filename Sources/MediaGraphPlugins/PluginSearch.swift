import Foundation

/// Where plugins come from.
public enum PluginSearch {
    /// The colon-separated `MEDIAGRAPH_PLUGIN_PATH` (empty entries ignored).
    public static func environmentPaths(_ env: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        (env["MEDIAGRAPH_PLUGIN_PATH"] ?? "").split(separator: ":").map(String.init)
    }

    /// frei0r's standard directories in order of precedence: `FREI0R_PATH` (colon-separated),
    /// ~/.frei0r-1/lib, /usr/local/lib/frei0r-1, /usr/lib/frei0r-1, /usr/lib/x86_64-linux-gnu/frei0r-1.
    public static func frei0rDirectories(_ env: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var dirs = (env["FREI0R_PATH"] ?? "").split(separator: ":").map(String.init)
        if let home = env["HOME"], !home.isEmpty { dirs.append(home + "/.frei0r-1/lib") }
        dirs += ["/usr/local/lib/frei0r-1", "/usr/lib/frei0r-1", "/usr/lib/x86_64-linux-gnu/frei0r-1"]
        return dirs
    }

    /// The plugin files a path names: the file itself, or a directory's `*.so` files in name order.
    public static func files(at path: String) -> [String] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let dir = path.hasSuffix("/") ? path : path + "/"
        return names.filter { $0.hasSuffix(".so") }.sorted().map { dir + $0 }
    }

    /// Every frei0r file by type name (`frei0r.NAME`): the first directory that has NAME wins.
    public static func frei0rFiles(_ env: [String: String] = ProcessInfo.processInfo.environment) -> [(typeName: String, path: String)] {
        var seen: Set<String> = []
        var out: [(String, String)] = []
        for dir in frei0rDirectories(env) {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else { continue }
            for file in files(at: dir) {
                let base = String(file.split(separator: "/").last!.dropLast(3))
                if seen.insert(base).inserted { out.append(("frei0r." + base, file)) }
            }
        }
        return out
    }
}
