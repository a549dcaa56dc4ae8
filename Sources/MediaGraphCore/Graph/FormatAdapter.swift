/// How the graph bridges an edge whose formats do not meet: a node type it may insert there, as
/// ffmpeg inserts scale and aresample filters and GStreamer's decodebin plugs decoders — but
/// visibly (`validate`, `dot` and the log show every inserted node). The node modules register
/// their adapters (decode, convert, resample); the core knows none by name.
public struct FormatAdapter: Sendable {
    /// The node type inserted (it has one input and one output port).
    public var nodeType: String
    /// Short word for inserted node ids: `auto_<label>_…`.
    public var label: String
    /// True when one inserted node serves every consumer of the same output (a decoder: each
    /// stream is decoded once however many branches use it); false for one per consumer input.
    public var sharedPerOutput: Bool
    /// The params for a node that turns `format` into something closer to what `caps` accepts,
    /// or nil when this adapter does not apply to that pair. `producer` holds the params of the
    /// node whose output is adapted (a decoder takes a file source's error policy from it).
    public var params: @Sendable (_ format: MediaFormat, _ caps: FormatCaps, _ producer: ParamValues) -> [String: JSONValue]?
    /// The params for a node that gives `format` the `shape` a node's matched inputs must share
    /// (`InputMatching`: a size, a sample rate), or nil when this adapter cannot.
    public var reshape: (@Sendable (_ format: MediaFormat, _ shape: FormatShape) -> [String: JSONValue]?)?

    public init(nodeType: String, label: String, sharedPerOutput: Bool = false,
                params: @escaping @Sendable (_ format: MediaFormat, _ caps: FormatCaps, _ producer: ParamValues) -> [String: JSONValue]?,
                reshape: (@Sendable (_ format: MediaFormat, _ shape: FormatShape) -> [String: JSONValue]?)? = nil) {
        self.nodeType = nodeType
        self.label = label
        self.sharedPerOutput = sharedPerOutput
        self.params = params
        self.reshape = reshape
    }
}
