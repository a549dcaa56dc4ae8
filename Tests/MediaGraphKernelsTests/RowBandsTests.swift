import Foundation
import MediaGraphCore
import MediaGraphKernels
import Synchronization
import Testing

/// The band runner: every band on a thread of its own (the calling thread runs band 0), each row
/// exactly once, concurrent and nested callers served. Thread identities are recorded by the
/// bands themselves (`pthread_self`), independently of what the runner reports.
@Suite struct RowBandsTests {
    /// Busy work of about `microseconds` that the optimiser cannot drop.
    static func spin(_ microseconds: Int) -> UInt64 {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(microseconds) * 1000
        var x: UInt64 = 1
        while DispatchTime.now().uptimeNanoseconds < end { x = x &* 6364136223846793005 &+ 1442695040888963407 }
        return x
    }

    /// Issue 15: with default threads some whole runs of a 2-band kernel used one thread's CPU
    /// time (Dispatch's pool granted no worker). Every run must get a second thread: band 0 (on
    /// the calling thread) waits until band 1 has started, so a runner that gives band 1 no
    /// thread of its own would hang here until the timeout.
    @Test(.enabled(if: RowBands.coreCount >= 2))
    func everyTwoBandRunGetsASecondThread() {
        let caller = UInt(bitPattern: Int(pthread_self()))
        var failures: [String] = []
        for round in 0..<40 {
            let ids = UnsafeMutablePointer<UInt>.allocate(capacity: 2)
            ids.initialize(repeating: 0, count: 2)
            defer { ids.deallocate() }
            let started = Atomic<Bool>(false)
            var timedOut = false
            let reported = RowBands.run(rows: 1080, threads: 2) { band in
                let me = UInt(bitPattern: Int(pthread_self()))
                if band.lowerBound == 0 {
                    ids[0] = me
                    let deadline = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
                    while !started.load(ordering: .acquiring) {
                        if DispatchTime.now().uptimeNanoseconds > deadline { timedOut = true; break }
                        usleep(50)
                    }
                } else {
                    ids[1] = me
                    started.store(true, ordering: .releasing)
                }
                _ = Self.spin(round % 2 == 0 ? 100 : 1000)
            }
            if timedOut || reported != 2 || ids[0] != caller || ids[1] == 0 || ids[1] == ids[0] {
                failures.append("run \(round): reported \(reported) threads, band 0 on the caller: \(ids[0] == caller), band 1 on another thread: \(ids[1] != 0 && ids[1] != ids[0]), timed out: \(timedOut)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "; "))")
    }

    /// Every row is in exactly one band, whatever the thread count, including more threads than
    /// the crew has started and odd row counts.
    @Test func everyRowExactlyOnce() {
        for (rows, threads) in [(1081, 2), (1081, 3), (289, 7), (17, 64), (9, 2), (1, 4)] {
            let hits = UnsafeMutablePointer<Int>.allocate(capacity: rows)
            hits.initialize(repeating: 0, count: rows)
            defer { hits.deallocate() }
            RowBands.run(rows: rows, threads: threads, minRows: 1) { band in
                for r in band { hits[r] += 1 }
            }
            #expect((0..<rows).allSatisfy { hits[$0] == 1 }, "\(rows) rows on \(threads) threads")
        }
    }

    /// `count` bands on `count` distinct threads; the number reported is the number seen.
    @Test(.enabled(if: RowBands.coreCount >= 2))
    func manyBandsOnDistinctThreads() {
        for count in [2, 3, 5, 8] {
            let ids = Lock<[UInt]>([])
            let started = Atomic<Int>(0)
            let reported = RowBands.concurrently(count) { _ in
                let me = UInt(bitPattern: Int(pthread_self()))
                ids.withLock { $0.append(me) }
                // a barrier: no band ends before every band has started, so no thread can take
                // a second band (a runner short of threads would wait here until the timeout)
                started.add(1, ordering: .acquiringAndReleasing)
                let deadline = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
                while started.load(ordering: .acquiring) < count && DispatchTime.now().uptimeNanoseconds < deadline { usleep(50) }
            }
            let seen = ids.withLock { Set($0).count }
            #expect(seen == count && reported == count, "\(count) bands: \(seen) threads seen, \(reported) reported")
        }
    }

    /// Several threads running bands at once (two filter chains on two graph threads) and a band
    /// that itself runs bands (nested) all finish, every band exactly once, and each run reports
    /// the number of distinct threads its bands saw (a late worker's band is taken by a free
    /// thread, so that may be 1 on a busy machine).
    @Test func concurrentAndNestedCallers() async {
        let failures = FailureCount()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<50 {
                        let ids = Lock<[UInt]>([])
                        let bands = Lock<[Int]>([])
                        let n = RowBands.concurrently(2) { band in
                            ids.withLock { $0.append(UInt(bitPattern: Int(pthread_self()))) }
                            bands.withLock { $0.append(band) }
                            if band == 1 {
                                let inner = Lock<[Int]>([])
                                RowBands.concurrently(2) { b in inner.withLock { $0.append(b) }; _ = Self.spin(20) }
                                if inner.withLock({ $0.sorted() }) != [0, 1] { failures.count.add(1, ordering: .relaxed) }
                            }
                            _ = Self.spin(50)
                        }
                        if n != ids.withLock({ Set($0).count }) || bands.withLock({ $0.sorted() }) != [0, 1] {
                            failures.count.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
        }
        #expect(failures.count.load(ordering: .relaxed) == 0)
    }

    final class FailureCount: Sendable {
        let count = Atomic<Int>(0)
    }
}
