import Foundation
import MediaGraphCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The threads that run row bands: persistent workers, each woken for one band of one frame.
///
/// Why not Dispatch's `concurrentPerform`: on Linux its pool may grant no worker at all for a
/// while, so whole runs of the Swirl shader used exactly one thread's CPU time and took as long
/// as `threads: 1` (issue 15), and sub-millisecond kernels ran both bands on the caller in most
/// frames. Here every run posts each band beyond the first to a worker of its own: the caller
/// runs band 0, worker `k` band `k`. A worker busy with another caller's run is not waited for:
/// the crew grows by one worker instead (up to `maximumWorkers`; beyond that the bands left
/// over go to whoever is free). A band whose worker has not started by the time another
/// participant is free is taken by that participant: the late worker could not finish it
/// sooner, so this never costs wall time, and a busy machine degrades to serial, not worse.
///
/// Hand-offs: a worker spins (yielding) for `spinNanos` after its band before it sleeps on its
/// condition variable, so a chain of kernels on one thread (a frame's next filter starts
/// microseconds later) costs no futex wake-up; the caller spins the same way before sleeping
/// while the workers finish their bands.
final class BandCrew: Sendable {
    static let shared = BandCrew()

    /// Workers beyond which a run's extra bands go to the caller (each worker is a sleeping
    /// thread when unused).
    static let maximumWorkers = 63

    /// How long a worker or a waiting caller spins before sleeping (`MEDIAGRAPH_BAND_SPIN_US`,
    /// default 50 µs: about one futex wake-up on this kind of machine).
    static let spinNanos: UInt64 = {
        if let v = getenv("MEDIAGRAPH_BAND_SPIN_US"), let us = UInt64(String(cString: v)) { return us * 1000 }
        return 50_000
    }()

    private let workers = Lock<[BandWorker]>([])
    /// Counters for `RowBands.statistics`.
    let runs = Atomic<Int>(0)
    let oneThreadRuns = Atomic<Int>(0)
    let callerWaitNanos = Atomic<UInt64>(0)
    let workerStartNanos = Atomic<UInt64>(0)
    private let freeJobs = Lock<[BandJob]>([])

    /// Runs `body(0)`, …, `body(count - 1)` on `count` threads at once (the caller runs band 0)
    /// and returns when all have returned. Returns how many distinct threads ran bands.
    func run(_ count: Int, _ body: (Int) -> Void) -> Int {
        if count <= 1 {
            if count == 1 { body(0) }
            return 1
        }
        return withoutActuallyEscaping(body) { body in
            let job = freeJobs.withLock { $0.popLast() } ?? BandJob()
            defer { freeJobs.withLock { $0.append(job) } }
            claim(count - 1, into: &job.workers)
            job.prepare(bands: count, participants: 1 + job.workers.count, body: body)
            job.postedAt = monotonicNow()
            job.tickets.removeAll(keepingCapacity: true)
            for (k, w) in job.workers.enumerated() { job.tickets.append(w.post(job, participant: k + 1)) }
            let ranHere = job.runBands(participant: 0)
            let waitStart = monotonicNow()
            // every band is taken; workers that have not woken yet are not waited for
            for (w, t) in zip(job.workers, job.tickets) where w.revoke(ticket: t) { job.workerRevoked() }
            job.waitForWorkers(spinNanos: Self.spinNanos)
            job.clearBody()
            let threads = job.threadsThatRan + (ranHere ? 1 : 0)
            runs.wrappingAdd(1, ordering: .relaxed)
            if threads < 2 { oneThreadRuns.wrappingAdd(1, ordering: .relaxed) }
            callerWaitNanos.wrappingAdd(monotonicNow() &- waitStart, ordering: .relaxed)
            workerStartNanos.wrappingAdd(job.startDelayNanos, ordering: .relaxed)
            return threads
        }
    }

