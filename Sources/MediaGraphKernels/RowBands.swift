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
        concurrently(bands) { band in
            let start = rows * band / bands
            let end = rows * (band + 1) / bands
            body(start..<end)
        }
    }

    /// Calls `body(0)`, …, `body(count - 1)` at the same time on the cores and returns when every
    /// call has returned. The calls must touch disjoint memory (their own rows, their own
    /// scratch): the body is not `@Sendable` because kernels capture frame pointers.
    @inlinable
    public static func concurrently(_ count: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            let shared = ConcurrentBody(call: body)
            DispatchQueue.concurrentPerform(iterations: count) { shared.call($0) }
        }
    }
}

/// A band body handed to `concurrentPerform`'s threads. Unchecked because what makes it safe is
/// the kernels' contract, not the type: each call writes only its own band of rows, and
/// `concurrently` returns only after every call has, so nothing it captures is used after.
@usableFromInline
struct ConcurrentBody: @unchecked Sendable {
    @usableFromInline let call: (Int) -> Void
    @inlinable init(call: @escaping (Int) -> Void) { self.call = call }
}

#if canImport(Glibc)
import Glibc
@usableFromInline func sysconfNumProcessorsOnline() -> Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
#endif
