#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MediaGraphCore

/// Gets an output path ready: creates the directory it goes into when that does not exist yet
/// (so `out/clip.mp4` works in a fresh checkout), and refuses a path that names a directory.
/// Every file-writing sink calls it before its first write.
enum OutputDirectory {
    static func prepare(for path: String) throws {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw NodeFailure("cannot write '\(path)': it is a directory")
        }
        if !FileManager.default.fileExists(atPath: dir) {
            try createDirectories(dir, for: path)
        }
    }

    /// `mkdir -p`, one component at a time, so a failure names the component at fault and the
    /// system's reason ("'out/afile' is a file, not a directory"; "permission denied").
    private static func createDirectories(_ dir: String, for path: String) throws {
        var prefix = dir.hasPrefix("/") ? "" : "."
        for component in dir.split(separator: "/") {
            prefix += "/" + component
            var st = stat()
            if stat(prefix, &st) == 0 {
                if st.st_mode & S_IFMT == S_IFDIR { continue }
                throw NodeFailure("cannot create directory '\(dir)' for '\(path)': '\(display(prefix))' is a file, not a directory")
            }
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
                throw NodeFailure("cannot create directory '\(display(prefix))' for '\(path)': \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func display(_ p: String) -> String { p.hasPrefix("./") ? String(p.dropFirst(2)) : p }
}