    /// Claims up to `wanted` idle workers for one run into `got` (emptied first, its capacity
    /// kept: no allocation per frame); starts new ones while there are fewer idle than wanted
    /// and the crew is below its maximum.
    private func claim(_ wanted: Int, into got: inout [BandWorker]) {
        got.removeAll(keepingCapacity: true)
        workers.withLock { list in
            for w in list where got.count < wanted && w.tryClaim() { got.append(w) }
        }
        while got.count < wanted {
            guard let w = startWorker() else { break }
            got.append(w)
        }
    }

    /// A new worker, already claimed; nil when the crew is full or no thread can be made.
    private func startWorker() -> BandWorker? {
        workers.withLock { list -> BandWorker? in
            guard list.count < Self.maximumWorkers else { return nil }
            let w = BandWorker(claimed: true)
            guard w.startThread(spinNanos: Self.spinNanos) else { return nil }
            list.append(w)
            return w
        }
    }

    /// Workers started so far (threads that exist, asleep when unused).
    var workerCount: Int { workers.withLock { $0.count } }
}

/// One run of bands: the body, which participant runs which band, and how many are still busy.
/// Reused from run to run (`BandCrew.freeJobs`), so a frame allocates nothing.
///
/// `@unchecked Sendable`: `body`, `bands` and `participants` are written by the caller before it
/// posts the job to workers (a releasing store they acquire) and cleared after every worker has
/// said it is done (an acquiring load of `pending`); in between they are only read.
final class BandJob: @unchecked Sendable {
    private(set) var body: ((Int) -> Void)?
    private(set) var bands = 0
    /// The workers claimed for the current run (owned by the caller's thread).
    var workers: [BandWorker] = []
    /// The post ticket of each claimed worker (`BandWorker.revoke`).
    var tickets: [Int] = []
    /// When the caller posted the run to its workers, and the sum over workers of the time until
    /// each started (for `RowBands.statistics`).
    var postedAt: UInt64 = 0
    private let startDelays = Atomic<UInt64>(0)
    var startDelayNanos: UInt64 { startDelays.load(ordering: .relaxed) }
    /// Which of bands 0..<64 have been taken (bit k: band k). Participant k takes band k first;
    /// then anyone free takes any band not yet taken — so a caller whose worker has not started
    /// by the time the caller's own band is done runs that band itself: the worker would finish
    /// it no earlier than the caller can.
    private let taken = Atomic<UInt64>(0)
    /// All of bands 0..<64 that this run has.
    private var allBands: UInt64 = 0
    /// The next band from 64 on (runs of more than 64 bands), taken by whoever is free.
    private let next = Atomic<Int>(0)
    /// Workers that have not finished their share.
    private let pending = Atomic<Int>(0)
    private let ran = Atomic<Int>(0)
    private let callerSleeping = Atomic<Bool>(false)
    private let sleeper = Sleeper()

    func prepare(bands: Int, participants: Int, body: @escaping (Int) -> Void) {
        self.body = body
        self.bands = bands
        allBands = bands >= 64 ? ~0 : (1 << UInt64(bands)) &- 1
        taken.store(1, ordering: .relaxed)   // band 0 is the caller's: it runs it after posting the others
        next.store(64, ordering: .relaxed)
        pending.store(participants - 1, ordering: .releasing)
        ran.store(0, ordering: .relaxed)
        startDelays.store(0, ordering: .relaxed)
    }

    /// A worker has woken for this run (statistics only).
    func workerStarted() { startDelays.wrappingAdd(monotonicNow() &- postedAt, ordering: .relaxed) }

    /// Forgets the body (the caller's closure must not outlive its call).
    func clearBody() { body = nil }

    /// Workers (not the caller) that ran at least one band.
    var threadsThatRan: Int { ran.load(ordering: .acquiring) }

