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
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw NodeFailure("cannot create directory '\(dir)' for '\(path)': \(error.localizedDescription)")
            }
        }
    }
}
