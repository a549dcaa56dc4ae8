#if canImport(Glibc)
import Glibc
#endif

/// The threads the runner starts for sources and queued nodes: plain POSIX threads, joined with
/// `pthread_join`.
///
/// Joined rather than awaited through a Dispatch group so that the thread calling `run` waits in
/// a call the thread sanitizer intercepts: it defers a signal handler until the receiving thread
/// enters such a call, and a thread asleep inside libdispatch never does, so Ctrl-C went
/// unanswered in `make test-sanitize`'s binaries. The join also orders everything the threads did
/// before what `run` does after, in a way the sanitizer sees.
enum EngineThread {
    /// Starts `body` on a new thread with an 8 MiB stack, named "mg-NAME" (`ThreadName`). Throws `NodeFailure` with the system's reason when no thread can be made.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws -> pthread_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 8 << 20)
        let context = Unmanaged.passRetained(Body(name: "mg-" + name, body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, &attributes, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            ThreadName.set(body.name)
            body.run()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw NodeFailure("could not start a thread: \(String(cString: strerror(rc)))")
        }
        return thread
    }

    /// Waits for `thread` to end.
    static func join(_ thread: pthread_t) {
        _ = pthread_join(thread, nil)
    }

    /// A thread's body, handed to the new thread through its context pointer.
    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
