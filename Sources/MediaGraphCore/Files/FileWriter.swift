#if canImport(Glibc)
import Glibc
#endif

/// Buffered writing to a `PendingFile` (or to standard output), so that small writes — box
/// headers, rows of a frame — become few system calls. Every failure is a `FileError` naming the
/// output path and the byte offset. Not thread-safe: one writer per thread.
public final class FileWriter {
    /// The output path ("-" for standard output).
    public let path: String
    private let file: PendingFile?
    private let fd: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var buffered = 0
    /// Bytes written so far, buffered ones included: the offset of the next write.
    public private(set) var position: UInt64 = 0
    private var closed = false

    /// Opens `path` for writing ("-": standard output, written directly).
    public init(path: String, placement: PendingFile.Placement = .onCommit, bufferSize: Int = 1 << 20) throws(FileError) {
        self.path = path
        if path == "-" {
            file = nil
            fd = 1
        } else {
            let f = try PendingFile(path: path, placement: placement)
            file = f
            fd = f.descriptor
        }
        capacity = max(4096, bufferSize)
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        if !closed { file?.discard() }
        buffer.deallocate()
    }

    public func write(_ bytes: [UInt8]) throws(FileError) {
        // withUnsafeBytes rethrows untyped errors: carry the typed one out by value
        let failure = bytes.withUnsafeBytes { raw -> FileError? in
            do throws(FileError) { try write(raw); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    public func write(_ raw: UnsafeRawBufferPointer) throws(FileError) {
        guard let base = raw.baseAddress, raw.count > 0 else { return }
        try write(base, count: raw.count)
    }

    public func write(_ p: UnsafeRawPointer, count: Int) throws(FileError) {
        guard count > 0 else { return }
        if buffered + count <= capacity {
            (buffer + buffered).update(from: p.assumingMemoryBound(to: UInt8.self), count: count)
            buffered += count
        } else {
            try flush()
            if count >= capacity / 2 {
                try writeAll(p, count, at: position)
            } else {
                buffer.update(from: p.assumingMemoryBound(to: UInt8.self), count: count)
                buffered = count
            }
        }
        position += UInt64(count)
    }

    /// Hands the buffered bytes to the kernel.
    public func flush() throws(FileError) {
        if buffered == 0 { return }
        let start = position - UInt64(buffered)
        let n = buffered
        buffered = 0
        try writeAll(UnsafeRawPointer(buffer), n, at: start)
    }

    /// Overwrites bytes already written (a size field patched at the end).
    public func patch(_ bytes: [UInt8], at offset: UInt64) throws(FileError) {
        try flush()
        var done = 0
        while done < bytes.count {
            let r = bytes.withUnsafeBytes { raw in pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done)) }
            if r < 0 {
                if errno == EINTR { continue }
                throw FileError(operation: "write", path: path, offset: offset + UInt64(done), code: errno)
            }
            done += r
        }
    }

    /// Appends everything written to `source` (a scratch file), copied by the kernel where it can.
    public func append(contentsOf source: FileWriter) throws(FileError) {
        try flush()
        try source.flush()
        var offset: off_t = 0
        let total = off_t(source.position)
        var useSendfile = true
        while offset < total {
            var r: Int
            if useSendfile {
                r = sendfile(fd, source.fd, &offset, Int(min(total - offset, 1 << 30)))
                if r < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP) {
                    useSendfile = false
                    continue
                }
                if r > 0 { position += UInt64(r) }
            } else {
                r = pread(source.fd, buffer, min(capacity, Int(total - offset)), offset)
                if r > 0 {
                    try writeAll(UnsafeRawPointer(buffer), r, at: position)
                    offset += off_t(r)
                    position += UInt64(r)
                }
            }
            if r < 0 {
                if errno == EINTR { continue }
                throw FileError(operation: "write", path: path, offset: position, code: errno)
            }
            if r == 0 { throw FileError(operation: "read back", path: source.path, offset: UInt64(offset), code: EIO) }
        }
    }

    /// Flushes and completes the file: it appears at its path (see `PendingFile.Placement`).
    public func commit() throws(FileError) {
        guard !closed else { return }
        do { try flush() } catch {
            discard()
            throw error
        }
        closed = true
        try file?.commit()
    }

    /// Stops writing and removes the file (nothing is left at the path).
    public func discard() {
        guard !closed else { return }
        closed = true
        file?.discard()
    }

    private func writeAll(_ p: UnsafeRawPointer, _ count: Int, at offset: UInt64) throws(FileError) {
        var done = 0
        while done < count {
            let r = Glibc.write(fd, p + done, count - done)
            if r < 0 {
                if errno == EINTR { continue }
                throw FileError(operation: "write", path: path, offset: offset + UInt64(done), code: errno)
            }
            done += r
        }
    }
}