    /// Runs participant `k`'s own band if nobody took it yet, then any band left; true when it
    /// ran at least one. Not inlined so that the body's reference is released before the caller
    /// is told.
    @inline(never)
    func runBands(participant k: Int) -> Bool {
        guard let body else { return false }
        var any = false
        if k == 0 || k < 64 && take(band: k) {
            body(k)
            any = true
        }
        while true {
            let free = ~taken.load(ordering: .relaxed) & allBands
            if free == 0 { break }
            let b = free.trailingZeroBitCount
            if take(band: b) {
                body(b)
                any = true
            }
        }
        while true {
            let b = next.wrappingAdd(1, ordering: .relaxed).oldValue
            if b >= bands { break }
            body(b)
            any = true
        }
        return any
    }

    /// Takes band `b` (< 64) for the calling thread; false if another took it first.
    private func take(band b: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(b)
        guard allBands & bit != 0 else { return false }
        return taken.bitwiseOr(bit, ordering: .relaxed).oldValue & bit == 0
    }

    /// A worker's post was taken back before it started: it will not touch this run.
    func workerRevoked() { pending.subtract(1, ordering: .relaxed) }

    /// A worker has finished its share.
    func workerDone(ranAny: Bool) {
        if ranAny { ran.wrappingAdd(1, ordering: .relaxed) }
        if pending.subtract(1, ordering: .sequentiallyConsistent).newValue == 0,
           callerSleeping.load(ordering: .sequentiallyConsistent) {
            sleeper.wake()
        }
    }

    /// Returns once every worker has finished: spins (yielding the core) for `spinNanos`, then
    /// sleeps until the last one wakes it.
    func waitForWorkers(spinNanos: UInt64) {
        if pending.load(ordering: .acquiring) == 0 { return }
        let deadline = monotonicNow() &+ spinNanos
        while monotonicNow() < deadline {
            if pending.load(ordering: .acquiring) == 0 { return }
            sched_yield()
        }
        sleeper.sleep(
            announce: { callerSleeping.store(true, ordering: .sequentiallyConsistent) },
            until: { pending.load(ordering: .sequentiallyConsistent) == 0 },
            done: { callerSleeping.store(false, ordering: .relaxed) })
    }
}

/// A worker thread: idle, claimed, posted a share of one run, or running it.
///
/// `slot` is idle (0), claimed (1), or a post's ticket times 4 plus posted (2) or running (3).
///
/// `@unchecked Sendable`: `job` and `participant` are written by the thread that claimed the
/// worker (`slot` idle → claimed, acquiring) before it publishes them (`slot` → posted,
/// releasing), and read by the worker only after it wins posted → running (acquiring); nobody
/// else writes them until the worker sets `slot` back to idle (releasing).
final class BandWorker: @unchecked Sendable {
    private static let idle = 0, claimed = 1, posted = 2, running = 3
    private let slot: Atomic<Int>
    /// Bumped by every post, so a sleeping or spinning worker sees that there may be work.
    private let posts = Atomic<UInt64>(0)
    private let sleeping = Atomic<Bool>(false)
    private let sleeper = Sleeper()
    private var job: BandJob?
    private var participant = 0

    init(claimed: Bool) { slot = Atomic(claimed ? Self.claimed : Self.idle) }

    func tryClaim() -> Bool {
        slot.compareExchange(expected: Self.idle, desired: Self.claimed, ordering: .acquiring).exchanged
    }

    /// Hands a claimed worker its share of `job` and wakes it if it sleeps. Returns the post's
    /// ticket, for `revoke`.
    func post(_ job: BandJob, participant: Int) -> Int {
        self.job = job
        self.participant = participant
        // only the claimer bumps `posts` while it holds the worker: this post's number is next
        let ticket = Int(truncatingIfNeeded: posts.load(ordering: .relaxed) &+ 1) & (Int.max >> 2)
        slot.store(ticket << 2 | Self.posted, ordering: .releasing)
        posts.wrappingAdd(1, ordering: .sequentiallyConsistent)
        if sleeping.load(ordering: .sequentiallyConsistent) { sleeper.wake() }
        return ticket
    }

