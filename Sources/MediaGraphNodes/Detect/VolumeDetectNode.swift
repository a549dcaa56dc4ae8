import Foundation
import MediaGraphCore

/// `volumedetect`: the mean and peak level of 16-bit audio and where its loudest samples lie, as
/// ffmpeg 5.1's `volumedetect` reports them (the same figures: a histogram of every sample value,
/// the mean power rounded to a whole value, decibels of full scale, the loudest whole-dB bins
/// until a thousandth of the samples). ffmpeg converts float audio to 16 bits for it, and so
/// passes 16-bit audio on; this counts each float sample as that conversion makes it
/// (swresample's `lrintf(x · 32768)`, clipped) and passes the float audio on unchanged. The
/// figures go to the notes and to `path`.
public final class VolumeDetectNode: RegisteredNode {
    static let formats: [SampleFormat] = [.f32planar, .f32, .s16, .s16planar]
    public static let typeInfo = NodeTypeInfo(
        name: "volumedetect",
        doc: "Measures the audio's mean and peak level in dB of full scale and the histogram of its loudest samples (ffmpeg's volumedetect, the same figures); the audio passes unchanged, the figures go to the run's notes and to 'path' as JSON.",
        category: .filter,
        inputs: [PortSpec("in", .audio(formats), doc: "raw 16-bit or float audio (other formats are converted)")],
        outputs: [PortSpec("out", .audio(formats), doc: "the same audio")],
        params: ParamSpec.list(pathParam))
    static let pathParam = Param<String?>.path("path", role: .output, doc: "a JSON file with the figures (samples, mean_volume and max_volume in dB, histogram as [{db, samples}] from the loudest bin), written at the end; without it the run's notes show them")
    /// ffmpeg's floor for silence: the level of a zero sample.
    static let silenceDB = 91

    let path: String?
    var channels = 1
    var isFloat = false
    /// Samples at each 16-bit value, offset by 0x8000 (one more slot for symmetry, as ffmpeg):
    /// the even samples' counts, then the odd ones' (added together when measuring).
    static let histogramSize = 0x10001
    var histogram = [UInt64](repeating: 0, count: 2 * histogramSize)
    var file: OutputFile?
    var measured: Measurement?

