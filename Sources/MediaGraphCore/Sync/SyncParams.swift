/// When the output of a synchronised node ends (`end` param).
public enum SyncEnd: String, CaseIterable, Sendable {
    /// The output ends as soon as any input has ended (at that input's end time).
    case shortest
    /// The output runs until every input has ended; after the first input's last frame it goes
    /// on at that frame's duration.
    case longest
    /// The output follows the first input: it ends when the first input ends.
    case first
}

/// What an input that has ended shows while the output goes on (`ended` param).
public enum EndedInput: String, CaseIterable, Sendable {
    /// The input keeps showing its last frame (ffmpeg's `repeatlast`, `eof_action=repeat`).
    case hold
    /// The input disappears: the node gets nil for it (ffmpeg's `eof_action=pass`).
    case hide
}

/// The params every synchronised node type lists (`params: ParamSpec.list(... + SyncParams.all)`),
/// declared once here so they mean the same on every node.
public enum SyncParams {
    public static let end = Param<SyncEnd>(
        "end", default: .first,
        doc: "when the output ends: first (with the first input), shortest (when any input ends), longest (when all have ended)")
    public static let offsets = Param<[Double]>.numbers(
        "offsets", count: 0...SyncLimits.maximumInputs, default: [],
        doc: "seconds each input is shifted by, in input order (in, in1, in2, …): [0, 2.5] starts in1 2.5 s later; missing entries are 0")
    public static let ended = Param<EndedInput>(
        "ended", default: .hold,
        doc: "what an input that has ended shows while the output goes on: hold (its last frame) or hide (nothing)")

    /// The declarations, to append to a node type's params.
    public static let all: [any ParamDeclaration] = [end, offsets, ended]
}

/// Limits of the synchroniser.
public enum SyncLimits {
    /// Most inputs a synchronised node takes.
    public static let maximumInputs = 64
    /// Most frames held per input ahead of the output time: reached only when the engine must
    /// take a frame from a full queue to avoid a deadlock (two branches of one source, one of
    /// them shifted by an offset), so it bounds offset × frame rate between such branches.
    public static let heldFrames = 256
    /// Largest common time base denominator; above it times are rounded to nanoseconds.
    static let maximumTimeScale: Int64 = 1 << 40
}

/// How a synchronised node aligns its inputs: the `end`, `offsets` and `ended` params.
public struct SyncPolicy: Sendable, Equatable {
    public var end: SyncEnd
    /// Seconds per input, in input order; missing entries are 0.
    public var offsets: [Double]
    public var ended: EndedInput

    public init(end: SyncEnd = .first, offsets: [Double] = [], ended: EndedInput = .hold) {
        self.end = end
        self.offsets = offsets
        self.ended = ended
    }

    /// The policy the node's validated params give.
    public init(params: ParamValues) {
        self.init(end: params[SyncParams.end], offsets: params[SyncParams.offsets], ended: params[SyncParams.ended])
    }

    /// Offset of input `k` in seconds.
    public func offset(_ k: Int) -> Double { k < offsets.count ? offsets[k] : 0 }
}
