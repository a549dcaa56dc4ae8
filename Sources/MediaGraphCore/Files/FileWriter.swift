#if canImport(Glibc)
import Glibc
#endif

/// Buffered writing to a `PendingFile` (or to standard output), so that small writes — box
/// headers, rows of a frame — become few system calls, while large ones (a video packet) go to
/// the kernel from their own memory, behind what is buffered, in one `writev`: no staging copy.
/// A file that will be kept has its writeback started as it grows, on another thread
/// (`BackgroundWriteback`), so the `fsync` of `commit` finds little left to write. Such a file is
/// also written behind (`WriteBehind`): packets and arrays handed over whole, and the staging
/// buffer when full, are written on another thread while the caller goes on. Every failure is a
/// `FileError` naming the output path and the byte offset (a failure behind is thrown by a later
/// call, at the latest by `flush` or `commit`). Not thread-safe: one writer per thread.
public final class FileWriter {
    /// Writes at least this large skip the buffer (smaller ones are cheaper copied and batched).
    public static let directWriteSize = 64 << 10
    /// The output path ("-" for standard output).
    public let path: String
    private let file: PendingFile?
    private let fd: Int32
    /// The staging buffer (WriteBehind's when writing behind, handed over when full).
    private var buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var buffered = 0
    /// Bytes written so far, buffered ones included: the offset of the next write.
    public private(set) var position: UInt64 = 0
    private var closed = false
    /// The two pieces of a gathered write: the buffered bytes, then the caller's.
    private let vectors: UnsafeMutablePointer<iovec>
    /// Early writeback, for a regular file that is to be kept.
    private let writeback: BackgroundWriteback?
    /// Writing on another thread, for a regular file that is to be kept.
    private let behind: WriteBehind?

    /// Opens `path` for writing ("-": standard output, written directly). `writeBehind` nil: on
    /// another thread when the output is a regular file to be kept (tests force either way).
    public init(path: String, placement: PendingFile.Placement = .onCommit, bufferSize: Int = 1 << 20,
                writeBehind: Bool? = nil) throws(FileError) {
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
        vectors = .allocate(capacity: 2)
        var st = stat()
        let keptRegularFile = file.map { !$0.writesDirectly } == true && placement != .never
            && fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        writeback = keptRegularFile ? BackgroundWriteback(descriptor: fd) : nil
        if writeBehind ?? keptRegularFile {
            let b = WriteBehind(descriptor: fd, path: path, stagingCapacity: capacity, writeback: writeback)
            behind = b
            buffer = b.takeStaging()
        } else {
            behind = nil
            buffer = .allocate(capacity: capacity)
        }
    }

    deinit {
        behind?.finish()
        writeback?.drain()
        if !closed { file?.discard() }
        if behind == nil { buffer.deallocate() }   // else WriteBehind's, freed with it
        vectors.deallocate()
    }

    /// Whether the output is written as it goes — standard output, a device, a FIFO — rather than
    /// as a new file that appears at its path when committed.
    public var writesDirectly: Bool { file?.writesDirectly ?? true }

    /// Whether the output can be written at earlier offsets (`patch`): false for a pipe or a
    /// terminal.
    public var isSeekable: Bool { lseek(fd, 0, SEEK_CUR) >= 0 }

