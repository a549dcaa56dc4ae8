/// A node with several video inputs aligned by time by the engine (ffmpeg's framesync,
/// GStreamer's aggregator): it says only what to do with one set of frames.
///
/// For each frame of the first input the node gets one `SyncedFrames`: the output time and, for
/// every input, its current frame at that time (its last frame with pts + offset ≤ the output
/// time), or nil when the input has not started yet or has ended and is hidden. The params
/// `end`, `offsets` and `ended` (`SyncParams`, listed in the node type's params) decide when the
/// output ends, how inputs are shifted and what an ended input shows; inputs come in
/// `SyncInputOrder` (`in`, `in1`, `in2`, …).
///
/// The engine implements `process(_:input:output:)`, `inputEnded`, `finish` (it emits what is
/// still due, then calls the node's `finish`) and `preferredInput` for such a node; the node
/// implements `configure`, `process(synced:output:)` and whatever else it needs.
public protocol SynchronizedVideoNode: MediaNode {
    /// How inputs are aligned; read once when the graph starts. `SyncPolicy(params:)` reads it
    /// from the node's params.
    var syncPolicy: SyncPolicy { get }
    /// Handles one output time with the current frame of every input. Send at most what the
    /// output time calls for (usually one frame stamped with `synced.pts`, `duration`, `timeBase`).
    func process(synced: borrowing SyncedFrames, output: NodeOutput) throws
    /// False when the node wants its frames one by one instead (its own
    /// `process(_:input:output:)`), e.g. a shader node with one input; read once when the graph
    /// starts. Default true.
    var synchronizesInputs: Bool { get }
}

extension SynchronizedVideoNode {
    public var synchronizesInputs: Bool { true }

    /// Frames reach a synchronised node through the engine's synchroniser, which calls
    /// `process(synced:output:)`; this is not called while a graph runs.
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        throw NodeFailure("a synchronised node gets its frames through the engine's synchroniser (SynchronizedVideoAdapter), not one by one")
    }
}

/// One output time of a synchronised node: the time, and the current frame of each input.
/// Borrowed for the call to `process(synced:output:)` only.
public struct SyncedFrames: ~Copyable {
    /// Output presentation time and duration, in ticks of `timeBase`.
    public let pts: Int64
    public let duration: Int64
    public let timeBase: Rational
    let slots: SyncSlots

    init(pts: Int64, duration: Int64, timeBase: Rational, slots: SyncSlots) {
        self.pts = pts
        self.duration = duration
        self.timeBase = timeBase
        self.slots = slots
    }

    /// Number of inputs (frames may be nil for some).
    public var count: Int { slots.frames.count }

    /// Input `k`'s current frame, or nil (not started yet, or ended and hidden, or taken).
    /// Holding the returned reference keeps `takeFirst` from writing in place.
    public func buffer(_ k: Int) -> SampleBuffer? { slots.frames[k] }

    /// Input `k`'s planes (read only), or nil.
    public func planes(_ k: Int) -> FramePlanes? { slots.frames[k]?.planes }

    /// Input `k`'s video format, or nil when it has no frame now.
    public func format(_ k: Int) -> VideoFormat? { slots.frames[k]?.videoFormat }

    /// Whether input `k` has a frame now.
    public func has(_ k: Int) -> Bool { slots.frames[k] != nil }

    /// The first input's frame, writable and stamped with the output time: its own memory when
    /// nobody else holds it (then it is gone from `buffer(0)`), otherwise a copy (as
    /// `SampleBuffer.writable`). Also a copy when the synchroniser must show it again (the last
    /// frame of the first input held under `end: longest`). Nil when the first input has no frame.
    public func takeFirst() -> WritableBuffer? {
        var w: WritableBuffer
        if slots.keepFirst {
            guard let b = slots.frames[0] else { return nil }
            w = b.writableCopy()
        } else {
            guard let b = slots.frames[0].take() else { return nil }
            w = SampleBuffer.writable(consume b)
        }
        stamp(&w.metadata)
        return w
    }

    /// A new frame of `format` from the pool, stamped with the output time.
    public func newFrame(_ format: VideoFormat) -> WritableBuffer {
        var w = WritableBuffer(frame: format, timeBase: timeBase)
        stamp(&w.metadata)
        return w
    }

    /// Sets a buffer's times to the output time.
    public func stamp(_ metadata: inout BufferMetadata) {
        metadata.pts = pts
        metadata.dts = pts
        metadata.duration = duration
        metadata.timeBase = timeBase
    }
}

/// The frames of the output time being handed out (moved in and out of the synchroniser's
/// state, so the first input's frame stays uniquely referenced).
final class SyncSlots {
    var frames: [SampleBuffer?]
    /// Whether the synchroniser shows the first input's frame again after this output.
    var keepFirst = false

    init(count: Int) { frames = Array(repeating: nil, count: count) }
}
