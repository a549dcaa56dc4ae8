import Foundation
import MediaGraphCore

/// The expression of `setpts` and `asetpts` with ffmpeg 5.1's variables and their bookkeeping
/// from frame to frame (libavfilter/setpts.c): parsed once into slots, evaluated per frame on a
/// value array kept from frame to frame.
///
/// As ffmpeg: `N` counts frames on video and samples before the frame on audio; `PREV_*` and
/// `STARTPTS`/`STARTT` are NAN until there is a frame to take them from; `POS` is NAN (our
/// frames do not carry their file position); the result is truncated toward zero to a tick
/// (libavfilter's D2TS, a C cast: not rounded), and NAN means "no time".
struct PTSExpression {
    /// The variables, in ffmpeg's order; a slot is its index.
    static let names = ["FRAME_RATE", "FR", "INTERLACED", "N", "NB_CONSUMED_SAMPLES", "NB_SAMPLES", "POS",
                        "PREV_INPTS", "PREV_INT", "PREV_OUTPTS", "PREV_OUTT", "PTS", "SAMPLE_RATE", "SR",
                        "STARTPTS", "STARTT", "T", "TB", "RTCTIME", "RTCSTART", "S"]
    enum Slot: Int, CaseIterable {
        case frameRate, fr, interlaced, n, nbConsumedSamples, nbSamples, pos
        case prevInPTS, prevInT, prevOutPTS, prevOutT, pts, sampleRate, sr
        case startPTS, startT, t, tb, rtcTime, rtcStart, s
    }
    /// Variables that mean something only for the other kind of stream (ffmpeg gives them NAN or
    /// 0 there; a mistake here).
    static let audioOnly: [Slot] = [.nbConsumedSamples, .nbSamples, .sampleRate, .sr, .s]
    static let videoOnly: [Slot] = [.frameRate, .fr, .interlaced]

    let expression: NumericExpression
    let audio: Bool
    private var values = [Double](repeating: .nan, count: Slot.allCases.count)
    private let usesClock: Bool
    private var tbSeconds = Double.nan
    /// Frames evaluated so far.
    private(set) var frames = 0

    /// Parses `text` (param `param` of an audio or a video node), refusing the other kind's
    /// variables with the name of the node type that has them.
    init(_ text: String, param: String, audio: Bool) throws {
        let expression = try ExpressionParam.parse(text, param: param, variables: Self.names)
        self.expression = expression
        self.audio = audio
        let foreign = audio ? Self.videoOnly : Self.audioOnly
        if let wrong = foreign.first(where: { expression.uses($0.rawValue) }) {
            throw NodeFailure("param '\(param)': \(Self.names[wrong.rawValue]) is \(audio ? "a video" : "an audio") variable ("
                + "'\(audio ? "setpts" : "asetpts")' has it); \(audio ? "asetpts" : "setpts") knows "
                + Self.names.enumerated().filter { !foreign.map(\.rawValue).contains($0.offset) }.map(\.element).joined(separator: ", "))
        }
        usesClock = expression.uses(Slot.rtcTime.rawValue) || expression.uses(Slot.rtcStart.rawValue)
        values[Slot.n.rawValue] = 0
        values[Slot.nbConsumedSamples.rawValue] = 0
        values[Slot.s.rawValue] = 0
        values[Slot.nbSamples.rawValue] = 0
        values[Slot.interlaced.rawValue] = 0
    }

    private mutating func set(_ s: Slot, _ v: Double) { values[s.rawValue] = v }
    private func get(_ s: Slot) -> Double { values[s.rawValue] }

    /// The stream's constants: its time base, frame rate (video) and sample rate (audio); 0 or
    /// less for one unknown (NAN, as ffmpeg).
    mutating func configure(timeBase: Rational, frameRate: Rational?, sampleRate: Int?) {
        tbSeconds = Double(timeBase.num) / Double(timeBase.den)
        set(.tb, tbSeconds)
        let fps = frameRate.flatMap { $0.num > 0 && $0.den > 0 ? Double($0.num) / Double($0.den) : nil } ?? .nan
        set(.frameRate, fps); set(.fr, fps)
        let rate = sampleRate.map(Double.init) ?? .nan
        set(.sampleRate, rate); set(.sr, rate)
        if usesClock { set(.rtcStart, Self.microseconds()) }
    }

    /// Wall-clock microseconds (libavutil's av_gettime).
    static func microseconds() -> Double { (Date().timeIntervalSince1970 * 1_000_000).rounded(.down) }

    /// As ffmpeg's TS2D: a tick count, NAN for "no time".
    private static func double(_ ticks: Int64) -> Double { ticks == BufferMetadata.noTime ? .nan : Double(ticks) }

    /// The expression's value for a frame at `pts` (`samples` on audio); call `advance` after.
    mutating func evaluate(pts: Int64, interlaced: Bool, samples: Int) -> Double {
        set(.interlaced, interlaced ? 1 : 0)
        set(.s, Double(samples)); set(.nbSamples, Double(samples))
        return evaluateAt(pts)
    }

    /// The value at the end of the stream (ffmpeg evaluates it for its end-of-stream time):
    /// `pts` the end of the last frame, everything else as the last frame left it.
    mutating func evaluateEnd(pts: Int64) -> Double { evaluateAt(pts) }

    private mutating func evaluateAt(_ pts: Int64) -> Double {
        let p = Self.double(pts)
        if get(.startPTS).isNaN { set(.startPTS, p); set(.startT, p * tbSeconds) }
        set(.pts, p); set(.t, p * tbSeconds)
        if usesClock { set(.rtcTime, Self.microseconds()) }
        return expression.evaluate(values)
    }

    /// Records a frame's input and output times for the next one.
    mutating func advance(inPTS: Int64, outPTS: Int64, samples: Int) {
        set(.n, get(.n) + (audio ? Double(samples) : 1))
        if audio { set(.nbConsumedSamples, get(.nbConsumedSamples) + Double(samples)) }
        let i = Self.double(inPTS), o = Self.double(outPTS)
        set(.prevInPTS, i); set(.prevInT, i * tbSeconds)
        set(.prevOutPTS, o); set(.prevOutT, o * tbSeconds)
        frames += 1
    }

    /// libavfilter's D2TS: toward zero to a whole tick; nil for NAN (no time) or a value no tick
    /// count holds (where C's cast is undefined).
    static func ticks(_ d: Double) -> Int64? {
        guard d.isFinite, d > -9.2e18, d < 9.2e18 else { return nil }
        return Int64(d)
    }
}
