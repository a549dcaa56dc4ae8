#if canImport(Glibc)
import Glibc
#endif

/// A file (or standard input, "-") read sequentially through a buffer: the one way MediaGraph
/// reads a file of media (the y4m, raw and WAV sources; the Annex B, IVF and ADTS readers).
/// Memory stays at the buffer's size however large the file is. The bytes may also come from
/// memory (`init(bytes:name:)`), so every reader parses a buffer with the same code (fuzzing).
///
/// Two ways to read, not to be mixed on one file:
/// - a stream: `read(into:count:)` (large reads go straight into the destination), `readLine`,
///   `skip`, `isAtEnd`, with `offset` the bytes consumed;
/// - a sliding window for parsers that scan in place: `buffer[0..<count]` holds the file's bytes
///   from `bufferOffset` on; `refill(keepFrom:)` drops what is before an index and reads more,
///   `ensure(_:from:)` makes a number of bytes available.
///
/// Every failure is an `InputFileError` naming the file and the byte offset.
public final class InputFile {
    /// The path as given ("-": standard input), or the name given to bytes in memory.
    public let path: String
    /// The file descriptor, or -1 when the bytes come from `memory`.
    private let fd: Int32
    private let ownsFD: Bool
    private let memory: [UInt8]
    private var memoryPosition = 0
    /// The window: `count` valid bytes, the first at file offset `bufferOffset`.
    public private(set) var buffer: UnsafeMutablePointer<UInt8>
    public private(set) var capacity: Int
    public private(set) var count = 0
    public private(set) var bufferOffset: Int64 = 0
    /// Whether the last read met the end of the file (or a stop).
    public private(set) var atEOF = false
    /// The stream's position in the window: bytes before it are consumed.
    private var start = 0
    /// Set while a blocking read should give up (SIGINT): a read interrupted by a signal then
    /// ends the file instead of waiting on.
    public var stop: StopFlag?

    /// The name used in messages ("standard input" for "-").
    public var displayName: String { InputFileError.displayName(path) }
    /// Bytes consumed so far by the stream reads.
    public var offset: Int64 { bufferOffset + Int64(start) }

