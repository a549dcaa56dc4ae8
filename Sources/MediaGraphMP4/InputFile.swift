#if canImport(Glibc)
import Glibc
#endif

/// A file read sequentially into a sliding window: bytes before `consumed` may be dropped, so
/// memory stays at the window size however large the file is. The bytes may also come from
/// memory (`init(bytes:name:)`), so the readers built on it parse a buffer with the same code
/// (fuzzing, tests).
final class InputFile {
    let path: String
    /// The open file, or -1 when the bytes come from `memory`.
    private var fd: Int32
    private let memory: [UInt8]
    private var memoryPosition = 0
    private(set) var buffer: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Valid bytes in the buffer.
    private(set) var count = 0
    /// File offset of buffer[0].
    private(set) var bufferOffset: Int64 = 0
    private(set) var atEOF = false

    init(path: String, capacity: Int = 4 << 20) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            throw ElementaryStreamError(path: path, offset: 0, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        memory = []
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
    }

    /// Reads `bytes` as if they were a file called `name`.
    init(bytes: [UInt8], name: String, capacity: Int = 4 << 20) {
        path = name
        fd = -1
        memory = bytes
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
        buffer.deallocate()
    }

    /// read(2) from the file or a copy from memory: bytes placed at `into`, 0 at the end.
    private func readSome(into: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        if fd >= 0 { return read(fd, into, count) }
        let n = min(count, memory.count - memoryPosition)
        if n > 0 {
            memory.withUnsafeBufferPointer { into.update(from: $0.baseAddress! + memoryPosition, count: n) }
            memoryPosition += n
        }
        return n
    }

    /// Drops the bytes before `keepFrom` (a buffer index: it becomes 0) and reads more;
    /// returns false at end of file.
    @discardableResult
    func refill(keepFrom: Int) throws -> Bool {
        if keepFrom > 0 {
            let keep = count - keepFrom
            if keep > 0 { buffer.update(from: buffer + keepFrom, count: keep) }
            count = max(0, keep)
            bufferOffset += Int64(keepFrom)
        }
        if atEOF { return false }
        if count == capacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        while true {
            let r = readSome(into: buffer + count, count: capacity - count)
            if r < 0 {
                if errno == EINTR { continue }
                throw ElementaryStreamError(path: path, offset: bufferOffset + Int64(count),
                                            message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if r == 0 { atEOF = true; return false }
            count += r
            return true
        }
    }

    /// Makes `n` bytes from buffer index `from` available, reading as needed. Returns the new
    /// index of that byte (the buffer may shift), or nil if the file ends first.
    func ensure(_ n: Int, from: Int) throws -> Int? {
        if count - from >= n { return from }
        var start = from
        while true {
            let more = try refill(keepFrom: start)
            start = 0
            if count >= n { return 0 }
            if !more { return nil }
        }
    }
}