    /// Writes a packet's bytes; large ones are kept, not copied, and written behind.
    public func write(_ bytes: PacketBytes) throws(FileError) {
        if let behind, bytes.count >= min(FileWriter.directWriteSize, capacity / 2) {
            try handOverStaging()
            try behind.submit(.packet(bytes), count: bytes.count, at: position)
            position += UInt64(bytes.count)
            return
        }
        let failure = bytes.withUnsafeBytes { raw -> FileError? in
            do throws(FileError) { try write(raw); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    public func write(_ bytes: [UInt8]) throws(FileError) {
        if let behind, bytes.count >= min(FileWriter.directWriteSize, capacity / 2) {
            try handOverStaging()
            try behind.submit(.array(bytes), count: bytes.count, at: position)
            position += UInt64(bytes.count)
            return
        }
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
        if count >= min(FileWriter.directWriteSize, capacity / 2) {
            if let behind {
                // memory that is not ours to keep: written here, after what waits behind
                try handOverStaging()
                try behind.drain()
            }
            try writeGathered(p, count)
        } else {
            if buffered + count > capacity {
                if behind != nil { try handOverStaging() } else { try flush() }
            }
            (buffer + buffered).update(from: p.assumingMemoryBound(to: UInt8.self), count: count)
            buffered += count
        }
        position += UInt64(count)
    }

    /// Hands the buffered bytes to the kernel (and waits for everything written behind).
    public func flush() throws(FileError) {
        if let behind {
            try handOverStaging()
            try behind.drain()
            return
        }
        if buffered == 0 { return }
        let start = position - UInt64(buffered)
        let n = buffered
        buffered = 0
        try writeAll(UnsafeRawPointer(buffer), n, at: start)
        writeback?.written(upTo: position)
    }

    /// Gives the staging buffer, if it holds bytes, to be written behind, and takes an empty one.
    private func handOverStaging() throws(FileError) {
        guard let behind else { return }
        if buffered == 0 {
            if let failure = behind.firstFailure { throw failure }
            return
        }
        let n = buffered
        buffered = 0
        try behind.submit(.staging(buffer, n), count: n, at: position - UInt64(n))
        buffer = behind.takeStaging()
    }

    /// The buffered bytes and then `count` bytes at `p`, in one system call when the kernel takes
    /// them whole. `position` is the offset of the buffered bytes' end (the caller advances it).
    private func writeGathered(_ p: UnsafeRawPointer, _ count: Int) throws(FileError) {
        let head = buffered
        let start = position - UInt64(head)
        buffered = 0
        var done = 0
        while done < head {
            vectors[0] = iovec(iov_base: UnsafeMutableRawPointer(buffer + done), iov_len: head - done)
            vectors[1] = iovec(iov_base: UnsafeMutableRawPointer(mutating: p), iov_len: count)
            let r = writev(fd, vectors, 2)
            if r < 0 {
                if errno == EINTR { continue }
                throw FileError(operation: "write", path: path, offset: start + UInt64(done), code: errno)
            }
            if r == 0 { throw FileError(operation: "write", path: path, offset: start + UInt64(done), code: EIO) }
            done += r
        }
        // the part of the payload a short writev left (all of it when nothing was buffered)
        let sent = done - head
        if sent < count { try writeAll(p + sent, count - sent, at: start + UInt64(done)) }
        writeback?.written(upTo: position + UInt64(count))
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

    /// Appends everything written to `source` (a scratch file) from byte `start` on, copied by
    /// the kernel where it can.
    public func append(contentsOf source: FileWriter, from start: UInt64 = 0) throws(FileError) {
        try flush()
        try source.flush()
        var offset = off_t(start)
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

    /// The file system's block size: where `insertGap` may cut.
    public var blockSize: Int {
        var st = stat()
        return fstat(fd, &st) == 0 && st.st_blksize > 0 ? Int(st.st_blksize) : 4096
    }

    /// Opens a gap of `count` zero bytes at `offset`, moving everything after it without copying
    /// a byte (`fallocate(FALLOC_FL_INSERT_RANGE)`: ext4, XFS): how fast start puts the moov in
    /// front of media already written. False, and nothing changed, where the file system cannot
    /// (tmpfs, standard output, offsets not on `blockSize` boundaries): the caller copies instead.
    public func insertGap(at offset: UInt64, count: UInt64) throws(FileError) -> Bool {
        guard file != nil, count > 0, let insert = FileWriter.fallocate else { return false }
        try flush()
        writeback?.drain()
        let insertRange: Int32 = 0x20   // FALLOC_FL_INSERT_RANGE (linux/falloc.h)
        guard insert(fd, insertRange, off_t(offset), off_t(count)) == 0 else { return false }
        position += count
        writeback?.shift(by: count)
        // the descriptor's offset still points where the end was: keep appends at the end
        lseek(fd, 0, SEEK_END)
        return true
    }

    /// glibc's fallocate, which Swift's Glibc module does not declare (it needs _GNU_SOURCE).
    private typealias Fallocate = @convention(c) (Int32, Int32, off_t, off_t) -> Int32
    private static let fallocate: Fallocate? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate64") else { return nil }
        return unsafeBitCast(symbol, to: Fallocate.self)
        #else
        return nil
        #endif
    }()

    /// Flushes and completes the file: it appears at its path (see `PendingFile.Placement`).
    public func commit() throws(FileError) {
        guard !closed else { return }
        do { try flush() } catch {
            discard()
            throw error
        }
        closed = true
        behind?.finish()
        writeback?.drain()
        try file?.commit()
    }

    /// Stops writing and removes the file (nothing is left at the path).
    public func discard() {
        guard !closed else { return }
        closed = true
        behind?.finish()
        writeback?.drain()
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
            if r == 0 { throw FileError(operation: "write", path: path, offset: offset + UInt64(done), code: EIO) }
            done += r
        }
    }
}
