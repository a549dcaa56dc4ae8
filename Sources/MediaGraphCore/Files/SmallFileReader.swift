#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole small file (a graph file, a .cube LUT, a shader) with a size limit, so a huge
/// file, /dev/zero or a FIFO that never ends cannot take unbounded memory or time. The one reader
/// of small files: callers word the failure for their own file kind.
public enum SmallFileReader {
    public enum Failure: Error, Equatable {
        /// The file cannot be opened or read: the system's reason.
        case unreadable(String)
        case isDirectory
        /// More than `limit` bytes.
        case tooLarge(limit: Int)
        /// Not a regular file (a FIFO, a device) where only a regular file is read.
        case notRegularFile

        /// The failure in words, for a file of the kind `kind` (".cube file", "curves file").
        public func message(for kind: String) -> String {
            switch self {
            case .unreadable(let why): return "cannot read the file: \(why)"
            case .isDirectory: return "cannot read the file: it is a directory"
            case .notRegularFile: return "cannot read the file: not a regular file"
            case .tooLarge(let limit): return "the file is larger than the limit of \(limit) bytes for a \(kind)"
            }
        }
    }

    /// The file's bytes, at most `limit` of them. With `regularFileOnly` a FIFO or device is
    /// refused before anything is read (and opening a FIFO does not wait for a writer).
    public static func read(_ path: String, limit: Int, regularFileOnly: Bool = false) throws(Failure) -> [UInt8] {
        let bytes = try readPrefix(path, limit: limit, regularFileOnly: regularFileOnly, sizeCheck: true)
        if bytes.count > limit { throw .tooLarge(limit: limit) }
        return bytes
    }

    /// The file's first `limit + 1` bytes at most, without a size error: for a parser that
    /// reports the limit itself where it is reached (a compiler's line:column).
    public static func readPrefix(_ path: String, limit: Int, regularFileOnly: Bool = false) throws(Failure) -> [UInt8] {
        try readPrefix(path, limit: limit, regularFileOnly: regularFileOnly, sizeCheck: false)
    }

    private static func readPrefix(_ path: String, limit: Int, regularFileOnly: Bool, sizeCheck: Bool) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regularFileOnly ? O_NONBLOCK : 0))
        if fd < 0 {
            if errno == EISDIR { throw .isDirectory }
            throw .unreadable(String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 {
            let type = st.st_mode & S_IFMT
            if type == S_IFDIR { throw .isDirectory }
            if regularFileOnly && type != S_IFREG { throw .notRegularFile }
            if sizeCheck && type == S_IFREG && st.st_size > off_t(limit) { throw .tooLarge(limit: limit) }
        } else if regularFileOnly {
            throw .unreadable(String(cString: strerror(errno)))
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
        out.removeLast(out.count - used)
        return out
    }
}
