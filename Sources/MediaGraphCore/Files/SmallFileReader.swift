#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole small file (a graph file) with a size limit, so a huge file, /dev/zero or a
/// FIFO that never ends cannot take unbounded memory or time.
public enum SmallFileReader {
    public enum Failure: Error, Equatable {
        /// The file cannot be opened or read: the system's reason.
        case unreadable(String)
        case isDirectory
        /// More than `limit` bytes.
        case tooLarge(limit: Int)
    }

    /// The file's bytes, at most `limit` of them.
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .unreadable(String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory }
            if (st.st_mode & S_IFMT) == S_IFREG && st.st_size > off_t(limit) { throw .tooLarge(limit: limit) }
        }
        // read one byte past the limit: that byte's arrival is what says "too large"
        let cap = limit + 1
        var out = [UInt8](repeating: 0, count: min(cap, 64 << 10))
        var used = 0
        while used < cap {
            if used == out.count { out += [UInt8](repeating: 0, count: min(out.count, cap - out.count)) }
            let n = out.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + used, raw.count - used) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EISDIR { throw .isDirectory }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if n == 0 { break }
            used += n
        }
        if used > limit { throw .tooLarge(limit: limit) }
        out.removeLast(out.count - used)
        return out
    }
}
