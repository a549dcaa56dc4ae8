import MediaGraphCore

/// What a track says about itself in its TrackEntry: codec and time base; for video the size,
/// aspect, colour and frame rate; for audio the rate and channels; the language. Taken from the
/// edge format (`init(format:)`), so a stream copied from a file keeps what the file said.
public struct MatroskaTrackDescription: Sendable, Equatable {
    public var codec: Codec
    /// Time base of the packets' pts/dts/duration.
    public var timeBase: Rational
    public var width = 0
    public var height = 0
    /// Width : height of a pixel; a non-square one writes DisplayWidth/DisplayHeight.
    public var sampleAspect: Rational?
    /// Nominal frame rate, for DefaultDuration (nil or 0: none written).
    public var frameRate: Rational?
    /// H.273 code points and range as Matroska's Colour element stores them; nil where
    /// unspecified (that element is left out, as ffmpeg leaves it).
    public var matrix: Int?
    public var transfer: Int?
    public var primaries: Int?
    /// 1 limited (broadcast), 2 full.
    public var range: Int?
    public var sampleRate = 0
    public var channels = 0
    /// ISO 639-2 code; nil or anything not three letters a–z is written "und".
    public var language: String?
    /// Subtitles: the track's name (its title tag), whether it is the default and forced
    /// track, and its header (ASS script info and styles), written as CodecPrivate.
    public var title: String?
    public var isDefault = true
    public var isForced = false
    public var subtitleHeader: [UInt8] = []

    public init(codec: Codec, timeBase: Rational) {
        self.codec = codec
        self.timeBase = timeBase
    }

    /// The description of an encoded edge format; nil for raw media.
    public init?(format: MediaFormat) {
        switch format {
        case .encodedVideo(let f):
            self.init(codec: f.codec, timeBase: f.timeBase)
            width = f.width
            height = f.height
            let raw = f.raw
            sampleAspect = raw.sampleAspect
            frameRate = raw.frameRate
            if raw.matrix != .unspecified { matrix = raw.matrix.code }
            if raw.color.transfer != .unspecified { transfer = raw.color.transfer.code }
            if raw.color.primaries != .unspecified { primaries = raw.color.primaries.code }
            if raw.range != .unspecified { range = raw.range == .full ? 2 : 1 }
            language = raw.tags.language
        case .encodedAudio(let f):
            self.init(codec: f.codec, timeBase: f.timeBase)
            sampleRate = f.codec == .opus ? 48000 : f.sampleRate
            channels = f.channels
            language = f.raw.tags.language
        case .subtitle(let f):
            self.init(codec: f.codec, timeBase: f.timeBase)
            language = f.tags.language
            title = f.tags.title
            isDefault = f.isDefault
            isForced = f.isForced
            subtitleHeader = f.extradata
        default:
            return nil
        }
    }

    var isVideo: Bool { codec.isVideo }
    var isSubtitle: Bool { codec.kind == .subtitle }
    /// Whether the track holds subtitles.
    public var isSubtitleTrack: Bool { isSubtitle }

    /// The language as written: "und" unless three lower-case letters.
    var writtenLanguage: String {
        guard let l = language, l.utf8.count == 3, l.utf8.allSatisfy({ (0x61...0x7A).contains($0) }) else { return "und" }
        return l
    }

    /// The pixel aspect when known and not square.
    var nonSquareAspect: Rational? {
        guard let a = sampleAspect, a.num > 0, a.den > 0, a.num != a.den else { return nil }
        return a
    }

    var hasColour: Bool { matrix != nil || transfer != nil || primaries != nil || range != nil }

    /// One frame's length in nanoseconds, when the rate is known and sensible.
    var defaultDurationNanoseconds: UInt64? {
        guard let r = frameRate, r.num > 0, r.den > 0, r.num <= 1_000_000 * r.den else { return nil }
        let ns = (Double(r.den) * 1e9 / Double(r.num)).rounded()
        return ns >= 1 ? UInt64(ns) : nil
    }
}

/// Writes TrackEntry elements (in the order ffmpeg writes them, so files compare easily).
enum TrackEntry {
    static func write(_ w: inout EBMLWriter, number: Int, track d: MatroskaTrackDescription, codecPrivate: [UInt8],
                      codecDelayNanoseconds: UInt64) {
        w.master(MatroskaID.trackEntry) { w in
            w.uint(MatroskaID.trackNumber, UInt64(number))
            // fixed, not random: the same input makes the same file
            w.uint(MatroskaID.trackUID, UInt64(number))
            w.uint(MatroskaID.flagLacing, 0)
            if d.isSubtitle, let title = d.title { w.string(MatroskaID.name, title) }
            w.string(MatroskaID.language, d.writtenLanguage)
            if d.isSubtitle {
                // FlagDefault is 1 unless written (as ffmpeg clears it); forced only when set
                if !d.isDefault { w.uint(MatroskaID.flagDefault, 0) }
                if d.isForced { w.uint(MatroskaID.flagForced, 1) }
            }
            w.string(MatroskaID.codecID, MatroskaCodecs.codecID(d.codec) ?? "")
            if d.codec == .opus {
                w.uint(MatroskaID.codecDelay, codecDelayNanoseconds)
                // 80 ms: what RFC 7845 asks decoders to pre-roll after a seek (ffmpeg writes it)
                w.uint(MatroskaID.seekPreRoll, 80_000_000)
            }
            w.uint(MatroskaID.trackType, d.isVideo ? 1 : d.isSubtitle ? 0x11 : 2)
            if d.isSubtitle {
                // no Video or Audio element
            } else if d.isVideo {
                if let ns = d.defaultDurationNanoseconds { w.uint(MatroskaID.defaultDuration, ns) }
                w.master(MatroskaID.video) { w in
                    w.uint(MatroskaID.pixelWidth, UInt64(d.width))
                    w.uint(MatroskaID.pixelHeight, UInt64(d.height))
                    if let a = d.nonSquareAspect {
                        // the display size in pixels of the stored height, as ffmpeg computes it
                        let display = MediaTime.rescale(Int64(d.width), timeBase: a, to: 1) ?? Int64(d.width)
                        w.uint(MatroskaID.displayWidth, UInt64(max(1, min(display, Int64(Int32.max)))))
                        w.uint(MatroskaID.displayHeight, UInt64(d.height))
                    }
                    if d.hasColour {
                        w.master(MatroskaID.colour) { w in
                            if let v = d.transfer { w.uint(MatroskaID.transferCharacteristics, UInt64(v)) }
                            if let v = d.matrix { w.uint(MatroskaID.matrixCoefficients, UInt64(v)) }
                            if let v = d.primaries { w.uint(MatroskaID.primaries, UInt64(v)) }
                            if let v = d.range { w.uint(MatroskaID.range, UInt64(v)) }
                        }
                    }
                }
            } else {
                w.master(MatroskaID.audio) { w in
                    w.uint(MatroskaID.channels, UInt64(d.channels))
                    w.float(MatroskaID.samplingFrequency, Double(d.sampleRate))
                }
            }
            if !codecPrivate.isEmpty { w.binary(MatroskaID.codecPrivate, codecPrivate) }
        }
    }
}
