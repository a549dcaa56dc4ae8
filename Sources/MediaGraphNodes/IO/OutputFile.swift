import Foundation
import MediaGraphCore
#if canImport(Glibc)
import Glibc
#endif

/// An output file that appears at its path only when complete: written beside it under a hidden
/// temporary name, renamed on `commit`, removed on `discard`. "-" writes to stdout directly.
final class OutputFile {
    let path: String
    private let tempPath: String?
    private var fd: Int32
    private var buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 20
    private var used = 0
    private(set) var bytesWritten: Int64 = 0
    private var closed = false

    var displayName: String { path == "-" ? "standard output" : "'\(path)'" }

    init(path: String) throws {
        self.path = path
        buffer = .allocate(capacity: capacity)
        if path == "-" {
            fd = 1
            tempPath = nil
            return
        }
        do { try OutputDirectory.prepare(for: path) } catch {
            buffer.deallocate()
            throw error
        }
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let temp = dir + "/." + url.lastPathComponent + ".partial-\(getpid())"
        fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 {
            let why = String(cString: strerror(errno))
            buffer.deallocate()
            throw NodeFailure("cannot write '\(path)': \(why)")
        }
        tempPath = temp
    }

    deinit {
        if !closed { discard() }
        buffer.deallocate()
    }

    func write(_ p: UnsafeRawPointer, count: Int) throws {
        if count >= capacity / 2 {
            try flush()
            try writeAll(p.assumingMemoryBound(to: UInt8.self), count)
            return
        }
        if used + count > capacity { try flush() }
        (buffer + used).update(from: p.assumingMemoryBound(to: UInt8.self), count: count)
        used += count
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0.baseAddress!, count: $0.count) }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    func flush() throws {
        if used > 0 {
            try writeAll(buffer, used)
            used = 0
        }
    }

    private func writeAll(_ p: UnsafePointer<UInt8>, _ count: Int) throws {
        var done = 0
        while done < count {
            let n = Glibc.write(fd, p + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                let why = errno == ENOSPC ? "no space left on device" : String(cString: strerror(errno))
                throw NodeFailure("cannot write \(displayName) at byte \(bytesWritten + Int64(done)): \(why)")
            }
            done += n
        }
        bytesWritten += Int64(count)
    }

    /// Flushes and moves the file into place.
    func commit() throws {
        guard !closed else { return }
        try flush()
        if let tempPath {
            if fsync(fd) != 0 && errno != EINVAL {
                let why = String(cString: strerror(errno))
                discard()
                throw NodeFailure("cannot write \(displayName): \(why)")
            }
            close(fd)
            closed = true
            if rename(tempPath, path) != 0 {
                let why = String(cString: strerror(errno))
                unlink(tempPath)
                throw NodeFailure("cannot move the finished file to '\(path)': \(why)")
            }
        } else {
            closed = true
        }
    }

    /// Removes the partial file (nothing is left at the path).
    func discard() {
        guard !closed else { return }
        closed = true
        if let tempPath {
            close(fd)
            unlink(tempPath)
        }
    }
}
