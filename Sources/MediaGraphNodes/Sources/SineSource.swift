import Foundation
import MediaGraphCore

/// `sine`: a sine tone, float planar, in 1024-sample buffers (the last one shorter).
public final class SineSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "sine", doc: "A sine tone (float planar audio).", category: .source,
        outputs: [PortSpec("out", .audio([.f32planar]), doc: "raw audio")],
        params: ParamSpec.list(frequencyParam, amplitudeParam, sampleRateParam, channelsParam, secondsParam, samplesParam, chunkParam))
    static let frequencyParam = Param<Double>("frequency", 1...96000, default: 440, doc: "tone frequency in Hz")
    static let amplitudeParam = Param<Double>("amplitude", 0...1, default: 0.5, doc: "peak amplitude (1 = full scale)")
    static let sampleRateParam = Param<Int>("sample-rate", 8000...192000, default: 48000, doc: "samples per second")
    static let channelsParam = Param<Int>("channels", 1...8, default: 2, doc: "channels (all carry the tone)")
    static let secondsParam = Param<Double>("seconds", 0...86400, default: 10, doc: "duration in seconds (unless samples is given)")
    static let samplesParam = Param<Int?>("samples", 0...Int(Int32.max), doc: "duration in samples (overrides seconds)")
    static let chunkParam = Param<Int>("chunk", 1...65536, default: 1024, doc: "samples per buffer")

    let frequency: Double, amplitude: Double
    let format: AudioFormat
    let total: Int
    let chunk: Int
    var position = 0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        frequency = p[Self.frequencyParam]
        amplitude = p[Self.amplitudeParam]
        format = AudioFormat(sampleFormat: .f32planar, sampleRate: p[Self.sampleRateParam], channels: p[Self.channelsParam])
        total = p[Self.samplesParam] ?? Int((p[Self.secondsParam] * Double(format.sampleRate)).rounded())
        chunk = p[Self.chunkParam]
    }

    public var expectedCount: Int? { (total + chunk - 1) / chunk }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.audio(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        guard position < total else { return false }
        let n = min(chunk, total - position)
        var bytes = [UInt8](repeating: 0, count: n * format.channels * 4)
        bytes.withUnsafeMutableBytes { raw in
            let f = raw.baseAddress!.assumingMemoryBound(to: Float.self)
            let w = 2 * Double.pi * frequency / Double(format.sampleRate)
            for i in 0..<n { f[i] = Float(amplitude * sin(w * Double(position + i))) }
            for c in 1..<max(1, format.channels) { (f + c * n).update(from: f, count: n) }
        }
        let b = SampleBuffer(bytes: bytes, format: .audio(format), pts: Int64(position), duration: Int64(n),
                             timeBase: Rational(1, Int64(format.sampleRate)), flags: .keyFrame, sampleCount: n)
        position += n
        try output.send(consume b)
        return true
    }
}
