import Foundation
import MediaGraphCore
#if canImport(Glibc)
import Glibc
#endif

/// A file (or stdin for "-") read sequentially through a buffer, tracking the byte offset for
/// error messages. Reads go straight into frame memory where possible. The bytes may also come
/// from memory (`init(bytes:name:)`), so the readers parse a buffer with the same code (fuzzing).
final class InputFile {
    let path: String
    /// The file descriptor, or -1 when the bytes come from `memory`.
    private let fd: Int32
    private let ownsFD: Bool
    private let memory: [UInt8]
    private var memoryPosition = 0
    private var buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 20
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Bytes consumed so far.
    private(set) var offset: Int64 = 0
    /// Set while a blocking read should give up (SIGINT): reads interrupted by a signal return.
    var stop: StopFlag?

    /// The name used in messages ("standard input" for "-").
    var displayName: String { path == "-" ? "standard input" : "'\(path)'" }

    init(path: String) throws {
        self.path = path
        if path == "-" {
            fd = 0
            ownsFD = false
        } else {
            var st = stat()
            if stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                throw NodeFailure("cannot open '\(path)': it is a directory")
            }
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { throw NodeFailure("cannot open '\(path)': \(String(cString: strerror(errno)))") }
            ownsFD = true
        }
        memory = []
        buffer = .allocate(capacity: capacity)
    }

    /// Reads `bytes` as if they were a file called `name`.
    init(bytes: [UInt8], name: String) {
        path = name
        fd = -1
        ownsFD = false
        memory = bytes
        buffer = .allocate(capacity: capacity)
    }

    /// read(2) from the file, or a copy from memory; 0 at the end, -1 with errno on an error.
    private func readSome(_ dest: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        if fd >= 0 { return Glibc.read(fd, dest, count) }
        let n = min(count, memory.count - memoryPosition)
        if n > 0 {
            memory.withUnsafeBufferPointer { dest.update(from: $0.baseAddress! + memoryPosition, count: n) }
            memoryPosition += n
        }
        return n
    }

    deinit {
        if ownsFD { close(fd) }
        buffer.deallocate()
    }

    /// Refills the buffer; false at end of file.
    private func fill() throws -> Bool {
        if atEOF { return false }
        if start > 0 {
            if end > start { memmove(buffer, buffer + start, end - start) }
            end -= start
            start = 0
        }
        while true {
            let n = readSome(buffer + end, capacity - end)
            if n > 0 { end += n; return true }
            if n == 0 { atEOF = true; return false }
            if errno == EINTR { if stop?.isSet == true { atEOF = true; return false }; continue }
            throw NodeFailure("cannot read \(displayName) at byte \(offset): \(String(cString: strerror(errno)))")
        }
    }

    /// Reads up to `count` bytes into `dest`; returns how many were read (less only at end of file).
    func read(into dest: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        var done = 0
        let buffered = min(end - start, count)
        if buffered > 0 {
            dest.update(from: buffer + start, count: buffered)
            start += buffered
            done = buffered
        }
        // large remainders bypass the buffer
        while done < count {
            if count - done >= capacity / 2 {
                let n = readSome(dest + done, count - done)
                if n > 0 { done += n; continue }
                if n == 0 { atEOF = true; break }
                if errno == EINTR { if stop?.isSet == true { break }; continue }
                throw NodeFailure("cannot read \(displayName) at byte \(offset + Int64(done)): \(String(cString: strerror(errno)))")
            }
            guard try fill() else { break }
            let n = min(end - start, count - done)
            (dest + done).update(from: buffer + start, count: n)
            start += n
            done += n
        }
        offset += Int64(done)
        return done
    }

    /// Reads one line up to '\n' (not included), at most `limit` bytes; nil at a clean end of file.
    func readLine(limit: Int) throws -> [UInt8]? {
        var line: [UInt8] = []
        while true {
            if start == end {
                guard try fill() else {
                    if line.isEmpty { return nil }
                    offset += Int64(line.count)
                    return line
                }
            }
            let p = buffer + start
            let avail = end - start
            if let hit = memchr(p, 0x0a, avail) {
                let nl = UnsafeRawPointer(p).distance(to: UnsafeRawPointer(hit))
                guard line.count + nl <= limit else {
                    throw NodeFailure("\(displayName): line at byte \(offset) is longer than \(limit) bytes (not the expected format?)")
                }
                line.append(contentsOf: UnsafeBufferPointer(start: p, count: nl))
                start += nl + 1
                offset += Int64(line.count + 1)
                return line
            }
            line.append(contentsOf: UnsafeBufferPointer(start: p, count: avail))
            start = end
            if line.count > limit {
                throw NodeFailure("\(displayName): line at byte \(offset) is longer than \(limit) bytes (not the expected format?)")
            }
        }
    }

    /// The size of a regular file or of the bytes in memory; nil for a pipe or a terminal.
    var size: Int64? {
        if fd < 0 { return Int64(memory.count) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    /// Skips up to `count` bytes through the buffer, a piece at a time (memory does not grow
    /// with `count`); returns how many were skipped (fewer only at end of file).
    func skip(_ count: Int64) throws -> Int64 {
        var done: Int64 = 0
        while done < count {
            if start == end { guard try fill() else { break } }
            let n = Int(min(Int64(end - start), count - done))
            start += n
            done += Int64(n)
        }
        offset += done
        return done
    }

    /// Whether the file has no more bytes.
    func isAtEnd() throws -> Bool {
        if start < end { return false }
        return !(try fill())
    }
}
