import MediaGraphCodecs
import MediaGraphCore

/// `resample`: sample format, rate and channel layout conversion with libswresample (as ffmpeg's
/// aresample). The graph inserts it where raw audio's sample format does not meet what an input
/// takes; by hand it changes rate and channels. Timestamps stay exact: counted in samples of the
/// output rate from the first input buffer's time.
public final class ResampleNode: RegisteredNode {
    static let layoutNames = ["mono", "stereo", "2.1", "3.0", "quad", "4.0", "5.0", "5.1", "6.1", "7.1"]

    public static let typeInfo = NodeTypeInfo(
        name: "resample",
        doc: "Converts sample format, rate and channels of raw audio with libswresample (the graph inserts it where sample formats differ).",
        category: .converter,
        inputs: [PortSpec("in", .audio(SampleFormat.allCases), doc: "raw audio")],
        outputs: [PortSpec("out", .audio(SampleFormat.allCases), doc: "raw audio in the requested format")],
        params: ParamSpec.list(formatParam, rateParam, channelsParam, layoutParam))
    static let formatParam = Param<SampleFormat?>("format", choices: SampleFormat.allCases, doc: "output sample format (default: the input's)")
    static let rateParam = Param<Int?>("rate", 1...768_000, doc: "output sample rate in Hz (default: the input's)")
    static let channelsParam = Param<Int?>("channels", 1...64, doc: "output channel count, in libavutil's default layout for it (default: the input's)")
    static let layoutParam = Param<String?>("layout", oneOf: layoutNames, doc: "output channel layout (sets the channel count)")

    /// Where raw audio's sample format does not meet, convert to the input's first choice.
    public static let adapter = FormatAdapter(nodeType: "resample", label: "resample") { format, caps, _ in
        guard case .audio(let have) = format, case .audio(let want) = caps, let first = want.first,
              !want.contains(have.sampleFormat) else { return nil }
        return ["format": .string(first.rawValue, nil)]
    } reshape: { format, shape in
        // where a node needs its audio inputs in one format, rate and channel count (amix, concat)
        guard let a = format.audio, !shape.isVideoShape else { return nil }
        var p: [String: JSONValue] = [:]
        if let f = shape.sampleFormat, f != a.sampleFormat { p["format"] = .string(f.rawValue, nil) }
        if let r = shape.sampleRate, r != a.sampleRate { p["rate"] = .number(Double(r), nil) }
        if let c = shape.channels, c != a.channels { p["channels"] = .number(Double(c), nil) }
        return p
    }

    let format: SampleFormat?
    let rate: Int?
    let channels: Int?
    let layout: ChannelLayout?
    var resampler: AudioResampler?
    var outputFormat: AudioFormat!
    /// Output time: samples of the output rate since `anchor`.
    var anchor: Int64?
    var produced: Int64 = 0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        format = p[Self.formatParam]
        rate = p[Self.rateParam]
        if let name = p[Self.layoutParam] {
            guard let l = AudioResampler.layout(named: name) else { throw NodeFailure("param 'layout': libavutil knows no layout '\(name)'") }
            if let c = p[Self.channelsParam], c != l.mask.nonzeroBitCount {
                throw NodeFailure("param 'channels': \(c) contradicts param 'layout' \"\(name)\" of \(l.mask.nonzeroBitCount) channels")
            }
            layout = l
            channels = l.mask.nonzeroBitCount
        } else {
            channels = p[Self.channelsParam]
            layout = channels.map { AudioResampler.defaultLayout(channels: $0) }
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let input = inputs[0].format.audio else { throw NodeFailure("expected raw audio, found \(inputs[0].format)") }
        var out = input
        if let format { out.sampleFormat = format }
        if let rate { out.sampleRate = rate }
        if let channels, channels != input.channels || layout != nil {
            out.channels = channels
            out.channelLayout = layout ?? .unspecified
        }
        outputFormat = out
        if out != input {
            do { resampler = try AudioResampler(from: input, to: out) } catch let e as CodecError { throw NodeFailure(e.message) }
        }
        return [.audio(out)]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard let resampler else { return try output.send(consume buffer) }
        let outRate = Int64(outputFormat.sampleRate)
        let stated = buffer.pts == SampleBuffer.noTime ? nil :
            MediaTime(value: buffer.pts, timescale: buffer.timeBase.den).converted(to: outRate * buffer.timeBase.num).value
        if anchor == nil { anchor = stated ?? 0 }
        if let stated, buffer.flags.contains(.discontinuity) {
            // a gap: the next new sample lands at the buffer's own time
            anchor = stated - resampler.delay - produced
        }
        let converted = try resampler.convert(bytes: buffer.bytes, sampleCount: buffer.sampleCount)
        try emit(converted, flags: buffer.flags.intersection([.discontinuity]), output: output)
    }

    public func finish(output: NodeOutput) throws {
        guard let resampler, anchor != nil else { return }
        try emit(try resampler.flush(), flags: [], output: output)
    }

    private func emit(_ c: (bytes: [UInt8], sampleCount: Int), flags: BufferFlags, output: NodeOutput) throws {
        guard c.sampleCount > 0, let anchor else { return }
        let b = SampleBuffer(bytes: c.bytes, format: .audio(outputFormat), pts: anchor + produced, duration: Int64(c.sampleCount),
                             timeBase: Rational(1, Int64(outputFormat.sampleRate)), flags: flags.union(.keyFrame), sampleCount: c.sampleCount)
        produced += Int64(c.sampleCount)
        try output.send(consume b)
    }
}
