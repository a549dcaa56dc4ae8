#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// On-demand pictures by a control FIFO: each non-empty line written to it (`echo snap >
/// ctl.fifo`) asks for one picture of the next frame. The node creates the FIFO (mode 0600)
/// when the path does not exist and removes it at the end; an existing FIFO is used and left.
///
/// Opened read-write and non-blocking (Linux allows that on a FIFO): opening does not wait for a
/// writer, and a writer closing its end is not an end of file. The node polls it once per frame
/// with one `read` of at most 512 bytes, so the cost is a system call per frame and a flood of
/// lines is taken at the rate of frames.
final class SnapshotControlFIFO {
    let path: String
    private var fd: Int32 = -1
    private var created = false
    private var lineHasText = false
    private var buffer = [UInt8](repeating: 0, count: 512)

    /// Creates or opens the FIFO; errors name the node's param and the path.
    init(path: String) throws {
        self.path = path
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw Self.failure(path, "cannot look at it", errno) }
            try OutputDirectory.prepare(for: path)
            guard mkfifo(path, 0o600) == 0 else { throw Self.failure(path, "cannot create a FIFO there", errno) }
            created = true
        } else if st.st_mode & S_IFMT != S_IFIFO {
            throw NodeFailure("param 'control': '\(path)' exists and is not a FIFO (remove it, or name a new path: the node creates the FIFO)")
        }
        fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            let e = errno
            if created { unlink(path) }
            throw Self.failure(path, "cannot open it", e)
        }
    }

    deinit { close() }

    private static func failure(_ path: String, _ what: String, _ code: Int32) -> NodeFailure {
        NodeFailure("param 'control': '\(path)': \(what): \(String(cString: strerror(code)))")
    }

    /// Lines completed since the last call (a line is counted at its newline, if it had text).
    func takeRequests() -> Int {
        guard fd >= 0 else { return 0 }
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return 0 }
        var lines = 0
        for i in 0..<n {
            switch buffer[i] {
            case 0x0A:
                if lineHasText { lines += 1 }
                lineHasText = false
            case 0x20, 0x09, 0x0D: break
            default: lineHasText = true
            }
        }
        return lines
    }

    /// Closes it and removes the FIFO if the node made it.
    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
        if created { unlink(path); created = false }
    }
}