    /// Opens `path` ("-": standard input) with a buffer of `capacity` bytes.
    public init(path: String, capacity: Int = 1 << 20) throws {
        self.path = path
        if path == "-" {
            fd = 0
            ownsFD = false
        } else {
            var st = stat()
            if stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                throw InputFileError(.open(code: EISDIR), path: path, offset: 0)
            }
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { throw InputFileError(.open(code: errno), path: path, offset: 0) }
            ownsFD = true
        }
        memory = []
        self.capacity = max(64, capacity)
        buffer = .allocate(capacity: self.capacity)
    }

    /// Reads `bytes` as if they were a file called `name`.
    public init(bytes: [UInt8], name: String, capacity: Int = 1 << 20) {
        path = name
        fd = -1
        ownsFD = false
        memory = bytes
        self.capacity = max(64, capacity)
        buffer = .allocate(capacity: self.capacity)
    }

    deinit {
        if ownsFD { close(fd) }
        buffer.deallocate()
    }

    /// read(2) from the file, or a copy from memory: bytes placed at `dest`, 0 at the end (or on
    /// a stop); a failure is thrown naming `position`, the file offset being read.
    private func readSome(_ dest: UnsafeMutablePointer<UInt8>, _ wanted: Int, at position: Int64) throws -> Int {
        if fd < 0 {
            let n = min(wanted, memory.count - memoryPosition)
            if n > 0 {
                memory.withUnsafeBufferPointer { dest.update(from: $0.baseAddress! + memoryPosition, count: n) }
                memoryPosition += n
            }
            return max(0, n)
        }
        while true {
            let n = Glibc.read(fd, dest, wanted)
            if n >= 0 { return n }
            if errno == EINTR {
                if stop?.isSet == true { return 0 }
                continue
            }
            throw InputFileError(.read(code: errno), path: path, offset: position)
        }
    }

    // MARK: - the sliding window

    /// Drops the bytes before `keepFrom` (a buffer index: it becomes 0) and reads more, growing
    /// the buffer when it is full; returns false at end of file.
    @discardableResult
    public func refill(keepFrom: Int) throws -> Bool {
        if keepFrom > 0 {
            let keep = count - keepFrom
            if keep > 0 { buffer.update(from: buffer + keepFrom, count: keep) }
            count = max(0, keep)
            bufferOffset += Int64(keepFrom)
            start = max(0, start - keepFrom)
        }
        if atEOF { return false }
        if count == capacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        let n = try readSome(buffer + count, capacity - count, at: bufferOffset + Int64(count))
        if n == 0 { atEOF = true; return false }
        count += n
        return true
    }

    /// Makes `n` bytes from buffer index `from` available, reading as needed. Returns the new
    /// index of that byte (the buffer may shift), or nil if the file ends first.
    public func ensure(_ n: Int, from: Int) throws -> Int? {
        if count - from >= n { return from }
        var first = from
        while true {
            let more = try refill(keepFrom: first)
            first = 0
            if count >= n { return 0 }
            if !more { return nil }
        }
    }

    // MARK: - the stream

    /// Reads up to `wanted` bytes into `dest`; returns how many were read (less only at the end).
    public func read(into dest: UnsafeMutablePointer<UInt8>, count wanted: Int) throws -> Int {
        var done = min(count - start, wanted)
        if done > 0 {
            dest.update(from: buffer + start, count: done)
            start += done
        }
        while done < wanted {
            if wanted - done >= capacity / 2 {
                // the window is empty here: large remainders bypass it
                refillNothing()
                if atEOF { break }
                let n = try readSome(dest + done, wanted - done, at: bufferOffset)
                if n == 0 { atEOF = true; break }
                bufferOffset += Int64(n)
                done += n
                continue
            }
            guard try refill(keepFrom: start) else { break }
            let n = min(count - start, wanted - done)
            (dest + done).update(from: buffer + start, count: n)
            start += n
            done += n
        }
        return max(0, done)
    }

    /// Empties the window once everything in it is consumed (the file position is kept).
    private func refillNothing() {
        bufferOffset += Int64(start)
        count = 0
        start = 0
    }

    /// Reads one line up to '\n' (not included), at most `limit` bytes; nil at a clean end of file.
    public func readLine(limit: Int) throws -> [UInt8]? {
        let lineStart = offset
        var line: [UInt8] = []
        while true {
            if start == count {
                guard try refill(keepFrom: start) else { return line.isEmpty ? nil : line }
            }
            let p = buffer + start
            let avail = count - start
            if let hit = memchr(p, 0x0a, avail) {
                let nl = UnsafeRawPointer(p).distance(to: UnsafeRawPointer(hit))
                guard line.count + nl <= limit else {
                    throw InputFileError(.lineTooLong(limit: limit), path: path, offset: lineStart)
                }
                line.append(contentsOf: UnsafeBufferPointer(start: p, count: nl))
                start += nl + 1
                return line
            }
            line.append(contentsOf: UnsafeBufferPointer(start: p, count: avail))
            start = count
            if line.count > limit { throw InputFileError(.lineTooLong(limit: limit), path: path, offset: lineStart) }
        }
    }

    /// Skips up to `n` bytes through the buffer, a piece at a time (memory does not grow with
    /// `n`); returns how many were skipped (fewer only at the end).
    public func skip(_ n: Int64) throws -> Int64 {
        var done: Int64 = 0
        while done < n {
            if start == count { guard try refill(keepFrom: start) else { break } }
            let step = Int(min(Int64(count - start), n - done))
            start += step
            done += Int64(step)
        }
        return done
    }

    /// Whether the stream has no more bytes.
    public func isAtEnd() throws -> Bool {
        if start < count { return false }
        return !(try refill(keepFrom: start))
    }

    /// The size of a regular file or of the bytes in memory; nil for a pipe or a terminal.
    public var size: Int64? {
        if fd < 0 { return Int64(memory.count) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(st.st_size)
    }
}

/// A file that could not be opened or read, or a line too long for what was expected: which file
/// and at which byte.
public struct InputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// open(2) failed with this `errno` (EISDIR: the path is a directory).
        case open(code: Int32)
        /// read(2) failed with this `errno`.
        case read(code: Int32)
        /// `readLine` found no line end within `limit` bytes.
        case lineTooLong(limit: Int)
    }

    public var kind: Kind
    public var path: String
    /// Where: the byte being read, or where the line began.
    public var offset: Int64

    public init(_ kind: Kind, path: String, offset: Int64) {
        self.kind = kind
        self.path = path
        self.offset = offset
    }

    /// "standard input" for "-", the quoted path otherwise.
    static func displayName(_ path: String) -> String { path == "-" ? "standard input" : "'\(path)'" }

    public var description: String {
        switch kind {
        case .open(let code):
            return "cannot open '\(path)': \(code == EISDIR ? "it is a directory" : String(cString: strerror(code)))"
        case .read(let code):
            return "cannot read \(Self.displayName(path)) at byte \(offset): \(String(cString: strerror(code)))"
        case .lineTooLong(let limit):
            return "\(Self.displayName(path)): line at byte \(offset) is longer than \(limit) bytes (not the expected format?)"
        }
    }
}
