import Synchronization

/// A flag that asks a run to stop in an orderly way (SIGINT): sources end their streams, what is
/// in flight drains, sinks finalize.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    /// Also set when this says so: a signal handler stores into a word of its own, which this
    /// polls, so the handler needs no reference to the flag.
    private let poll: (@Sendable () -> Bool)?
    public init() { poll = nil }
    public init(polling: @escaping @Sendable () -> Bool) { poll = polling }
    public var isSet: Bool { flag.load(ordering: .relaxed) || (poll?() ?? false) }
    public func set() { flag.store(true, ordering: .relaxed) }
}
