import Foundation
import MediaGraphCore

/// `silencedetect`: finds stretches of audio quieter than a threshold for at least a duration,
/// as ffmpeg 5.1's `silencedetect` does, with its numbers: a sample is silent when its magnitude
/// is below `noise` (in the sample's own format: for 16-bit samples `noise`·32767 truncated, so
/// the same samples count as ffmpeg's), samples are counted interleaved (one loud sample in any
/// channel ends a silence unless `per-channel`), a silence starts `duration` before the sample
/// that completes it and ends at the first loud sample or at the end of the stream. The audio
/// passes unchanged; the spans go to the notes and to `path` (`DetectedSpans`).
public final class SilenceDetectNode: RegisteredNode {
    static let formats: [SampleFormat] = [.f32planar, .f32, .s16, .s16planar, .s32, .s32planar, .f64, .f64planar]
    public static let typeInfo = NodeTypeInfo(
        name: "silencedetect",
        doc: "Finds silences: audio below 'noise' for at least 'duration' seconds (ffmpeg's silencedetect, the same spans); the audio passes unchanged, the spans go to the run's notes and to 'path' as JSON.",
        category: .filter,
        inputs: [PortSpec("in", .audio(formats), doc: "raw audio")],
        outputs: [PortSpec("out", .audio(formats), doc: "the same audio")],
        params: ParamSpec.list(noiseParam, noiseDBParam, durationParam, perChannelParam, pathParam))
    static let noiseParam = Param<Double?>("noise", 0...1, doc: "the amplitude, as a fraction of full scale, below which a sample is silent (default 0.001, that is -60 dB; not with 'noise-db')")
    static let noiseDBParam = Param<Double?>("noise-db", -200...0, doc: "the same threshold in decibels of full scale (ffmpeg's n=-50dB; not with 'noise')")
    static let durationParam = Param<Double>("duration", 0...86400, default: 2, doc: "seconds the audio must stay below the threshold to count as a silence (ffmpeg's d)")
    static let perChannelParam = Param<Bool>("per-channel", default: false, doc: "find each channel's silences on its own (ffmpeg's mono=1); otherwise a silence is where every channel is silent")
    static let pathParam = DetectedSpans.pathParam("silences")

    let noise: Double
    let duration: Double
    let perChannel: Bool
    let spans: DetectedSpans
    var sampleFormat = SampleFormat.f32planar
    var channels = 1, sampleRate = 1
    /// Samples (interleaved count) needed to call a stretch a silence.
    var notifyAfter: Int64 = 0
    /// Per independent channel (one unless `per-channel`): silent samples in a row, and where the
    /// silence started once it was long enough.
    var silentRun: [Int64] = []
    var silenceStart: [Int64] = []
    /// `silenceStart` of a channel not in a silence.
    static let noStart = Int64.min
    /// The end of the latest buffer, in its time base: a silence open at the end ends there.
    var streamEnd: Int64 = 0
    var timeBase = Rational(1, 1)

