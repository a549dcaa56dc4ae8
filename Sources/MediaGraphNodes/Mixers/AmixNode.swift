import MediaGraphCore

/// `amix`: mixes N audio inputs by sample time (`AudioSynchronizer`), each times its gain.
/// Inputs of another sample format, rate or channel count than input `in` meet through inserted
/// `resample` nodes. Clip-free by headroom, as ffmpeg's `amix` with `normalize=1`: the sum is
/// divided by the sum of the gains' magnitudes, so the output never exceeds the loudest input's
/// full scale. Unlike amix, the divisor stays the same when an input ends (no dropout
/// transition): the others do not get louder.
public final class AmixNode: RegisteredNode, WaitsForPreferredInput, EndsBeforeItsInputs {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
            name: "amix",
            doc: "Mixes audio inputs (in, in1, …) by sample time with per-input gains, divided by the sum of the gains so it never clips (ffmpeg's amix with normalize=1).",
            category: .filter,
            inputs: [PortSpec("in", .audio([.f32planar]), doc: "audio to mix (in, in1, …); other formats, rates and channel counts are resampled to in's", repeatable: true)],
            outputs: [PortSpec("out", .audio([.f32planar]), doc: "the mix, planar float")],
            params: ParamSpec.list(gainsParam, SyncParams.end, normalizeParam))
        info.matchedInputs = [.audioLayout]
        return info
    }()
    static let gainsParam = Param<[Double]?>.numbers("gains", count: 1...64, doc: "linear gain of each input, in input order (in, in1, …); default 1 each (0.5 is -6 dB)")
    static let normalizeParam = Param<Bool>("normalize", default: true, doc: "divide by the sum of the gains' magnitudes (clip-free); false: the plain weighted sum, which can pass full scale")

    let gains: [Float]
    let inputNames: [String]
    let end: SyncEnd
    var sync: AudioSynchronizer
    var format: AudioFormat!
    /// Mix buffer, one plane per channel, reused for every output buffer.
    var mix: [[Float]] = []
    static let chunk = 4096
    /// Most samples one input may hold ahead of the mix (about 87 s at 48 kHz): reached only when
    /// the engine must take from a full queue to avoid a deadlock (two inputs fed by one thread,
    /// one far ahead in time), so memory stays bounded whatever the input.
    static let maximumHeld = 1 << 22

    public init(setup: NodeSetup) throws {
        let p = setup.params
        let n = setup.connectedInputs.count
        inputNames = setup.connectedInputs
        let given = p[Self.gainsParam] ?? Array(repeating: 1, count: n)
        guard given.count == n else {
            throw NodeFailure("param 'gains': expected one gain per connected input (\(n): \(setup.connectedInputs.joined(separator: ", "))), found \(given.count)")
        }
        let total = given.reduce(0) { $0 + abs($1) }
        let scale = p[Self.normalizeParam] && total > 0 ? 1 / total : 1
        gains = given.map { Float($0 * scale) }
        end = p[SyncParams.end]
        sync = AudioSynchronizer(inputs: n, channels: 1, end: end)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        for i in inputs {
            guard let a = i.format.audio, a.sampleFormat == .f32planar else { throw NodeFailure("input '\(i.port)': expected planar float audio, found \(i.format)") }
            if let f = format, (f.sampleRate, f.channels) != (a.sampleRate, a.channels) {
                throw NodeFailure("input '\(i.port)' is \(a) but input '\(inputs[0].port)' is \(f)")
            }
            if format == nil { format = a }
        }
        sync = AudioSynchronizer(inputs: inputs.count, channels: format.channels, end: end)
        mix = Array(repeating: Array(repeating: 0, count: Self.chunk), count: format.channels)
        return [.audio(format)]
    }

    public func preferredInput() -> Int? { sync.behind }
    public var hasEnded: Bool { sync.isFinished }
    public func ends(whenInputsEnd inputsEnd: [Bool]) -> Bool { end.outputEnds(whenInputsEnd: inputsEnd) }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let count = buffer.sampleCount
        guard count > 0, !sync.isFinished else { return }
        let pts = buffer.pts == SampleBuffer.noTime ? nil :
            MediaTime.rescale(buffer.pts, timeBase: buffer.timeBase, to: Int64(format.sampleRate))
        let channels = format.channels
        try buffer.withUnsafeBytes { raw in
            guard raw.count >= count * channels * 4 else {
                throw NodeFailure("input '\(inputNames[input])': a buffer of \(count) samples × \(channels) channels holds only \(raw.count) bytes")
            }
            let floats = raw.bindMemory(to: Float.self)
            sync.append(input: input, pts: pts, count: count) { c in UnsafeBufferPointer(rebasing: floats[(c * count)..<((c + 1) * count)]) }
        }
        if sync.buffered(input) > Self.maximumHeld {
            throw NodeFailure("input '\(inputNames[input])' is more than \(Self.maximumHeld) samples ahead of the others; they are fed by one thread that cannot reach them (give them separate sources)")
        }
        try emit(output: output)
    }

    public func inputEnded(_ input: Int) throws { sync.inputEnded(input) }

    public func finish(output: NodeOutput) throws {
        for k in 0..<gains.count { sync.inputEnded(k) }
        try emit(output: output)
    }

    /// Mixes and sends whatever every input can give now, in buffers of up to 4096 samples.
    func emit(output: NodeOutput) throws {
        while true {
            let n = min(sync.ready(), Self.chunk)
            guard n > 0 else { return }
            let pts = sync.position
            let channels = format.channels
            for c in 0..<channels { mix[c].withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            sync.consume(n) { k, c, offset, data in
                let g = gains[k]
                mix[c].withUnsafeMutableBufferPointer { out in
                    for j in 0..<data.count { out[offset + j] += data[j] * g }
                }
            }
            var bytes = [UInt8](repeating: 0, count: n * channels * 4)
            bytes.withUnsafeMutableBytes { raw in
                for c in 0..<channels {
                    mix[c].withUnsafeBytes { src in
                        raw.baseAddress!.advanced(by: c * n * 4).copyMemory(from: src.baseAddress!, byteCount: n * 4)
                    }
                }
            }
            try output.send(SampleBuffer(bytes: bytes, format: .audio(format), pts: pts, duration: Int64(n),
                                         timeBase: Rational(1, Int64(format.sampleRate)), flags: .keyFrame, sampleCount: n))
        }
    }
}
