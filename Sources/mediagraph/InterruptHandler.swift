#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore
import Synchronization

/// Ctrl-C presses so far: the one word the SIGINT handler touches.
private let interruptPresses = Atomic<Int32>(0)

/// Ctrl-C: the first press asks the run to stop in order (sources end, what is in flight drains,
/// outputs are finalized), the second exits at once.
///
/// A signal handler may only do async-signal-safe work. This one does a lock-free atomic add on
/// a statically allocated word and, on the second press, `_exit` — no allocation, no lock, no
/// reference counting, no lazily initialized global (the word is touched before the handler is
/// installed). The run's `StopFlag` polls the word instead of being set from the handler.
enum InterruptHandler {
    /// Whether Ctrl-C was pressed.
    static var isInterrupted: Bool { interruptPresses.load(ordering: .relaxed) > 0 }

    /// A stop flag that is set once Ctrl-C is pressed.
    static func stopFlag() -> StopFlag { StopFlag(polling: { InterruptHandler.isInterrupted }) }

    /// Installs the handler (without SA_RESTART: a blocking read returns EINTR, so a source
    /// reading a pipe sees the stop) and unblocks SIGINT, which a parent may have left blocked.
    static func install() {
        _ = interruptPresses.load(ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            if interruptPresses.add(1, ordering: .relaxed).oldValue >= 1 { _exit(130) }
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }
}
