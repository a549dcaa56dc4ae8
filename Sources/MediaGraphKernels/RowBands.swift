import Dispatch
import MediaGraphCore

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
    /// Returns how many distinct threads ran bands (1 when the rows were not split).
    @inlinable @discardableResult
    public static func run(rows: Int, threads: Int, minRows: Int = 8, _ body: (Range<Int>) -> Void) -> Int {
        let wanted = threads <= 0 ? coreCount : threads
        let bands = max(1, min(wanted, rows / max(1, minRows)))
        if bands == 1 || rows <= 1 {
            body(0..<rows)
            return 1
        }
        return concurrently(bands) { band in
            let start = rows * band / bands
            let end = rows * (band + 1) / bands
            body(start..<end)
        }
    }

    /// Calls `body(0)`, …, `body(count - 1)` at the same time, each on a thread of its own (the
    /// calling thread runs `body(0)`, persistent band workers the others: `BandCrew`), and returns
    /// when every call has returned. Returns how many distinct threads ran them: `count`, unless
    /// no thread could be made. The calls must touch disjoint memory (their own rows, their own
    /// scratch): the body is not `@Sendable` because kernels capture frame pointers.
    @discardableResult
    public static func concurrently(_ count: Int, _ body: (Int) -> Void) -> Int {
        if useDispatch { return concurrentlyOnDispatch(count, body) }
        return BandCrew.shared.run(count, body)
    }

    /// `MEDIAGRAPH_BANDS=dispatch` runs bands with Dispatch's `concurrentPerform` as before
    /// `BandCrew` (for measuring the two side by side; `mediagraph-bench graphcost` does).
    static let useDispatch: Bool = getenv("MEDIAGRAPH_BANDS").map { String(cString: $0) == "dispatch" } ?? false

    /// What the band runner did so far in this process: runs of two or more bands, those that
    /// ran on one thread only, and the time callers waited for workers after their own band and
    /// workers took to start (summed). Cheap relaxed counters, for benchmarks and `--stats`.
    public static var statistics: BandStatistics {
        let c = BandCrew.shared
        return BandStatistics(runs: c.runs.load(ordering: .relaxed), oneThreadRuns: c.oneThreadRuns.load(ordering: .relaxed),
                              callerWaitNanos: c.callerWaitNanos.load(ordering: .relaxed),
                              workerStartNanos: c.workerStartNanos.load(ordering: .relaxed))
    }

    /// Bands on Dispatch's `concurrentPerform`; returns the distinct threads that ran them.
    static func concurrentlyOnDispatch(_ count: Int, _ body: (Int) -> Void) -> Int {
        let threads = Lock<[UInt]>([])
        withoutActuallyEscaping(body) { body in
            let shared = DispatchBody(call: body)
            DispatchQueue.concurrentPerform(iterations: count) { k in
                shared.call(k)
                let me = UInt(pthread_self())
                threads.withLock { if !$0.contains(me) { $0.append(me) } }
            }
        }
        let used = threads.withLock { $0.count }
        let c = BandCrew.shared
        c.runs.wrappingAdd(1, ordering: .relaxed)
        if used < 2 { c.oneThreadRuns.wrappingAdd(1, ordering: .relaxed) }
        return used
    }
}

/// Counters of the band runner (`RowBands.statistics`); subtract two readings for an interval.
public struct BandStatistics: Sendable {
    /// Runs of two or more bands.
    public var runs: Int
    /// Of those, runs whose bands all ran on one thread.
    public var oneThreadRuns: Int
    /// Time callers waited, after their own bands, for the workers to finish (summed).
    public var callerWaitNanos: UInt64
    /// Time from a caller posting a run to each worker starting it (summed over workers).
    public var workerStartNanos: UInt64

    public static func - (a: BandStatistics, b: BandStatistics) -> BandStatistics {
        BandStatistics(runs: a.runs - b.runs, oneThreadRuns: a.oneThreadRuns - b.oneThreadRuns,
                       callerWaitNanos: a.callerWaitNanos &- b.callerWaitNanos,
                       workerStartNanos: a.workerStartNanos &- b.workerStartNanos)
    }
}

/// A band body handed to `concurrentPerform`'s threads. Unchecked because what makes it safe is
/// the kernels' contract, not the type: each call writes only its own band of rows, and
/// `concurrentlyOnDispatch` returns only after every call has.
struct DispatchBody: @unchecked Sendable {
    let call: (Int) -> Void
}

#if canImport(Glibc)
import Glibc
@usableFromInline func sysconfNumProcessorsOnline() -> Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
#endif
