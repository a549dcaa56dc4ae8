import Synchronization
#if canImport(Glibc)
import Glibc
#endif

#if MEDIAGRAPH_TSAN
/// A value behind a lock: under thread sanitizer a pthread mutex, which ThreadSanitizer
/// intercepts. (`make test-sanitize` builds with `-DMEDIAGRAPH_TSAN`.) Synchronization's `Mutex`
/// takes and hands over a contended lock inside libswiftSynchronization (`_lockSlow`,
/// `_unlockSlow`: priority-inheritance futexes), which is not instrumented, so ThreadSanitizer
/// would see no order between one holder and the next and report what a lock hands over (a
/// recycled frame block and the pixels then written into it) as a race.
/// `@unchecked Sendable` as `Mutex` is: `value` is only touched with the mutex held.
public final class Lock<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#else
/// A value behind a lock (Synchronization's `Mutex`; a pthread mutex under thread sanitizer).
public typealias Lock<Value> = Mutex<Value>
#endif
