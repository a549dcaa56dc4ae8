#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// SIGUSR1 presses so far: the one word the handler touches.
private let snapshotSignals = Atomic<Int>(0)
/// Whether the handler is in place (installed once per process, by the first node that asks).
private let snapshotSignalInstalled = Atomic<Bool>(false)

/// On-demand pictures by signal: `kill -USR1 <pid>` asks every `snapshot` node with
/// `signal: true` for one picture of its next frame. The handler only adds to a statically
/// allocated atomic word (async-signal-safe: no allocation, no lock; the word is touched before
/// the handler is installed); each node compares the count with the one it saw last. Installed
/// with SA_RESTART, so it interrupts no blocking read elsewhere in the run.
enum SnapshotSignal {
    /// Signals received since the process started.
    static var count: Int { snapshotSignals.load(ordering: .acquiring) }

    /// Installs the handler (once) and unblocks SIGUSR1.
    static func install() {
        _ = snapshotSignals.load(ordering: .relaxed)
        guard snapshotSignalInstalled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            snapshotSignals.add(1, ordering: .releasing)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGUSR1, &action, nil)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGUSR1)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }
}
