/// What one node did during a run, for `mediagraph run --stats`.
public struct NodeStatistics: Sendable {
    public var id: String
    public var type: String
    public var buffersIn: Int = 0
    public var buffersOut: Int = 0
    /// Time spent inside the node's own code (process/produce/finish).
    public var busyNanos: UInt64 = 0
    /// Time its thread waited for input (empty queue).
    public var inputWaitNanos: UInt64 = 0
    /// Time producers waited because this node's queue was full (back-pressure).
    public var queueFullNanos: UInt64 = 0
    /// Whether the node had its own thread and queue.
    public var ownThread: Bool = false
}
