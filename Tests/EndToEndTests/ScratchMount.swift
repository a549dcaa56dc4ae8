#if canImport(Glibc)
import Glibc
#endif
import Testing

/// A tmpfs mounted on a fresh temporary directory for the length of `body`: read-only (`MS_RDONLY`)
/// or of a small `size` ("256k"), so a sink meets a read-only file system or a full disk. Needs
/// root; records an issue and skips `body` without it.
enum ScratchMount {
    static func with(flags: UInt = 0, size: String, _ body: (String) throws -> Void) throws {
        let dir = CLI.tempDir()
        guard mount("tmpfs", dir, "tmpfs", flags, "size=\(size)") == 0 else {
            Issue.record("mounting a tmpfs needs root: \(String(cString: strerror(errno)))")
            return
        }
        defer { umount(dir) }
        try body(dir)
    }
}
