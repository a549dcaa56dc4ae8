import MediaGraphCore
#if canImport(Glibc)
import Glibc
#endif

/// A sink's output file: appears at its path only when complete (`commit`), removed on
/// `discard`; "-" writes to stdout directly. The file handling itself (exclusive temporary in the
/// target directory, fsync, rename) is `PendingFile`'s; this turns its errors into node messages.
final class OutputFile {
    let path: String
    private let writer: FileWriter

    var displayName: String { path == "-" ? "standard output" : "'\(path)'" }
    var bytesWritten: Int64 { Int64(writer.position) }

    /// Creates the file (and the directory it goes into, if missing): call it when the run
    /// starts, never while only validating.
    init(path: String) throws {
        self.path = path
        if path != "-" { try OutputDirectory.prepare(for: path) }
        do {
            writer = try FileWriter(path: path)
        } catch {
            throw NodeFailure("cannot write '\(path)': \(error.code == EISDIR ? "it is a directory" : error.reason)")
        }
    }

    func write(_ p: UnsafeRawPointer, count: Int) throws {
        do { try writer.write(p, count: count) } catch { throw failure(error) }
    }

    func write(_ bytes: [UInt8]) throws {
        do { try writer.write(bytes) } catch { throw failure(error) }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// False for a pipe or a terminal: bytes already written cannot be patched.
    var isSeekable: Bool { writer.isSeekable }

    /// Overwrites bytes already written (a header's sizes, known only at the end).
    func patch(_ bytes: [UInt8], at offset: UInt64) throws {
        do { try writer.patch(bytes, at: offset) } catch { throw failure(error) }
    }

    /// Flushes and moves the file into place.
    func commit() throws {
        do { try writer.commit() } catch { throw failure(error) }
    }

    /// Removes the partial file (nothing is left at the path).
    func discard() { writer.discard() }

    private func failure(_ e: FileError) -> NodeFailure {
        let at = e.offset.map { " at byte \($0)" } ?? ""
        if e.operation == "write" { return NodeFailure("cannot write \(displayName)\(at): \(e.reason)") }
        return NodeFailure("cannot \(e.operation) '\(path)'\(at): \(e.reason)")
    }
}
