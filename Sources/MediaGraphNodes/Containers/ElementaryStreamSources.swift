import MediaGraphCore
import MediaGraphMP4

/// The input file of the elementary-stream sources.
let elementaryInputPath = Param<String>.requiredPath("path", role: .input, doc: "input file")

/// `h264src`: an Annex B H.264 file as packets, with presentation order derived from the stream
/// (picture order count) and the frame rate from its VUI timing or the `rate` param — so it can be
/// put into MP4 without re-encoding, frame-accurately.
public final class H264Source: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "h264src", doc: "Reads an Annex B H.264 elementary stream; pts from picture order count, rate from VUI or the rate param.",
        category: .source,
        outputs: [PortSpec("out", .encodedVideo([.h264]), doc: "H.264 access units")],
        params: ParamSpec.list(elementaryInputPath, rateParam))
    static let rateParam = Param<Rational?>.rational("rate", doc: "frame rate when the stream has no VUI timing (overrides it)")

    let reader: H264StreamReader
    var pending: TimedAccessUnit?
    let format: EncodedVideoFormat
    let configuration: CodecConfiguration

    public init(setup: NodeSetup) throws {
        let p = setup.params
        reader = try H264StreamReader(path: p[elementaryInputPath], frameRate: p[Self.rateParam])
        guard let first = try reader.next() else { throw NodeFailure("'\(p[elementaryInputPath])' holds no H.264 access unit") }
        pending = first
        let t = reader.timer
        guard let c = t.configuration else { throw NodeFailure("'\(p[elementaryInputPath])': no SPS/PPS before the first access unit") }
        configuration = .h264(c)
        let rate = t.frameRate ?? Rational(25, 1)
        format = EncodedVideoFormat(codec: .h264, width: t.width, height: t.height, frameRate: rate, timeBase: Rational(1, t.timescale))
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.encodedVideo(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        guard let au = try pending ?? reader.next() else { return false }
        pending = nil
        let b = SampleBuffer(bytes: au.data, format: .encodedVideo(format), pts: au.pts, dts: au.dts, duration: au.duration,
                             timeBase: format.timeBase, flags: au.isKeyFrame ? .keyFrame : [],
                             codecConfiguration: configuration)
        try output.send(consume b)
        return true
    }
}

/// `ivfsrc`: VP8/VP9 packets from an IVF file.
public final class IVFSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "ivfsrc", doc: "Reads VP8/VP9 packets from an IVF file.", category: .source,
        outputs: [PortSpec("out", .encodedVideo([.vp8, .vp9]))],
        params: ParamSpec.list(elementaryInputPath, rateParam))
    static let rateParam = Param<Rational?>.rational("rate", doc: "nominal frame rate (default: from the IVF time base)")

    let reader: IVFReader
    let format: EncodedVideoFormat
    /// Ticks of the time base per frame at the nominal rate: the last frame's duration.
    let nominal: Int64
    var last: (pts: Int64, data: [UInt8], key: Bool, offset: Int64)?

    public init(setup: NodeSetup) throws {
        reader = try IVFReader(path: setup.params[elementaryInputPath])
        let rate = setup.params[Self.rateParam] ?? reader.timeBase.inverse ?? Rational(25, 1)
        format = EncodedVideoFormat(codec: reader.codec, width: reader.width, height: reader.height, frameRate: rate, timeBase: reader.timeBase)
        // In floating point and clamped: a rate param of any size gives a 32-bit duration.
        let ticks = (1 / rate.doubleValue / reader.timeBase.doubleValue).rounded()
        nominal = ticks.isFinite ? Int64(min(max(ticks, 1), Double(UInt32.max))) : 1
    }

    public var expectedCount: Int? { reader.declaredFrameCount > 0 ? reader.declaredFrameCount : nil }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.encodedVideo(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        // a frame's duration is known once the next frame's pts is: hold one back
        let next = try reader.next()
        if let l = last {
            var duration = nominal
            if let n = next {
                // pts are any 64-bit values in the file: their difference may not fit.
                let (d, overflow) = n.pts.subtractingReportingOverflow(l.pts)
                if overflow {
                    throw NodeFailure("'\(reader.path)': byte \(n.offset): frame pts \(n.pts) after pts \(l.pts) (byte \(l.offset)): the difference does not fit 64 bits")
                }
                duration = d
            }
            let b = SampleBuffer(bytes: l.data, format: .encodedVideo(format), pts: l.pts, duration: max(1, duration),
                                 timeBase: format.timeBase, flags: l.key ? .keyFrame : [],
                                 codecConfiguration: .vpx(reader.configuration))
            try output.send(consume b)
        }
        guard let n = next else { return false }
        last = (n.pts, n.data, n.isKeyFrame, n.offset)
        return true
    }
}

/// `adtssrc`: AAC frames from an ADTS file.
public final class ADTSSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "adtssrc", doc: "Reads AAC frames from an ADTS (.aac) file.", category: .source,
        outputs: [PortSpec("out", .encodedAudio([.aac]))],
        params: [elementaryInputPath.spec])

    let reader: ADTSReader
    let format: EncodedAudioFormat

    public init(setup: NodeSetup) throws {
        reader = try ADTSReader(path: setup.params[elementaryInputPath])
        format = EncodedAudioFormat(codec: .aac, sampleRate: reader.configuration.sampleRate, channels: reader.configuration.channels)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.encodedAudio(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        guard let f = try reader.next() else { return false }
        let b = SampleBuffer(bytes: f.data, format: .encodedAudio(format), pts: f.pts, duration: 1024,
                             timeBase: Rational(1, Int64(format.sampleRate)), flags: .keyFrame,
                             codecConfiguration: .aac(reader.configuration))
        try output.send(consume b)
        return true
    }
}
