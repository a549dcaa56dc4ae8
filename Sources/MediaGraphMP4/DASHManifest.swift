import MediaGraphCore

/// An MPEG-DASH media presentation description (ISO/IEC 23009-1) of the isoff-live profile, as
/// text, laid out as ffmpeg 5.1's dash muxer writes it with `-use_template 1 -use_timeline 1`:
/// one Period from 0; all video representations in one AdaptationSet and audio ones in one per
/// language (`DASHAdaptationSet`: with one of each, ffmpeg's default of one set per stream; with
/// several videos, its `-adaptation_sets "id=0,streams=v id=1,streams=a"`); each Representation
/// with a SegmentTemplate and its SegmentTimeline.
public struct DASHManifest: Sendable, Equatable {
    /// `MPD@type`: `static` describes a finished presentation; `dynamic` one that may still grow
    /// (a player reloads it every minimumUpdatePeriod).
    public enum Kind: String, Sendable, CaseIterable {
        case `static`, dynamic
    }

    public struct Representation: Sendable, Equatable {
        public enum Media: Sendable, Equatable {
            case video(width: Int, height: Int, frameRate: Rational?, sampleAspect: Rational, interlaced: Bool)
            case audio(sampleRate: Int, channels: Int)
        }

        /// `Representation@id`: what `$RepresentationID$` becomes (ffmpeg's stream index).
        public var id: Int
        public var media: Media
        /// RFC 6381 (`DASHCodecString`).
        public var codecs: String
        /// Bits per second; nil until measured (left out).
        public var bandwidth: Int?
        /// The track's language (ISO 639-2, "eng"), nil when unknown: `AdaptationSet@lang` when
        /// every representation of the set has it; audio of different languages is in different sets.
        public var language: String?
        public var timescale: Int64
        public var initialization: DASHSegmentName
        public var segmentName: DASHSegmentName
        /// The segments listed (with a live window, the latest only).
        public var segments: [DASHSegment]
        /// `SegmentTemplate@startNumber`: the number of the first segment listed.
        public var startNumber = 1

        public init(id: Int, media: Media, codecs: String, bandwidth: Int?, language: String? = nil, timescale: Int64,
                    initialization: DASHSegmentName, segmentName: DASHSegmentName, segments: [DASHSegment] = []) {
            self.id = id
            self.media = media
            self.codecs = codecs
            self.bandwidth = bandwidth
            self.language = language
            self.timescale = timescale
            self.initialization = initialization
            self.segmentName = segmentName
            self.segments = segments
        }

        var isVideo: Bool { if case .video = media { true } else { false } }

        /// Where its last listed segment ends, in seconds as a `MediaTime`.
        var end: MediaTime {
            MediaTime(value: segments.last.map { $0.time + $0.duration } ?? 0, timescale: timescale)
        }

        var longestSegment: MediaTime {
            MediaTime(value: segments.map(\.duration).max() ?? 0, timescale: timescale)
        }
    }

    public var kind: Kind
    public var representations: [Representation]
    /// `ProgramInformation/Title`: the title tag of the media, if any (as ffmpeg writes it).
    public var title: String?
    /// Wall-clock time (microseconds since 1970, UTC) of the first sample: `availabilityStartTime`
    /// of a dynamic MPD, from which a player counts when each segment is there.
    public var availabilityStart: Int64 = 0
    /// Wall-clock time this version of a dynamic MPD was written (`publishTime`).
    public var published: Int64 = 0
    /// `timeShiftBufferDepth` of a dynamic MPD with a live window: how far back a player may
    /// seek (nil: not written, every segment since the start is listed).
    public var timeShiftBufferDepth: MediaTime?

    public init(kind: Kind, representations: [Representation] = []) {
        self.kind = kind
        self.representations = representations
    }

    /// The AdaptationSets the representations are grouped in, in order.
    public var adaptationSets: [DASHAdaptationSet] { DASHAdaptationSet.grouping(representations) }

    /// `mediaPresentationDuration` of a static MPD: the end of the latest segment (the timelines
    /// start at 0). ffmpeg takes its first stream's span, which leaves out a longer track's end.
    public var duration: MediaTime { representations.map(\.end).max() ?? .zero }

    /// `maxSegmentDuration`: the longest segment listed. (ffmpeg writes the asked seg_duration,
    /// which a segment ending at a later key frame exceeds.)
    public var maxSegmentDuration: MediaTime { representations.map(\.longestSegment).max() ?? .zero }

    /// `minBufferTime`: two of the longest segments (ffmpeg: two of the last video segment), so a
    /// player that holds that much plays on while it fetches the next.
    public var minBufferTime: MediaTime {
        let m = maxSegmentDuration
        return MediaTime(value: 2 * m.value, timescale: m.timescale)
    }