    public init(setup: NodeSetup) throws {
        path = setup.params[Self.pathParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio, Self.formats.contains(a.sampleFormat) else { throw NodeFailure("expected 16-bit or float audio, found \(inputs[0].format)") }
        channels = max(1, a.channels)
        isFloat = a.sampleFormat == .f32 || a.sampleFormat == .f32planar
        return [inputs[0].format]
    }

    public func start() throws {
        if let path { file = try OutputFile(path: path) }
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let values = buffer.sampleCount * channels
        let float = isFloat
        try buffer.bytes.withUnsafeBytes { raw in
            guard raw.count >= values * (float ? 4 : 2) else { throw NodeFailure("a buffer of \(buffer.sampleCount) samples × \(channels) channels holds only \(raw.count) bytes") }
            // two histograms, even and odd samples: neighbouring samples often share a value,
            // and one counter's increments would wait for each other
            histogram.withUnsafeMutableBufferPointer { h in
                let even = h.baseAddress! + 0x8000, odd = even + Self.histogramSize
                let pairs = values / 2
                if float {
                    let s = raw.bindMemory(to: Float.self)
                    for i in 0..<pairs {
                        even[Int(Self.sixteenBit(s[2 * i]))] &+= 1
                        odd[Int(Self.sixteenBit(s[2 * i + 1]))] &+= 1
                    }
                    if values % 2 == 1 { even[Int(Self.sixteenBit(s[values - 1]))] &+= 1 }
                } else {
                    let s = raw.bindMemory(to: Int16.self)
                    for i in 0..<pairs {
                        even[Int(s[2 * i])] &+= 1
                        odd[Int(s[2 * i + 1])] &+= 1
                    }
                    if values % 2 == 1 { even[Int(s[values - 1])] &+= 1 }
                }
            }
        }
        try output.send(buffer)
    }

    /// A float sample as swresample makes it 16-bit: times 32768, clipped, to nearest with ties to
    /// even (as `lrintf`); NaN as x86's `lrintf` gives it, the lowest value. The rounding adds and
    /// takes away 1.5·2²³, which leaves the nearest integer in the default rounding mode: the
    /// baseline x86-64 has no rounding instruction and `rounded()` would call `rintf`.
    @inline(__always)
    static func sixteenBit(_ x: Float) -> Int16 {
        var v = x * 32768
        if !(v >= -32768) { v = -32768 }
        if v > 32767 { v = 32767 }
        let magic: Float = 12_582_912
        return Int16((v + magic) - magic)
    }

    /// The figures ffmpeg prints.
    struct Measurement {
        var samples: UInt64
        var meanDB: Double
        var maxDB: Double
        /// (whole dB below full scale, samples) from the loudest bin down.
        var bins: [(below: Int, samples: UInt64)]
    }

    /// dB below full scale of a power (a squared 16-bit value), ffmpeg's `logdb`.
    static func belowFullScale(_ power: Double) -> Double {
        power == 0 ? Double(silenceDB) : -log10(power / Double(0x8000 * 0x8000)) * 10
    }

    func measure() -> Measurement? {
        let histogram = (0..<Self.histogramSize).map { self.histogram[$0] &+ self.histogram[Self.histogramSize + $0] }
        let total = histogram.reduce(0, &+)
        guard total > 0 else { return nil }
        // ffmpeg shifts the counts down past 2^34 samples so the power sum cannot overflow
        let shiftBy = (total >> 33) == 0 ? 0 : UInt64(63 - (total >> 33).leadingZeroBitCount)
        var shiftedTotal: UInt64 = 0, power: UInt64 = 0
        for i in 0..<0x10000 {
            let n = histogram[i] >> shiftBy
            let v = UInt64(abs(i - 0x8000))
            shiftedTotal &+= n
            power &+= v * v &* n
        }
        guard shiftedTotal > 0 else { return nil }
        power = (power + shiftedTotal / 2) / shiftedTotal
        var peak = 0x8000
        while peak > 0 && histogram[0x8000 + peak] == 0 && histogram[0x8000 - peak] == 0 { peak -= 1 }
        var byDB = [UInt64](repeating: 0, count: Self.silenceDB + 1)
        for i in 0..<0x10000 {
            let v = Double(i - 0x8000)
            byDB[Int(Self.belowFullScale(v * v))] &+= histogram[i]
        }
        var bins: [(below: Int, samples: UInt64)] = []
        var i = 0, sum: UInt64 = 0
        while i <= Self.silenceDB && byDB[i] == 0 { i += 1 }
        while i <= Self.silenceDB && sum < total / 1000 {
            bins.append((i, byDB[i]))
            sum &+= byDB[i]
            i += 1
        }
        return Measurement(samples: total, meanDB: -Self.belowFullScale(Double(power)),
                           maxDB: -Self.belowFullScale(Double(peak * peak)), bins: bins)
    }

    public func finish(output: NodeOutput) throws {
        measured = measure()
        guard let file else { return }
        if let m = measured {
            let bins = m.bins.map { "{\"db\": \(-$0.below), \"samples\": \($0.samples)}" }.joined(separator: ", ")
            try file.write("{\"samples\": \(m.samples), \"mean_volume\": \(m.meanDB), \"max_volume\": \(m.maxDB), \"histogram\": [\(bins)]}\n")
        } else {
            try file.write("{\"samples\": 0}\n")
        }
        try file.commit()
    }

    public func abort() { file?.discard() }

    public var runNotes: [String] {
        guard let m = measured else { return ["no audio samples"] }
        return ["n_samples: \(m.samples)",
                "mean_volume: \(String(format: "%.1f", m.meanDB)) dB",
                "max_volume: \(String(format: "%.1f", m.maxDB)) dB"]
            + m.bins.map { "histogram_\($0.below)db: \($0.samples)" }  // ffmpeg 5.1's label: dB below full scale
    }
}
