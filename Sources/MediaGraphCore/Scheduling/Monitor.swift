#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a "not empty" condition variable and one or more "not full" ones, for the bounded
/// queues between threads. A queue with several inputs (`Inbox`) has a "not full" condition per
/// input, so draining one input's ring wakes that input's producer only, not every producer
/// blocked on a full ring (concat's 20 clips: each pop woke 19 decoders that found their rings
/// still full). Not itself `Sendable`: the queue that owns it is shared, and its mutex guards the
/// queue's state.
final class Monitor {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let notEmptyCond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let notFullConds: UnsafeMutablePointer<pthread_cond_t>
    private let notFullCount: Int

    init(notFullConditions: Int = 1) {
        notFullCount = max(1, notFullConditions)
        notFullConds = .allocate(capacity: notFullCount)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(notEmptyCond, nil)
        for k in 0..<notFullCount { pthread_cond_init(notFullConds + k, nil) }
    }

    deinit {
        pthread_cond_destroy(notEmptyCond)
        for k in 0..<notFullCount { pthread_cond_destroy(notFullConds + k) }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        notEmptyCond.deallocate()
        notFullConds.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
    @inline(__always) func waitNotEmpty() { pthread_cond_wait(notEmptyCond, mutex) }
    /// Waits on "not full" condition `k` (0 when there is one).
    @inline(__always) func waitNotFull(_ k: Int = 0) { pthread_cond_wait(notFullConds + k, mutex) }
    /// Waits for `notEmpty` at most `nanos` nanoseconds (a spurious or timed-out wake is fine:
    /// callers re-check their condition).
    func waitNotEmpty(nanos: UInt64) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = UInt64(now.tv_nsec) &+ nanos
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec &+ Int(total / 1_000_000_000)
        deadline.tv_nsec = Int(total % 1_000_000_000)
        pthread_cond_timedwait(notEmptyCond, mutex, &deadline)
    }
    @inline(__always) func signalNotEmpty() { pthread_cond_signal(notEmptyCond) }
    /// Wakes the waiters on "not full" condition `k` (0 when there is one).
    @inline(__always) func broadcastNotFull(_ k: Int = 0) { pthread_cond_broadcast(notFullConds + k) }
    func broadcastAll() {
        pthread_cond_broadcast(notEmptyCond)
        for k in 0..<notFullCount { pthread_cond_broadcast(notFullConds + k) }
    }
}

/// Monotonic nanoseconds, for statistics.
@inline(__always) func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