    /// The MPD file.
    public var text: String {
        var x = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        x += "<MPD xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
        x += "\txmlns=\"urn:mpeg:dash:schema:mpd:2011\"\n"
        x += "\txmlns:xlink=\"http://www.w3.org/1999/xlink\"\n"
        x += "\txsi:schemaLocation=\"urn:mpeg:DASH:schema:MPD:2011 http://standards.iso.org/ittf/PubliclyAvailableStandards/MPEG-DASH_schema_files/DASH-MPD.xsd\"\n"
        x += "\tprofiles=\"urn:mpeg:dash:profile:isoff-live:2011\"\n"
        x += "\ttype=\"\(kind.rawValue)\"\n"
        switch kind {
        case .static:
            x += "\tmediaPresentationDuration=\"\(Self.duration(duration))\"\n"
        case .dynamic:
            // reload after about one segment; ffmpeg uses the last segment's whole seconds
            let last = representations.first?.segments.last.map { MediaTime(value: $0.duration, timescale: representations[0].timescale) }
                ?? maxSegmentDuration
            x += "\tminimumUpdatePeriod=\"\(Self.duration(last))\"\n"
            x += "\tsuggestedPresentationDelay=\"\(Self.duration(last))\"\n"
            x += "\tavailabilityStartTime=\"\(Self.dateTime(availabilityStart))\"\n"
            x += "\tpublishTime=\"\(Self.dateTime(published))\"\n"
            if let depth = timeShiftBufferDepth { x += "\ttimeShiftBufferDepth=\"\(Self.duration(depth))\"\n" }
        }
        x += "\tmaxSegmentDuration=\"\(Self.duration(maxSegmentDuration))\"\n"
        x += "\tminBufferTime=\"\(Self.duration(minBufferTime))\">\n"
        if let title {
            x += "\t<ProgramInformation>\n\t\t<Title>\(Self.escaped(title))</Title>\n\t</ProgramInformation>\n"
        }
        x += "\t<Period id=\"0\" start=\"PT0.0S\">\n"
        for set in adaptationSets { x += set.text(complete: kind == .static) }
        x += "\t</Period>\n"
        x += "</MPD>\n"
        return x
    }

    /// `<S t d r>` rows: `t` on the first and wherever a segment does not start where the one
    /// before ended, `r` for the number of following segments of the same length that follow on.
    static func timeline(_ segments: [DASHSegment]) -> String {
        var x = ""
        var i = 0
        var next: Int64?
        while i < segments.count {
            let s = segments[i]
            var repeats = 0
            while i + repeats + 1 < segments.count, segments[i + repeats + 1].duration == s.duration,
                  segments[i + repeats + 1].time == segments[i + repeats].time + s.duration {
                repeats += 1
            }
            x += "\t\t\t\t\t\t<S "
            if s.time != next { x += "t=\"\(s.time)\" " }
            x += "d=\"\(s.duration)\" "
            if repeats > 0 { x += "r=\"\(repeats)\" " }
            x += "/>\n"
            next = s.time + Int64(repeats + 1) * s.duration
            i += repeats + 1
        }
        return x
    }

    /// An xs:duration as ffmpeg writes it (`PT1H2M3.5S`, hours and minutes only when not 0), with
    /// as many decimals as the time needs (at least one, at most six; ffmpeg always writes one,
    /// cutting 9.96 s to PT9.9S, before the media ends). Rounded up to the microsecond, so a
    /// presentation's duration covers its last sample.
    public static func duration(_ t: MediaTime) -> String {
        let micro = max(0, MediaTime.rescaleUp(t.value, from: t.timescale, to: 1_000_000))
        let seconds = micro / 1_000_000
        var fraction = String(micro % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        var x = "PT"
        if h > 0 { x += "\(h)H" }
        if h > 0 || m > 0 { x += "\(m)M" }
        return x + "\(s).\(fraction)S"
    }

    /// An xs:dateTime in UTC with milliseconds, as ffmpeg writes availabilityStartTime
    /// (`2026-11-23T04:11:00.250Z`), from microseconds since 1970.
    public static func dateTime(_ microseconds: Int64) -> String {
        let ms = microseconds / 1000
        var days = ms / 86_400_000
        var rest = ms % 86_400_000
        if rest < 0 { rest += 86_400_000; days -= 1 }
        let (y, mo, d) = civilDate(daysSince1970: days)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let millis = String(rest % 1000)
        return "\(y)-\(two(mo))-\(two(d))T\(two(rest / 3_600_000)):\(two(rest / 60_000 % 60)):\(two(rest / 1000 % 60))."
            + String(repeating: "0", count: 3 - millis.count) + millis + "Z"
    }

    /// Year, month, day of a day counted from 1970-01-01 in the proleptic Gregorian calendar
    /// (Howard Hinnant's civil_from_days), so no time zone or locale is consulted.
    static func civilDate(daysSince1970 z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Text for an attribute value in double quotes, or an element's text.
    static func escaped(_ s: String) -> String {
        var x = ""
        for c in s {
            switch c {
            case "&": x += "&amp;"
            case "<": x += "&lt;"
            case ">": x += "&gt;"
            case "\"": x += "&quot;"
            case "'": x += "&apos;"
            case "\t", "\n", "\r": x += "&#\(c.asciiValue!);"
            // XML 1.0 has no way to write the other control characters
            case _ where c.unicodeScalars.allSatisfy({ $0.value < 0x20 }): continue
            default: x.append(c)
            }
        }
        return x
    }
}

extension MediaTime {
    /// `value` ticks of `from` per second in ticks of `to`, rounded up (towards +∞).
    static func rescaleUp(_ value: Int64, from: Int64, to: Int64) -> Int64 {
        let p = Int128(value) * Int128(to)
        var q = p / Int128(from)
        if p % Int128(from) > 0 { q += 1 }
        return Int64(clamping: q)
    }
}
