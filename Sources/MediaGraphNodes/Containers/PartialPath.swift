import Foundation
import MediaGraphCore

/// A hidden temporary path beside an output, renamed into place when the output is complete and
/// removed otherwise, so nothing half-written is ever left at the output path.
struct PartialPath {
    let path: String
    let temp: String

    init(_ path: String) throws {
        self.path = path
        try OutputDirectory.prepare(for: path)
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        temp = dir + "/." + url.lastPathComponent + ".partial-\(getpid())"
    }

    func commit() throws {
        if rename(temp, path) != 0 {
            let why = String(cString: strerror(errno))
            unlink(temp)
            throw NodeFailure("cannot move the finished file to '\(path)': \(why)")
        }
    }

    func discard() { unlink(temp) }
}
