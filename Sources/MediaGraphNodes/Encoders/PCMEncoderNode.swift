import MediaGraphCore
import MediaGraphMP4

/// `pcm`: raw audio as uncompressed sound packets (ffmpeg's `-c:a pcm_s16le`, `pcm_s24le`, …),
/// what a QuickTime movie stores. The graph converts the input to the sample format the codec
/// is made from (as ffmpeg's pcm encoders take s16, s32, flt, dbl or u8 interleaved); the node
/// then only lays the bytes out: 24-bit samples are the top three bytes of s32, as ffmpeg's
/// pcm_s24le writes them, and big-endian codecs swap each sample's bytes.
public final class PCMEncoderNode: RegisteredNode {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
            name: "pcm", doc: "Uncompressed sound packets (ffmpeg's -c:a pcm_s16le, pcm_s24le, …) from raw audio, for a .mov: the input is converted to the codec's sample format as ffmpeg converts it; packets keep the input's chunking and timestamps.",
            category: .encoder,
            inputs: [PortSpec("in", .audio(SampleFormat.allCases), doc: "raw audio (converted to the codec's sample format where it differs)")],
            outputs: [PortSpec("out", .encodedAudio(layouts.map(\.codec)), doc: "PCM packets of whole sample frames")],
            params: ParamSpec.list(codecParam))
        info.inputShapeFor = { params, _, format in
            guard let a = format.audio, let layout = layout(params[codecParam]), a.sampleFormat != layout.from else { return nil }
            return FormatShape(sampleFormat: layout.from)
        }
        return info
    }()

    /// How each codec's bytes are made: from which interleaved sample format, keeping which
    /// bytes of each little-endian sample, in which order.
    struct Layout: Sendable {
        let codec: Codec
        let from: SampleFormat
        /// Bytes of each input sample kept, counted from its least significant one.
        let keep: Range<Int>
        let bigEndian: Bool
        var bytesPerSample: Int { keep.count }
    }

    static let layouts: [Layout] = [
        Layout(codec: Codec("pcm_s16le", kind: .audio), from: .s16, keep: 0..<2, bigEndian: false),
        Layout(codec: Codec("pcm_s16be", kind: .audio), from: .s16, keep: 0..<2, bigEndian: true),
        Layout(codec: Codec("pcm_s24le", kind: .audio), from: .s32, keep: 1..<4, bigEndian: false),
        Layout(codec: Codec("pcm_s32le", kind: .audio), from: .s32, keep: 0..<4, bigEndian: false),
        Layout(codec: Codec("pcm_f32le", kind: .audio), from: .f32, keep: 0..<4, bigEndian: false),
        Layout(codec: Codec("pcm_f64le", kind: .audio), from: .f64, keep: 0..<8, bigEndian: false),
        Layout(codec: Codec("pcm_u8", kind: .audio), from: .u8, keep: 0..<1, bigEndian: false),
    ]
    static func layout(_ name: String) -> Layout? { layouts.first { $0.codec.rawValue == name } }

    static let codecParam = Param<String>("codec", oneOf: layouts.map(\.codec.rawValue), default: "pcm_s16le",
                                          doc: "the PCM codec, as ffmpeg's -c:a names it")

    let layout: Layout
    var input: AudioFormat!
    var outputFormat: EncodedAudioFormat!
    var configuration: CodecConfiguration { .other(layout.codec, extradata: []) }

    public init(setup: NodeSetup) throws {
        // the param's choices are the layouts' names
        layout = Self.layout(setup.params[Self.codecParam]) ?? Self.layouts[0]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio, a.sampleFormat == layout.from else {
            throw NodeFailure("expected raw \(layout.from.ffmpegName) audio for \(layout.codec), found \(inputs[0].format)")
        }
        input = a
        // what decoding gives back: the codec's own sample format (s24 decodes to s32)
        outputFormat = EncodedAudioFormat(codec: layout.codec, raw: a,
                                          coding: AudioCodingParameters(blockAlign: layout.bytesPerSample * a.channels,
                                                                        codedBitsPerSample: layout.bytesPerSample * 8))
        return [.encodedAudio(outputFormat)]
    }

    public func process(_ buffer: consuming SampleBuffer, input index: Int, output: NodeOutput) throws {
        let n = buffer.sampleCount
        guard n > 0 else { return }
        let rate = Int64(input.sampleRate)
        guard let pts = MediaTime.rescale(buffer.pts, timeBase: buffer.timeBase, to: rate) else {
            throw NodeFailure("buffer at pts \(buffer.pts) (time base \(buffer.timeBase)) does not fit 64 bits at \(rate) Hz")
        }
        let bytes = buffer.withUnsafeBytes { pack($0) }
        let b = SampleBuffer(bytes: bytes, format: .encodedAudio(outputFormat), pts: pts, dts: pts, duration: Int64(n),
                             timeBase: Rational(1, rate), flags: .keyFrame, codecConfiguration: configuration)
        try output.send(consume b)
    }

    /// The codec's bytes for interleaved samples of `layout.from`.
    func pack(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
        let width = layout.from.bytesPerSample, keep = layout.keep
        if keep.count == width && !layout.bigEndian { return Array(raw) }
        let count = raw.count / width
        var out = [UInt8](repeating: 0, count: count * keep.count)
        out.withUnsafeMutableBufferPointer { o in
            var k = 0
            for i in 0..<count {
                let base = i * width
                if layout.bigEndian {
                    for j in keep.reversed() { o[k] = raw[base + j]; k += 1 }
                } else {
                    for j in keep { o[k] = raw[base + j]; k += 1 }
                }
            }
        }
        return out
    }

    public func finish(output: NodeOutput) throws {}
}
