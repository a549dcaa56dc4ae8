import MediaGraphCodecs
import MediaGraphCore

/// A file source's `start`, `end` and `duration` on the file's clock, in microseconds as ffmpeg
/// keeps `-ss` and `-t` (so a copy lines up with ffmpeg's to the tick). Time zero is `start`
/// after the file's own start time; presentation ends `length` after zero.
struct FileTrim {
    /// Microseconds after the file's start time that become time zero (0: no trim).
    var startMicros: Int64 = 0
    /// Microseconds after zero where presentation ends, nil for the end of the file.
    var lengthMicros: Int64?
    var hasStart: Bool { startMicros > 0 }

    /// Reads the params against what the file holds; a start beyond the end, an end before the
    /// start and a frame the file does not have are errors naming the file.
    static func make(_ p: ParamValues, demuxer: Demuxer, firstVideo: StreamInfo?) throws -> FileTrim {
        let path = demuxer.path
        var trim = FileTrim()
        let duration = demuxer.container.duration
        func micros(_ t: TimeValue, param: String) throws -> Int64 {
            switch t {
            case .seconds(let r):
                // TimeValue keeps r below 10^6 s with a denominator ≤ 10^9: no overflow
                return r.num / r.den * 1_000_000 + (r.num % r.den * 1_000_000 + r.den / 2) / r.den
            case .frame(let n):
                guard let v = firstVideo else {
                    throw NodeFailure("param '\(param)': \"frame:\(n)\" counts frames of the first video stream, but '\(path)' has no video stream")
                }
                if v.frameCount > 0 && n > v.frameCount {
                    throw NodeFailure("param '\(param)': frame \(n) is beyond the end of '\(path)' (its first video stream has \(v.frameCount) frames, 0…\(v.frameCount - 1))")
                }
                // rounded down, so that frame n itself is not before zero
                let rate = v.frameRate
                let seconds = Double(n) * Double(rate.den) / Double(rate.num)
                guard seconds < 1e12 else {
                    throw NodeFailure("param '\(param)': frame \(n) is beyond the end of '\(path)'")
                }
                let (hi, lo) = (n * 1_000_000).multipliedFullWidth(by: rate.den)
                return rate.num.dividingFullWidth((hi, lo)).quotient
            }
        }
        if let s = p.time("start") {
            trim.startMicros = try micros(s, param: "start")
            if case .frame(let n) = s, let v = firstVideo, v.frameCount > 0, n >= v.frameCount {
                throw NodeFailure("param 'start': frame \(n) is beyond the end of '\(path)' (its first video stream has \(v.frameCount) frames, 0…\(v.frameCount - 1))")
            }
            if let d = duration, trim.startMicros >= d {
                throw NodeFailure("param 'start': \(clock(trim.startMicros)) is beyond the end of '\(path)' (it lasts \(clock(d)))")
            }
        }
        let end = p.time("end"), length = p.time("duration")
        if end != nil && length != nil {
            throw NodeFailure("params 'end' and 'duration' both given; give one (end = start + duration)")
        }
        if let e = end {
            let at = try micros(e, param: "end")
            guard at > trim.startMicros else {
                throw NodeFailure("param 'end': \(clock(at)) is not after start \(clock(trim.startMicros))")
            }
            trim.lengthMicros = at - trim.startMicros
        } else if let l = length {
            let d = try micros(l, param: "duration")
            guard d > 0 else { throw NodeFailure("param 'duration': must be more than 0") }
            trim.lengthMicros = d
        }
        return trim
    }

    static func clock(_ micros: Int64) -> String { TimeValue.clock(Rational(micros, 1_000_000)) }
}
