/// What a node is for, used by `mediagraph nodes` to group types.
public enum NodeCategory: String, Sendable, CaseIterable {
    case source, filter, encoder, sink, converter
}

/// How the scheduler places a node: on its upstream's thread, or behind a queue on its own.
public enum NodeThreading: Sendable {
    /// Cheap per-buffer work (filters): runs on the thread of whatever feeds it.
    case inline
    /// Slow or blocking work (encoders, sinks, muxers): a bounded queue and a thread of its own.
    case ownThread
}

/// Everything a node type declares once: name, documentation, ports and params. Validation,
/// `mediagraph nodes`, the JSON Schema and Docs/nodes.md are all generated from it.
public struct NodeTypeInfo: Sendable {
    public var name: String
    public var doc: String
    public var category: NodeCategory
    public var inputs: [PortSpec]
    public var outputs: [PortSpec]
    public var params: [ParamSpec]
    public var threading: NodeThreading
    /// "built-in", or the plugin file the type came from.
    public var origin: String
    /// Inputs that must share one shape (size, sample rate …): the graph inserts adapters in
    /// front of those that differ from the first (`InputMatching`).
    public var matchedInputs: InputMatching = []
    /// When the rule depends on the node's params (`stack`'s layout): it, instead of
    /// `matchedInputs`.
    public var matchedInputsFor: (@Sendable (ParamValues) -> InputMatching)?

    /// The shape an input must be given when the format arriving is not one the node can take,
    /// though its caps accept it (an encoder's sample rates): the graph inserts an adapter
    /// (`resample`) that makes it so, as ffmpeg's format negotiation does. Called with the input's
    /// name and the format that reaches it; nil when the node takes that format as it is.
    public var inputShape: (@Sendable (_ input: String, _ format: MediaFormat) -> FormatShape?)?
    /// When the shape depends on the node's params (`wavsink`'s sample format): it, instead of
    /// `inputShape`.
    public var inputShapeFor: (@Sendable (_ params: ParamValues, _ input: String, _ format: MediaFormat) -> FormatShape?)?

    /// The shape input `input` of a node with these params must be given (see `inputShape`).
    public func inputShape(for params: ParamValues, input: String, format: MediaFormat) -> FormatShape? {
        if let inputShapeFor { return inputShapeFor(params, input, format) }
        return inputShape?(input, format)
    }

    /// The inputs that must share one shape for a node with these params.
    public func matchedInputs(for params: ParamValues) -> InputMatching { matchedInputsFor?(params) ?? matchedInputs }

    public init(name: String, doc: String, category: NodeCategory, inputs: [PortSpec] = [],
                outputs: [PortSpec] = [], params: [ParamSpec] = [], threading: NodeThreading? = nil,
                origin: String = "built-in",
                inputShape: (@Sendable (_ input: String, _ format: MediaFormat) -> FormatShape?)? = nil) {
        self.name = name
        self.doc = doc
        self.category = category
        self.inputs = inputs
        self.outputs = outputs
        self.params = params
        self.threading = threading ?? ((category == .filter || category == .converter) ? .inline : .ownThread)
        self.origin = origin
        self.inputShape = inputShape
    }

    /// The input port spec a reference such as `video1` names.
    public func inputSpec(named ref: String) -> PortSpec? { inputs.first { $0.matches(ref) } }

    /// True when the outputs are families whose members the created node names (`DynamicOutputs`).
    public var hasDynamicOutputs: Bool { outputs.contains { $0.repeatable } }
}

/// What a node gets when it is created.
public struct NodeSetup: Sendable {
    /// The node's id in the graph.
    public var id: String
    public var params: ParamValues
    /// Names of the input ports that are connected, in the order `process` will index them.
    public var connectedInputs: [String]
    /// Set when the run should stop early (SIGINT): sources check it and end their stream.
    public var stop: StopFlag
    /// The number of the first video frame the node sees (`GraphSpec.firstFrameNumber`): what a
    /// node that counts frames (`n`) counts from.
    public var firstFrameNumber: Int

    /// Creating a node must not consume input that can be read only once (standard input):
    /// `validate` and `dot` create nodes too. Such a source adopts `OnceReadableInput`.
    public init(id: String, params: ParamValues, connectedInputs: [String] = [], stop: StopFlag = StopFlag(), firstFrameNumber: Int = 0) {
        self.id = id
        self.params = params
        self.connectedInputs = connectedInputs
        self.stop = stop
        self.firstFrameNumber = firstFrameNumber
    }
}

/// A node type that can be registered with one line: its declaration plus an initializer.
public protocol RegisteredNode: MediaNode {
    static var typeInfo: NodeTypeInfo { get }
    init(setup: NodeSetup) throws
}
