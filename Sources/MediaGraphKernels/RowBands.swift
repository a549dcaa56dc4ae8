import Dispatch

/// Splits the rows of a frame into contiguous bands and runs a body on each band, in parallel.
///
/// Kernels call this once per frame; the body is called once per band (never per pixel), so the
/// cost of the closure is amortised over whole rows.
public enum RowBands {
    /// Number of cores the process may use; the default thread count of every kernel.
    public static let coreCount: Int = {
        #if canImport(Glibc)
        return max(1, Int(sysconfNumProcessorsOnline()))
        #else
        return 1
        #endif
    }()

    /// Runs `body` over `0..<rows` split into at most `threads` bands (0 or less means all cores).
    /// Bands hold at least `minRows` rows so that tiny frames are not split into useless work items.
    @inlinable
    public static func run(rows: Int, threads: Int, minRows: Int = 8, _ body: (Range<Int>) -> Void) {
        let wanted = threads <= 0 ? coreCount : threads
        let bands = max(1, min(wanted, rows / max(1, minRows)))
        if bands == 1 || rows <= 1 {
            body(0..<rows)
            return
        }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let start = rows * band / bands
            let end = rows * (band + 1) / bands
            body(start..<end)
        }
    }
}

#if canImport(Glibc)
import Glibc
@usableFromInline func sysconfNumProcessorsOnline() -> Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
#endif