    public init(setup: NodeSetup) throws {
        let p = setup.params
        switch (p[Self.noiseParam], p[Self.noiseDBParam]) {
        case (let n?, nil): noise = n
        // as libavutil reads "-50dB": 10^(x/20)
        case (nil, let db?): noise = pow(10, db / 20)
        case (nil, nil): noise = 0.001
        case (let n?, let db?): throw NodeFailure("params 'noise' and 'noise-db' both say the threshold (found \(n) and \(db) dB): give one")
        }
        duration = p[Self.durationParam]
        perChannel = p[Self.perChannelParam]
        spans = DetectedSpans(path: p[Self.pathParam], kind: "silence") { ch, start, end, length in
            "\(ch.map { "channel: \($0) | " } ?? "")silence_start: \(start) | silence_end: \(end) | silence_duration: \(length)"
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio else { throw NodeFailure("expected raw audio, found \(inputs[0].format)") }
        sampleFormat = a.sampleFormat
        channels = max(1, a.channels)
        sampleRate = max(1, a.sampleRate)
        let independent = perChannel ? channels : 1
        // ffmpeg: srate · duration · (mono ? 1 : channels), truncated to an integer
        notifyAfter = Int64(Double(sampleRate) * duration * Double(perChannel ? 1 : channels))
        silentRun = Array(repeating: 0, count: independent)
        silenceStart = Array(repeating: Self.noStart, count: independent)
        return [inputs[0].format]
    }

    public func start() throws { try spans.start() }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let n = buffer.sampleCount
        if buffer.pts != BufferMetadata.noTime && n > 0 {
            timeBase = buffer.timeBase
            let pts = buffer.pts
            streamEnd = pts &+ samplesToTicks(Int64(n))
            let planar = sampleFormat.isPlanar
            try buffer.bytes.withUnsafeBytes { raw in
                guard raw.count >= n * channels * sampleFormat.bytesPerSample else {
                    throw NodeFailure("a buffer of \(n) samples × \(channels) channels holds only \(raw.count) bytes")
                }
                switch sampleFormat {
                case .f32, .f32planar:
                    try scan(raw.bindMemory(to: Float.self), n, planar, pts, Float(noise))
                case .f64, .f64planar:
                    try scan(raw.bindMemory(to: Double.self), n, planar, pts, noise)
                case .s16, .s16planar:
                    try scan(raw.bindMemory(to: Int16.self), n, planar, pts, Int16(noise * Double(Int16.max)))
                case .s32, .s32planar:
                    try scan(raw.bindMemory(to: Int32.self), n, planar, pts, Int32(noise * Double(Int32.max)))
                default:
                    throw NodeFailure("sample format \(sampleFormat) is not one silencedetect reads")
                }
            }
        }
        try output.send(buffer)
    }

    /// ffmpeg's loop: every sample in interleaved order, silent when -noise < v < noise; the
    /// state in local pointers (`noStart` for no silence yet), as this runs for every sample.
    @inline(__always)
    func scan<T: Comparable & SignedNumeric>(_ s: UnsafeBufferPointer<T>, _ n: Int, _ planar: Bool, _ pts: Int64, _ t: T) throws {
        let ch = channels, independent = perChannel ? ch : 1, notify = notifyAfter
        // ffmpeg: the start is `duration` back from the sample after this one
        let back = 1 - notify * Int64(independent) / Int64(ch)
        let negT = -t
        try silentRun.withUnsafeMutableBufferPointer { run in
            try silenceStart.withUnsafeMutableBufferPointer { start in
                for j in 0..<n {
                    for c in 0..<ch {
                        let v = planar ? s[c * n + j] : s[j * ch + c]
                        let k = independent == 1 ? 0 : c
                        if v < t && v > negT {
                            if start[k] == Self.noStart {
                                run[k] += 1
                                if run[k] >= notify { start[k] = pts &+ samplesToTicks(Int64(j) + back) }
                            }
                        } else {
                            if start[k] != Self.noStart {
                                try spans.record(start: start[k], end: pts &+ samplesToTicks(Int64(j)), timeBase: timeBase,
                                                 channel: perChannel ? k : nil)
                                start[k] = Self.noStart
                            }
                            run[k] = 0
                        }
                    }
                }
            }
        }
    }

    /// Samples as ticks of the stream's time base, rounded to nearest as ffmpeg's av_rescale_q.
    func samplesToTicks(_ samples: Int64) -> Int64 {
        let p = Int128(samples) * Int128(timeBase.den)
        let d = Int128(sampleRate) * Int128(timeBase.num)
        guard d != 0 else { return 0 }
        var q = p / d
        let r = p % d
        if 2 * r.magnitude >= d.magnitude { q += (r < 0) != (d < 0) ? -1 : 1 }
        return Int64(clamping: q)
    }

    public func finish(output: NodeOutput) throws {
        for c in silenceStart.indices where silenceStart[c] != Self.noStart {
            try spans.record(start: silenceStart[c], end: streamEnd, timeBase: timeBase, channel: perChannel ? c : nil)
            silenceStart[c] = Self.noStart
        }
        try spans.finish()
    }

    public func abort() { spans.abort() }

    public var runNotes: [String] { spans.notes }
}