    /// Takes post `ticket` back if the worker has not started on it (every band is done by
    /// then): the caller need not wait for a late thread's wake-up. The ticket makes sure a
    /// later post to the same worker (another caller's, once this worker finished) is never
    /// taken back. True when revoked.
    func revoke(ticket: Int) -> Bool {
        slot.compareExchange(expected: ticket << 2 | Self.posted, desired: Self.idle, ordering: .relaxed).exchanged
    }

    func startThread(spinNanos: UInt64) -> Bool {
        let context = Unmanaged.passRetained(WorkerStart(worker: self, spinNanos: spinNanos)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let rc = pthread_create(&thread, &attributes, { context in
            let start = Unmanaged<WorkerStart>.fromOpaque(context!).takeRetainedValue()
            ThreadName.set("mg-band")
            start.worker.loop(spinNanos: start.spinNanos)
            return nil
        }, context)
        if rc != 0 { Unmanaged<WorkerStart>.fromOpaque(context).release() }
        return rc == 0
    }

    /// The worker's life: wait for a post, run its bands, become idle, tell the caller; forever
    /// (workers are few and asleep when unused).
    private func loop(spinNanos: UInt64) {
        var seen: UInt64 = 0
        while true {
            seen = waitForPost(after: seen, spinNanos: spinNanos)
            // revoked (the caller finished without this worker), or claimed but not yet posted
            // (that post will bump `posts` again)
            let current = slot.load(ordering: .relaxed)
            guard current & 3 == Self.posted,
                  slot.compareExchange(expected: current, desired: current & ~3 | Self.running, ordering: .acquiring).exchanged,
                  let job = self.job else { continue }
            let k = participant
            self.job = nil
            job.workerStarted()
            let ranAny = job.runBands(participant: k)
            // idle again before telling the caller, so its next run finds this worker free
            slot.store(Self.idle, ordering: .releasing)
            job.workerDone(ranAny: ranAny)
        }
    }

    /// Waits until `posts` moves past `seen`: spinning (yielding) for `spinNanos`, then asleep.
    private func waitForPost(after seen: UInt64, spinNanos: UInt64) -> UInt64 {
        var now = posts.load(ordering: .acquiring)
        if now != seen { return now }
        let deadline = monotonicNow() &+ spinNanos
        while monotonicNow() < deadline {
            now = posts.load(ordering: .acquiring)
            if now != seen { return now }
            sched_yield()
        }
        sleeper.sleep(
            announce: { sleeping.store(true, ordering: .sequentiallyConsistent) },
            until: { posts.load(ordering: .sequentiallyConsistent) != seen },
            done: { sleeping.store(false, ordering: .relaxed) })
        return posts.load(ordering: .acquiring)
    }

    private final class WorkerStart {
        let worker: BandWorker
        let spinNanos: UInt64
        init(worker: BandWorker, spinNanos: UInt64) {
            self.worker = worker
            self.spinNanos = spinNanos
        }
    }
}

/// A mutex and condition variable for sleeping until a condition holds. The sleeper announces
/// itself (a flag the waker reads after changing the condition) with the mutex held, then
/// re-checks: a waker that changed the condition either sees the flag and signals under the
/// mutex, or the sleeper sees the change and does not wait.
final class Sleeper: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(cond, nil)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        cond.deallocate()
    }

    func sleep(announce: () -> Void, until ready: () -> Bool, done: () -> Void) {
        pthread_mutex_lock(mutex)
        announce()
        while !ready() { pthread_cond_wait(cond, mutex) }
        done()
        pthread_mutex_unlock(mutex)
    }

    func wake() {
        pthread_mutex_lock(mutex)
        pthread_cond_signal(cond)
        pthread_mutex_unlock(mutex)
    }
}

@inline(__always) func monotonicNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
