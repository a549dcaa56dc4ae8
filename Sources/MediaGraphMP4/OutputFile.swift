#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened for writing through a POSIX descriptor, with a write buffer so that small box
/// and sample writes become few system calls. Every failure becomes an `MP4IOError` naming the
/// file, the byte offset and the system's reason (disk full, file too large, …).
final class OutputFile {
    let path: String
    private var fd: Int32
    private var buffer: UnsafeMutablePointer<UInt8>
    private var buffered = 0
    private let capacity: Int
    /// Bytes written so far (including those still in the buffer): the offset of the next write.
    private(set) var position: UInt64 = 0

    init(path: String, bufferSize: Int = 1 << 20) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw MP4IOError(operation: "create", path: path, offset: nil, code: errno) }
        capacity = bufferSize
        buffer = .allocate(capacity: bufferSize)
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
        buffer.deallocate()
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    func write(_ raw: UnsafeRawBufferPointer) throws {
        guard let base = raw.baseAddress, raw.count > 0 else { return }
        if buffered + raw.count <= capacity {
            (buffer + buffered).update(from: base.assumingMemoryBound(to: UInt8.self), count: raw.count)
            buffered += raw.count
        } else {
            try flush()
            if raw.count >= capacity / 2 {
                try writeAll(base, raw.count, at: position)
            } else {
                buffer.update(from: base.assumingMemoryBound(to: UInt8.self), count: raw.count)
                buffered = raw.count
            }
        }
        position += UInt64(raw.count)
    }

    /// Hands buffered bytes to the kernel. After this a killed process still leaves them on disk.
    func flush() throws {
        if buffered == 0 { return }
        let start = position - UInt64(buffered)
        let n = buffered
        buffered = 0
        try writeAll(UnsafeRawPointer(buffer), n, at: start)
    }

    /// Overwrites bytes already written (size fields patched at the end).
    func patch(_ bytes: [UInt8], at offset: UInt64) throws {
        try flush()
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let r = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
                if r < 0 {
                    if errno == EINTR { continue }
                    throw MP4IOError(operation: "write", path: path, offset: offset + UInt64(done), code: errno)
                }
                done += r
            }
        }
    }

    /// Copies the whole of another file to the end of this one (the kernel copies where it can).
    func append(contentsOf source: String) throws {
        try flush()
        let inFD = open(source, O_RDONLY | O_CLOEXEC)
        if inFD < 0 { throw MP4IOError(operation: "open", path: source, offset: nil, code: errno) }
        defer { Glibc.close(inFD) }
        var copied: UInt64 = 0
        var useCopyRange = true
        while true {
            var r: Int
            if useCopyRange {
                r = sendfile(fd, inFD, nil, 1 << 30)
                if r < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP) {
                    useCopyRange = false
                    continue
                }
            } else {
                r = read(inFD, buffer, capacity)
                if r > 0 { try writeAll(UnsafeRawPointer(buffer), r, at: position + copied) }
            }
            if r < 0 {
                if errno == EINTR { continue }
                throw MP4IOError(operation: "write", path: path, offset: position + copied, code: errno)
            }
            if r == 0 { break }
            copied += UInt64(r)
        }
        position += copied
    }

    func closeFile() throws {
        try flush()
        if fd >= 0 {
            let r = Glibc.close(fd)
            fd = -1
            if r != 0 { throw MP4IOError(operation: "close", path: path, offset: position, code: errno) }
        }
    }

    private func writeAll(_ p: UnsafeRawPointer, _ count: Int, at offset: UInt64) throws {
        var done = 0
        while done < count {
            let r = Glibc.write(fd, p + done, count - done)
            if r < 0 {
                if errno == EINTR { continue }
                throw MP4IOError(operation: "write", path: path, offset: offset + UInt64(done), code: errno)
            }
            done += r
        }
    }
}

/// Removes a file if it exists; used to clean up temporary files after an error.
func removeFile(_ path: String) {
    _ = unlink(path)
}
