#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore
import Synchronization

/// Stop requests so far (Ctrl-C, SIGTERM, SIGHUP): the words the signal handler touches.
private let stopRequests = Atomic<Int32>(0)
/// The signal that asked first; 0 before any.
private let firstStopSignal = Atomic<Int32>(0)

/// Ctrl-C, and the SIGTERM that `kill`, `timeout`, `docker stop` and systemd send (and SIGHUP,
/// a closed terminal): the first asks the run to stop in order (sources end, what is in flight
/// drains, outputs are finalized), a second exits at once. All three end the same way, so a
/// service manager's stop keeps what was recorded as Ctrl-C does (ffmpeg treats them alike).
///
/// A signal handler may only do async-signal-safe work. This one does lock-free atomic
/// operations on statically allocated words and, on the second signal, `_exit` — no allocation,
/// no lock, no reference counting, no lazily initialized global (the words are touched before
/// the handler is installed). The run's `StopFlag` polls the count instead of being set from the
/// handler.
enum InterruptHandler {
    /// The signals handled, each stopping the run in order.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Whether a stop was asked for.
    static var isInterrupted: Bool { stopRequests.load(ordering: .relaxed) > 0 }

    /// A stop flag that is set once a stop is asked for.
    static func stopFlag() -> StopFlag { StopFlag(polling: { InterruptHandler.isInterrupted }) }

    /// The shell's convention, 128 + the signal: 130 after Ctrl-C, 143 after SIGTERM, 129 after
    /// SIGHUP.
    static var exitCode: Int32 {
        let signal = firstStopSignal.load(ordering: .relaxed)
        return 128 + (signal == 0 ? SIGINT : signal)
    }

    /// What stopped the run, for the closing line: "Ctrl-C", "SIGTERM" or "SIGHUP".
    static var stopCause: String {
        switch firstStopSignal.load(ordering: .relaxed) {
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "Ctrl-C"
        }
    }

    /// Installs the handler (without SA_RESTART: a blocking read returns EINTR, so a source
    /// reading a pipe sees the stop) and unblocks the signals, which a parent may have left
    /// blocked.
    static func install() {
        _ = stopRequests.load(ordering: .relaxed)
        _ = firstStopSignal.load(ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            _ = firstStopSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
            if stopRequests.add(1, ordering: .relaxed).oldValue >= 1 { _exit(128 + signal) }
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in signals {
            sigaction(s, &action, nil)
            sigaddset(&unblock, s)
        }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }
}
