/// The format arriving on one connected input port.
public struct InputFormat: Sendable {
    /// The port's name as connected (`in`, `video`, `video1`, …).
    public var port: String
    public var format: MediaFormat

    public init(port: String, format: MediaFormat) {
        self.port = port
        self.format = format
    }
}

/// A node of a graph: a filter, encoder or sink (see `SourceNode` for sources).
///
/// Life cycle: `configure` once with the negotiated input formats (before any data flows; it
/// returns the format of each output port), `start`, then `process` for each buffer, `finish`
/// when every input has ended (flush delayed output; sinks finalize), or `abort` when the graph
/// stops on an error (sinks remove partial output). The engine never calls a node from two
/// threads at once.
public protocol MediaNode: AnyObject {
    /// Derives the output formats from the input formats, or throws if it cannot take them.
    func configure(inputs: [InputFormat]) throws -> [MediaFormat]
    /// Called once after the whole graph is configured, before data flows (open files here).
    func start() throws
    /// Handles one buffer arriving on input `input` (an index into the configured inputs).
    /// Take ownership (`consume`) to write in place when nobody else holds the buffer.
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws
    /// One input's stream has ended (before `finish`, which comes once all have).
    func inputEnded(_ input: Int) throws
    /// Every input has ended: emit what is still delayed, finalize output.
    func finish(output: NodeOutput) throws
    /// The graph stopped on an error elsewhere or here: release, remove partial output.
    func abort()
    /// Problems that do not stop the graph, found while configuring (`validate` shows them).
    var validationWarnings: [String] { get }
    /// Problems met while running that did not stop the graph (skipped undecodable packets …),
    /// read once the run has ended; the CLI prints them as warnings.
    var runWarnings: [String] { get }
    /// What happened while running that is expected and harmless but worth saying (a trim's
    /// lead-in that did not decode …), read once the run has ended; the CLI prints them as notes.
    var runNotes: [String] { get }
    /// Multi-input nodes (muxers) name the input they need next to keep their output in order,
    /// or nil for whichever has data.
    func preferredInput() -> Int?
}

extension MediaNode {
    public func start() throws {}
    public func inputEnded(_ input: Int) throws {}
    public func finish(output: NodeOutput) throws {}
    public func abort() {}
    public func preferredInput() -> Int? { nil }
    public var validationWarnings: [String] { [] }
    public var runWarnings: [String] { [] }
    public var runNotes: [String] { [] }
}

/// A node without inputs that produces buffers in a loop on its own thread.
public protocol SourceNode: MediaNode {
    /// Emits zero or more buffers; returns false when there are no more.
    func produce(output: NodeOutput) throws -> Bool
    /// Frames (or buffers) this source will produce, if known: the progress line shows an ETA.
    var expectedCount: Int? { get }
    /// Buffers it will send on these output ports, if known (the progress line counts the video
    /// ports); by default `expectedCount`, right for a source with one output.
    func expectedCount(onPorts ports: [Int]) -> Int?
    /// Why this source never ends on its own ("has no 'duration'"), or nil when it ends:
    /// validation warns when nothing after it ends the run either.
    var endlessBecause: String? { get }
}

extension SourceNode {
    public var expectedCount: Int? { nil }
    public func expectedCount(onPorts ports: [Int]) -> Int? { expectedCount }
    public var endlessBecause: String? { nil }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {}
}

/// A node whose output ports are known only once it has opened its input: a file source has one
/// port per stream. Its type declares the port families as repeatable outputs (`video` stands
/// for `video`, `video1`, …); the graph resolves a reference such as `in.video1`, `in.stream3`
/// or `in.audio_eng` with the created node, so a missing stream is a validation error that says
/// which streams exist.
public protocol DynamicOutputs: MediaNode {
    /// The outputs' names, in the order of the formats `configure` returned.
    var outputNames: [String] { get }
    /// The output a port reference names; throws a message listing what exists when none does.
    func outputIndex(named reference: String) throws -> Int
}

/// A source whose input may be readable only once (standard input, a pipe): creating it must not
/// read, because `validate` and `dot` create nodes too and must leave the input for a later run.
/// Until `readHeader` it reports a provisional format from `configure`. When a graph is
/// instantiated to run (`GraphPurpose.run`), the engine calls `readHeader` right after creating
/// the node and before `configure`, so the negotiated formats are the stream's own.
public protocol OnceReadableInput: SourceNode {
    /// Reads what decides the output formats (a stream header). Called at most once, before
    /// `configure`, and only when the graph is going to run.
    func readHeader() throws
}

/// A node whose inputs take only raw video (its type declares `.video` caps): it gets each frame
/// as a `VideoFrame`, not a buffer it must inspect. The engine's call (`process(_:input:output:)`)
/// is implemented here; validation and negotiation make sure only raw video arrives.
public protocol VideoNode: MediaNode {
    /// Handles one frame arriving on input `input`. Pass it on with `consume` to write in place.
    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws
}

extension VideoNode {
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let format = buffer.format
        guard let frame = VideoFrame(consume buffer) else {
            throw NodeFailure("input \(input) takes raw video, got \(format)")
        }
        try process(frame: frame, input: input, output: output)
    }
}
