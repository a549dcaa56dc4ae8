#if canImport(Glibc)
import Glibc
#endif

/// Names the calling thread (what `top -H`, `perf` and a debugger show), through
/// /proc/thread-self/comm, without Foundation.
///
/// `Thread.current.name` made Foundation create a `Thread` object for each of our raw POSIX
/// threads and keep it in thread-specific storage, released when the thread exits. Twice in a
/// day of runs a source thread, the first to exit in a run, died there with a general protection
/// fault in the Swift runtime's retain (`RefCounts::incrementSlow`, dmesg: "mg-src … general
/// protection fault … in libswiftCore.so"); swift-corelibs-foundation has an open report of
/// `Thread` outliving its pthread and corrupting memory (#5240). Our threads need only the name.
public enum ThreadName {
    /// Linux keeps 15 bytes; longer names are cut to whole characters.
    public static func set(_ name: String) {
        var bytes: [UInt8] = []
        for c in name {
            let utf8 = Array(String(c).utf8)
            if bytes.count + utf8.count > 15 { break }
            bytes += utf8
        }
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
