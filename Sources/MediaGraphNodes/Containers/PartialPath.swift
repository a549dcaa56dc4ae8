import Foundation

/// A hidden temporary path beside an output, renamed into place when the output is complete and
/// removed otherwise, so nothing half-written is ever left at the output path.
struct PartialPath {
    let path: String
    let temp: String

    init(_ path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw NodeFailureText("cannot write '\(path)': it is a directory")
        }
        if !FileManager.default.fileExists(atPath: dir) {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw NodeFailureText("cannot create directory '\(dir)' for '\(path)': \(error.localizedDescription)")
            }
        }
        temp = dir + "/." + url.lastPathComponent + ".partial-\(getpid())"
    }

    func commit() throws {
        if rename(temp, path) != 0 {
            let why = String(cString: strerror(errno))
            unlink(temp)
            throw NodeFailureText("cannot move the finished file to '\(path)': \(why)")
        }
    }

    func discard() { unlink(temp) }
}

import MediaGraphCore
typealias NodeFailureText = NodeFailure
