#if canImport(Glibc)
import Glibc
#endif

/// Writes a file's bytes on a thread of its own, in the order they were handed over, so the
/// thread that produces them goes on while the kernel copies the previous ones into the page
/// cache. In a stream copy the demuxer and the muxer share one thread (no hand-off per packet);
/// with this, reading the input and writing the output run on two cores at once.
///
/// Memory is bounded: at most `limit` bytes wait to be written (one piece may pass it); the
/// producer waits beyond that. Pieces are kept alive, not copied: a packet's reference-counted
/// bytes or an array. The first failure is kept (with its byte offset) and every later piece is
/// dropped; the producer sees the failure at its next call.
///
/// `@unchecked Sendable`: its state is guarded by `monitor`; the descriptor and the writeback
/// are used only by the writing thread while it runs (the owner waits with `drain` before it
/// touches them).
final class WriteBehind: @unchecked Sendable {
    /// One piece of the file, written whole and in order.
    enum Piece {
        case packet(PacketBytes)
        case array([UInt8])
        /// A staging buffer of the `FileWriter`, given back after it is written.
        case staging(UnsafeMutablePointer<UInt8>, Int)
        case stop
    }

    /// Bytes that may wait before the producer waits.
    static let limit = 8 << 20
    /// Staging buffers in turn (one filling, the others waiting or being written).
    static let stagingBuffers = 3

    private let fd: Int32
    private let path: String
    private let writeback: BackgroundWriteback?
    private let monitor = Monitor()
    /// Pieces with the file offset each starts at.
    private var pieces: [(Piece, UInt64)] = []
    private var head = 0
    private var waitingBytes = 0
    /// Pieces handed over and not yet written (a piece being written counts).
    private var pending = 0
    private var freeStaging: [UnsafeMutablePointer<UInt8>] = []
    private var allStaging: [UnsafeMutablePointer<UInt8>] = []
    private let stagingCapacity: Int
    private var failure: FileError?
    private var thread: pthread_t?

    init(descriptor: Int32, path: String, stagingCapacity: Int, writeback: BackgroundWriteback?) {
        fd = descriptor
        self.path = path
        self.stagingCapacity = stagingCapacity
        self.writeback = writeback
    }

    deinit {
        for b in allStaging { b.deallocate() }
    }

    /// The failure of an earlier piece, if any.
    var firstFailure: FileError? {
        monitor.lock()
        defer { monitor.unlock() }
        return failure
    }

    /// An empty staging buffer of `stagingCapacity` bytes (waits for one when all are in use).
    func takeStaging() -> UnsafeMutablePointer<UInt8> {
        monitor.lock()
        defer { monitor.unlock() }
        while freeStaging.isEmpty {
            if allStaging.count < WriteBehind.stagingBuffers {
                let b = UnsafeMutablePointer<UInt8>.allocate(capacity: stagingCapacity)
                allStaging.append(b)
                return b
            }
            monitor.waitNotFull()
        }
        return freeStaging.removeLast()
    }

    /// Hands `piece` of `count` bytes, which starts at byte `offset` of the file, to the writing
    /// thread (started on the first piece); waits while more than `limit` bytes are waiting.
    /// Throws an earlier piece's failure.
    func submit(_ piece: Piece, count: Int, at offset: UInt64) throws(FileError) {
        monitor.lock()
        while failure == nil && waitingBytes > 0 && waitingBytes + count > WriteBehind.limit {
            monitor.waitNotFull()
        }
        if let failure {
            // a staging buffer not taken stays the caller's (it writes nothing more)
            monitor.unlock()
            throw failure
        }
        pieces.append((piece, offset))
        waitingBytes += count
        pending += 1
        monitor.signalNotEmpty()
        let started = thread != nil
        monitor.unlock()
        if !started { try start() }
    }

    /// Returns when every piece handed over has been written; throws the first failure.
    func drain() throws(FileError) {
        monitor.lock()
        while pending > 0 { monitor.waitNotFull() }
        let failure = self.failure
        monitor.unlock()
        writeback?.drain()
        if let failure { throw failure }
    }

    /// Writes what was handed over, then ends the thread. Call once, last.
    func finish() {
        guard let thread else { return }
        monitor.lock()
        pieces.append((.stop, 0))
        pending += 1
        monitor.signalNotEmpty()
        monitor.unlock()
        EngineThread.join(thread)
        self.thread = nil
        writeback?.drain()
    }

    private func start() throws(FileError) {
        do {
            thread = try EngineThread.start(name: "write") { [self] in run() }
        } catch {
            // no thread to write with: the output fails (the system is out of threads)
            monitor.lock()
            let e = FileError(operation: "write", path: path, offset: pieces.first?.1, code: EAGAIN)
            for (piece, _) in pieces { if case .staging(let b, _) = piece { freeStaging.append(b) } }
            pieces.removeAll()
            head = 0
            pending = 0
            waitingBytes = 0
            failure = failure ?? e
            monitor.broadcastNotFull()
            monitor.unlock()
            throw e
        }
    }

    /// The writing thread: pieces in order until `.stop`.
    private func run() {
        while true {
            monitor.lock()
            while head == pieces.count { monitor.waitNotEmpty() }
            let (piece, start) = pieces[head]
            pieces[head] = (.stop, 0)   // drop the reference now: the bytes go as soon as written
            head += 1
            if head == pieces.count {
                pieces.removeAll(keepingCapacity: true)
                head = 0
            }
            let failed = failure != nil
            monitor.unlock()

            var count = 0
            var error: FileError?
            switch piece {
            case .stop:
                monitor.lock()
                pending -= 1
                monitor.broadcastNotFull()
                monitor.unlock()
                return
            case .packet(let bytes):
                count = bytes.count
                if !failed { error = bytes.withUnsafeBytes { writeAll($0, at: start) } }
            case .array(let a):
                count = a.count
                if !failed { error = a.withUnsafeBytes { writeAll($0, at: start) } }
            case .staging(let b, let n):
                count = n
                if !failed { error = writeAll(UnsafeRawBufferPointer(start: b, count: n), at: start) }
            }
            if error == nil && !failed { writeback?.written(upTo: start + UInt64(count)) }

            monitor.lock()
            if case .staging(let b, _) = piece { freeStaging.append(b) }
            if let error, failure == nil { failure = error }
            waitingBytes -= count
            pending -= 1
            monitor.broadcastNotFull()
            monitor.unlock()
        }
    }

    /// Writes `raw` whole at the descriptor's offset (which is byte `start`: pieces are written
    /// in order, appended); the failure names the byte offset.
    private func writeAll(_ raw: UnsafeRawBufferPointer, at start: UInt64) -> FileError? {
        guard let base = raw.baseAddress else { return nil }
        var done = 0
        while done < raw.count {
            let r = Glibc.write(fd, base + done, raw.count - done)
            if r < 0 {
                if errno == EINTR { continue }
                return FileError(operation: "write", path: path, offset: start + UInt64(done), code: errno)
            }
            if r == 0 { return FileError(operation: "write", path: path, offset: start + UInt64(done), code: EIO) }
            done += r
        }
        return nil
    }
}
