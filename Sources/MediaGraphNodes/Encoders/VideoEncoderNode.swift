import MediaGraphCodecs
import MediaGraphCore

/// The shared base of the video encoder nodes: yuv420p frames in, packets out, with pts, dts,
/// duration, key-frame flag and the codec configuration a muxer needs on every packet. Settings
/// are checked at validation (`configure`); the library opens in `start`; `finish` drains every
/// delayed frame.
open class VideoEncoderNode: MediaNode {
    var encoder: (any VideoEncoder)?
    var configuration: CodecConfiguration?
    var input: VideoFormat!
    var outputFormat: EncodedVideoFormat!

    public required init(setup: NodeSetup) throws {}

    /// The codec this node produces.
    open var codec: Codec { .h264 }
    /// Checks the settings for a frame size without opening the library.
    open func validate(width: Int, height: Int) throws {}
    /// Opens the encoder.
    open func open(width: Int, height: Int, timeBase: Rational, frameRate: Rational) throws -> any VideoEncoder {
        throw NodeFailure("no encoder")
    }

    /// Declaration shared by the video encoders.
    public static func encoderInfo(_ name: String, _ doc: String, codec: Codec, params: [ParamSpec]) -> NodeTypeInfo {
        NodeTypeInfo(name: name, doc: doc, category: .encoder,
                     inputs: [PortSpec("in", .video([.yuv420p]), doc: "raw video (converted upstream when needed)")],
                     outputs: [PortSpec("out", .encodedVideo([codec]), doc: "\(codec) packets")],
                     params: params)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        input = v
        do { try validate(width: v.width, height: v.height) } catch { throw NodeFailure("\(error)") }
        // what decoding the output gives back: the input's picture, colour, aspect, rotation and tags
        outputFormat = EncodedVideoFormat(codec: codec, raw: v, timeBase: v.timeBase)
        return [.encodedVideo(outputFormat)]
    }

    public func start() throws {
        let e = try open(width: input.width, height: input.height, timeBase: input.timeBase, frameRate: input.frameRate)
        encoder = e
        configuration = e.configuration
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard let encoder, let planes = buffer.planes else { return }
        try emit(encoder.encode(planes, pts: buffer.pts), output: output)
    }

    public func finish(output: NodeOutput) throws {
        guard let encoder else { return }
        try emit(encoder.flush(), output: output)
    }

    private func emit(_ packets: [EncodedPacket], output: NodeOutput) throws {
        for p in packets {
            let b = SampleBuffer(bytes: p.data, format: .encodedVideo(outputFormat), pts: p.pts, dts: p.dts, duration: p.duration,
                                 timeBase: outputFormat.timeBase, flags: p.isKeyFrame ? .keyFrame : [])
            b.codecConfiguration = configuration
            try output.send(consume b)
        }
    }

    public func abort() { encoder = nil }
}
