import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Starts the kernel's writeback of a file as it grows, on a thread of its own, so that the
/// `fsync` that completes the file finds little left to write and the writing thread does not
/// pay for submitting the I/O (`sync_file_range(SYNC_FILE_RANGE_WRITE)` does that much, then
/// returns without waiting for the disk). Only a hint: where the call fails (a file system without
/// it) `fsync` does all the work, as it would have anyway.
final class BackgroundWriteback {
    /// Bytes handed to the kernel between two requests.
    static let step: UInt64 = 4 << 20

    private let fd: Int32
    /// Made on the first request: a small file never starts a thread.
    private var queue: DispatchQueue?
    /// Where the bytes begin whose writeback has not been asked for yet.
    private var from: UInt64 = 0

    /// Nil where the C library has no sync_file_range.
    init?(descriptor: Int32) {
        guard BackgroundWriteback.syncFileRange != nil else { return nil }
        fd = descriptor
    }

    /// The file's bytes before `end` have been handed to the kernel: asks for their writeback once
    /// `step` of them have gathered since the last request.
    func written(upTo end: UInt64) {
        guard end >= from &+ BackgroundWriteback.step, let syncRange = BackgroundWriteback.syncFileRange else { return }
        let fd = self.fd, start = off_t(from), count = off_t(end - from)
        from = end
        let q = queue ?? DispatchQueue(label: "mediagraph.writeback")
        queue = q
        let syncFileRangeWrite: UInt32 = 2   // SYNC_FILE_RANGE_WRITE (linux/fs.h)
        q.async { _ = syncRange(fd, start, count, syncFileRangeWrite) }
    }

    /// A gap of `count` bytes was inserted before the bytes not yet asked for.
    func shift(by count: UInt64) { from &+= count }

    /// Returns when every request made so far has been made to the kernel: before the file is
    /// changed in place (a gap inserted), synced or closed, so no request outlives the descriptor.
    func drain() { queue?.sync {} }

    /// glibc's sync_file_range, which Swift's Glibc module does not declare (it needs _GNU_SOURCE).
    private typealias SyncFileRange = @convention(c) (Int32, off_t, off_t, UInt32) -> Int32
    private static let syncFileRange: SyncFileRange? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: SyncFileRange.self)
        #else
        return nil
        #endif
    }()
}
