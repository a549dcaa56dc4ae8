#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// `volume`: multiplies every sample by a gain (ffmpeg's `volume`, whose default float precision
/// multiplies each float sample by the gain as a float: the same bytes). Planar float in and out;
/// other formats get an inserted `resample`. In place when it holds the only reference.
public final class VolumeNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "volume",
        doc: "Changes loudness by a gain: 'volume' as a factor (0.5 halves the amplitude) or 'db' in decibels (ffmpeg's volume=0.5, volume=-6dB); float samples, no clipping.",
        category: .filter,
        inputs: [PortSpec("in", .audio([.f32planar]), doc: "raw audio (other formats are converted)")],
        outputs: [PortSpec("out", .audio([.f32planar]), doc: "the same audio times the gain")],
        params: ParamSpec.list(volumeParam, dbParam))
    static let volumeParam = Param<Double?>("volume", 0...100, doc: "gain as a factor of the amplitude (default 1; not with 'db')")
    static let dbParam = Param<Double?>("db", -100...40, doc: "gain in decibels: 20·log10 of the factor (-6 ≈ 0.5; not with 'volume')")

    let gain: Float
    var channels = 0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        switch (p[Self.volumeParam], p[Self.dbParam]) {
        case (let v?, nil): gain = Float(v)
        // as libavutil's expression parser reads "6dB": pow(10, x / 20) in double, then as float
        case (nil, let db?): gain = Float(pow(10, db / 20))
        case (nil, nil): gain = 1
        case (let v?, let db?): throw NodeFailure("params 'volume' and 'db' both say the gain (found \(v) and \(db) dB): give one")
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio, a.sampleFormat == .f32planar else { throw NodeFailure("expected planar float audio, found \(inputs[0].format)") }
        channels = a.channels
        return [inputs[0].format]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard gain != 1 else { return try output.send(consume buffer) }
        let values = buffer.sampleCount * channels
        var w = SampleBuffer.writable(consume buffer)
        // take the bytes out first, so the array is not shared while it is written
        var bytes = w.bytes
        w.bytes = []
        guard bytes.count >= values * 4 else { throw NodeFailure("a buffer of \(values) samples holds only \(bytes.count) bytes") }
        let g = gain
        bytes.withUnsafeMutableBytes { raw in
            let f = raw.bindMemory(to: Float.self)
            for i in 0..<values { f[i] *= g }
        }
        w.bytes = bytes
        try output.send(consume w)
    }
}
