import MediaGraphCodecs
import MediaGraphCore

/// The shared base of the video encoder nodes: yuv420p (or, where the codec takes it,
/// yuv420p10le) frames in, packets out, with pts, dts, duration, key-frame flag and the codec
/// configuration a muxer needs on every packet. The input's colour, aspect, rotation and tags
/// travel on as the packets' raw format (the encoder writes colour and aspect into the
/// bitstream, the muxer into the file). Settings are checked at validation (`configure`); the
/// library opens in `start`; `finish` drains every delayed frame.
open class VideoEncoderNode: MediaNode {
    var encoder: (any VideoEncoder)?
    var configuration: CodecConfiguration?
    var input: VideoFormat!
    var outputFormat: EncodedVideoFormat!

    public required init(setup: NodeSetup) throws {}

    /// The codec this node produces.
    open var codec: Codec { .h264 }
    /// Checks the settings for an input format without opening the library.
    open func validate(format: VideoFormat) throws {}
    /// The four-character code naming the coding variant of frames of `format` (ProRes: its
    /// profile), for the output format; nil where the packets say it themselves.
    open func codecTag(for format: VideoFormat) -> String? { nil }
    /// Opens the encoder for frames of `format` with timestamps in `timeBase`.
    open func open(format: VideoFormat, timeBase: Rational) throws -> any VideoEncoder {
        throw NodeFailure("no encoder")
    }

    /// Declaration shared by the video encoders; `pixelFormats` lists 8-bit first, so an 8-bit
    /// stream of another layout is converted to yuv420p as before.
    public static func encoderInfo(_ name: String, _ doc: String, codec: Codec, pixelFormats: [PixelFormat] = [.yuv420p],
                                   params: [ParamSpec]) -> NodeTypeInfo {
        NodeTypeInfo(name: name, doc: doc, category: .encoder,
                     inputs: [PortSpec("in", .video(pixelFormats), doc: "raw video (converted upstream when needed)")],
                     outputs: [PortSpec("out", .encodedVideo([codec]), doc: "\(codec) packets")],
                     params: params)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        input = v
        do { try validate(format: v) } catch { throw NodeFailure("\(error)") }
        // what decoding the output gives back: the input's picture, colour, aspect, rotation and tags
        outputFormat = EncodedVideoFormat(codec: codec, raw: v, timeBase: v.timeBase, codecTag: codecTag(for: v))
        return [.encodedVideo(outputFormat)]
    }

    public func start() throws {
        let e = try open(format: input, timeBase: input.timeBase)
        encoder = e
        configuration = e.configuration
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard let encoder, let planes = buffer.planes else { return }
        // a duration counts only in the encoder's time base (the format's)
        let own = buffer.timeBase == self.input.timeBase ? max(0, buffer.duration) : 0
        try emit(encoder.encode(planes, pts: buffer.pts, duration: own), output: output)
    }

    public func finish(output: NodeOutput) throws {
        guard let encoder else { return }
        try emit(encoder.flush(), output: output)
    }

    private func emit(_ packets: [EncodedPacket], output: NodeOutput) throws {
        for p in packets {
            let b = SampleBuffer(bytes: p.data, format: .encodedVideo(outputFormat), pts: p.pts, dts: p.dts, duration: p.duration,
                                 timeBase: outputFormat.timeBase, flags: p.isKeyFrame ? .keyFrame : [],
                                 codecConfiguration: configuration)
            try output.send(consume b)
        }
    }

    public func abort() { encoder = nil }
}
