import Synchronization

/// A flag that asks a run to stop in an orderly way (SIGINT): sources end their streams, what is
/// in flight drains, sinks finalize. Safe to set from a signal handler (a lock-free store).
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public var isSet: Bool { flag.load(ordering: .relaxed) }
    public func set() { flag.store(true, ordering: .relaxed) }
}
