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
    /// `start` was given, even as 0: zero is then the file's start time plus it, never moved to
    /// where the streams read begin (what `mediagraph plan` relies on for MPEG-TS inputs).
    var startGiven = false
    /// A segment of a longer run (`segment-start`, `segment-end`): microseconds after zero where
    /// this run's pictures begin and end. Zero stays where it is, so the segment keeps the whole
    /// run's timestamps.
    var segmentStartMicros: Int64?
    var segmentEndMicros: Int64?
    var isSegment: Bool { segmentStartMicros != nil || segmentEndMicros != nil }
    /// Where reading seeks to, after the file's start time (0: no seek).
    var seekMicros: Int64 { startMicros + (segmentStartMicros ?? 0) }

    /// A segment bound in ticks of `timeBase` after zero: the first tick at or after it, so that
    /// a bound made by flooring a picture's time (`frame:N`, or `mediagraph plan`) is that picture's
    /// own time again whenever ticks are no finer than microseconds. The segment before ends
    /// where the next starts, by the same number: no picture is in both or in neither.
    static func ticks(_ micros: Int64, in timeBase: Rational) -> Int64 {
        let (hi, lo) = micros.multipliedFullWidth(by: timeBase.den)
        let d = timeBase.num * 1_000_000
        let (q, r) = d.dividingFullWidth((hi, lo))
        return r > 0 ? q + 1 : q
    }

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
        if let s = p[FileSource.startParam] {
            trim.startMicros = try micros(s, param: "start")
            trim.startGiven = true
            if case .frame(let n) = s, let v = firstVideo, v.frameCount > 0, n >= v.frameCount {
                throw NodeFailure("param 'start': frame \(n) is beyond the end of '\(path)' (its first video stream has \(v.frameCount) frames, 0…\(v.frameCount - 1))")
            }
            if let d = duration, trim.startMicros >= d {
                throw NodeFailure("param 'start': \(clock(trim.startMicros)) is beyond the end of '\(path)' (it lasts \(clock(d)))")
            }
        }
        let end = p[FileSource.endParam], length = p[FileSource.durationParam]
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
        if let s = p[FileSource.segmentStartParam] {
            let at = try micros(s, param: "segment-start")
            guard at > 0 else { throw NodeFailure("param 'segment-start': must be after zero (leave it out for a segment that starts at zero)") }
            trim.segmentStartMicros = at
        }
        if let e = p[FileSource.segmentEndParam] {
            let at = try micros(e, param: "segment-end")
            guard at > trim.segmentStartMicros ?? 0 else {
                throw NodeFailure("param 'segment-end': \(clock(at)) is not after segment-start \(clock(trim.segmentStartMicros ?? 0))")
            }
            trim.segmentEndMicros = at
        }
        if let s = trim.segmentStartMicros, let l = trim.lengthMicros, s >= l {
            throw NodeFailure("param 'segment-start': \(clock(s)) is not before the end of presentation at \(clock(l)) after start")
        }
        return trim
    }

    static func clock(_ micros: Int64) -> String { TimeValue.clock(Rational(micros, 1_000_000)) }
}
