#if canImport(Glibc)
import Glibc
#endif

/// A mutex with two condition variables, for the bounded queues between threads. Not itself
/// `Sendable`: the queue that owns it is shared, and its mutex guards the queue's state.
final class Monitor {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let notEmptyCond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let notFullCond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(notEmptyCond, nil)
        pthread_cond_init(notFullCond, nil)
    }

    deinit {
        pthread_cond_destroy(notEmptyCond)
        pthread_cond_destroy(notFullCond)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        notEmptyCond.deallocate()
        notFullCond.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
    @inline(__always) func waitNotEmpty() { pthread_cond_wait(notEmptyCond, mutex) }
    @inline(__always) func waitNotFull() { pthread_cond_wait(notFullCond, mutex) }
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
    @inline(__always) func broadcastNotFull() { pthread_cond_broadcast(notFullCond) }
    @inline(__always) func broadcastAll() {
        pthread_cond_broadcast(notEmptyCond)
        pthread_cond_broadcast(notFullCond)
    }
}

/// Monotonic nanoseconds, for statistics.
@inline(__always) func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
