import MediaGraphCore

/// `nullsink`: takes anything and drops it (for measuring, like ffmpeg's `-f null`).
public final class NullSink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "nullsink",
        doc: "Discards every buffer it receives.",
        category: .sink,
        inputs: [PortSpec("in", .any)])

    public init(setup: NodeSetup) throws {}
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {}
}
