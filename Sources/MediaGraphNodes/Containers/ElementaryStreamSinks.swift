import MediaGraphCore
import MediaGraphMP4

/// `h264sink` / `hevcsink`: an Annex B elementary stream (parameter sets before key frames).
public class AnnexBSink: RegisteredNode {
    public class var codec: Codec { .h264 }
    public class var typeInfo: NodeTypeInfo {
        NodeTypeInfo(name: "\(codec)sink", doc: "Writes an Annex B \(codec == .h264 ? "H.264" : "HEVC") elementary stream (parameter sets before key frames).",
                     category: .sink, inputs: [PortSpec("in", .encodedVideo([codec]))],
                     params: [.path("path", role: .output, required: true, doc: "output file")])
    }

    let path: String
    var writer: AnnexBWriter?

    public required init(setup: NodeSetup) throws { path = setup.params.path("path")! }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    public func start() throws {
        try OutputDirectory.prepare(for: path)
        writer = try AnnexBWriter(path: path, codec: Self.codec)
    }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        try writer!.write(buffer.bytes, isKeyFrame: buffer.flags.contains(.keyFrame), configuration: buffer.codecConfiguration)
    }
    public func finish(output: NodeOutput) throws { try writer?.finish() }
    /// Dropping the writer discards its unfinished file.
    public func abort() { writer = nil }
}

public final class H264Sink: AnnexBSink {}
public final class HEVCSink: AnnexBSink {
    override public class var codec: Codec { .hevc }
}

/// `ivfsink`: VP8/VP9 in an IVF file.
public final class IVFSink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "ivfsink", doc: "Writes VP8 or VP9 packets to an IVF file.", category: .sink,
        inputs: [PortSpec("in", .encodedVideo([.vp8, .vp9]))],
        params: [.path("path", role: .output, required: true, doc: "output file")])

    let path: String
    var format: EncodedVideoFormat!
    var writer: IVFWriter?

    public init(setup: NodeSetup) throws { path = setup.params.path("path")! }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard case .encodedVideo(let f) = inputs[0].format else { throw NodeFailure("expected VP8/VP9 packets") }
        format = f
        return []
    }
    public func start() throws {
        try OutputDirectory.prepare(for: path)
        writer = try IVFWriter(path: path, codec: format.codec, width: format.width, height: format.height, timeBase: format.timeBase)
    }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        try writer!.write(buffer.bytes, pts: buffer.pts)
    }
    public func finish(output: NodeOutput) throws { try writer?.finish() }
    /// Dropping the writer discards its unfinished file.
    public func abort() { writer = nil }
}

/// `adtssink`: AAC in ADTS framing.
public final class ADTSSink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "adtssink", doc: "Writes AAC packets as an ADTS stream (.aac).", category: .sink,
        inputs: [PortSpec("in", .encodedAudio([.aac]))],
        params: [.path("path", role: .output, required: true, doc: "output file")])

    let path: String
    var writer: ADTSWriter?

    public init(setup: NodeSetup) throws { path = setup.params.path("path")! }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    public func start() throws { try OutputDirectory.prepare(for: path) }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        if writer == nil {
            guard case .aac(let c)? = buffer.codecConfiguration else { throw NodeFailure("the AAC packets carry no AudioSpecificConfig") }
            writer = try ADTSWriter(path: path, configuration: c)
        }
        try writer!.write(buffer.bytes)
    }
    public func finish(output: NodeOutput) throws {
        guard let writer else { throw NodeFailure("no AAC packets arrived; nothing to write") }
        try writer.finish()
    }
    /// Dropping the writer discards its unfinished file.
    public func abort() { writer = nil }
}
