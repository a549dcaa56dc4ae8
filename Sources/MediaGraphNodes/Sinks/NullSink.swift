import MediaGraphCore

/// `nullsink`: takes anything and drops it (for measuring, like ffmpeg's `-f null`).
public final class NullSink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "nullsink",
        doc: "Discards every buffer it receives.",
        category: .sink,
        inputs: [PortSpec("in", .any)],
        threading: .inline)   // it does no work, so a queue and a thread in front of it would only cost

    public init(setup: NodeSetup) throws {}
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {}
}
