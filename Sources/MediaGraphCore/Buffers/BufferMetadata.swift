/// Flags of a buffer.
public struct BufferFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A key frame (sync sample): decoding can start here.
    public static let keyFrame = BufferFlags(rawValue: 1)
    /// Timestamps jump here (a gap or a splice).
    public static let discontinuity = BufferFlags(rawValue: 2)
    /// On an encoded packet: the stream's presentation ends at this packet's pts + duration (a
    /// trim's `end`, or padding a container marks at the end of the last audio packet). A decoder
    /// cuts what it decodes beyond that point (audio to the sample).
    public static let endOfPresentation = BufferFlags(rawValue: 4)
    /// On an encoded packet: read after a seek and wholly before time zero (a trim's lead-in).
    /// A seek may land inside a frame (MPEG-PS, MPEG-TS audio), so a decoder that has presented
    /// nothing yet drops such a packet quietly when it cannot be decoded: the seek's fault, not
    /// the file's.
    public static let leadIn = BufferFlags(rawValue: 8)
    /// On a decoded video frame: the decoder says the picture holds two fields sampled at
    /// different times (libavcodec's `interlaced_frame`), so a deinterlacer has work to do.
    public static let interlaced = BufferFlags(rawValue: 16)
    /// With `.interlaced`: the top field (even rows) was sampled first (libavcodec's
    /// `top_field_first`); without it, the bottom field was.
    public static let topFieldFirst = BufferFlags(rawValue: 32)
    /// On an encoded video packet: decode it (later pictures refer to it) but do not present its
    /// picture, nor any earlier one (libavformat's AV_PKT_FLAG_DISCARD). A segment of a longer run
    /// reads the pictures before its start this way and keeps the whole run's clock, so they
    /// cannot be told apart by a negative time.
    public static let decodeOnly = BufferFlags(rawValue: 64)
}

/// What describes a buffer's payload: format, timestamps, flags. A value: a sent `SampleBuffer`
/// holds it as a `let`; a `WritableBuffer` holds it as a `var` until it is sent.
///
/// Time zero is where presentation starts. Encoded packets before it (the GOP lead-in of a trim,
/// AAC priming, Opus pre-skip, media an edit list hides) have negative timestamps: a decoder
/// decodes them and presents nothing before zero (audio cut to the sample), a muxer that copies
/// them hides them with an edit list.
public struct BufferMetadata: Sendable, Hashable {
    /// Format of the payload.
    public var format: MediaFormat
    /// Presentation and decode time stamps and duration, in ticks of `timeBase` seconds.
    public var pts: Int64
    public var dts: Int64
    public var duration: Int64
    public var timeBase: Rational
    public var flags: BufferFlags
    /// Encoded buffers carry what a muxer needs to describe their stream.
    public var codecConfiguration: CodecConfiguration?
    /// Number of audio sample frames (per channel) in a raw audio buffer.
    public var sampleCount: Int
    /// On an encoded audio packet flagged `.endOfPresentation`: ticks at the end of it that are
    /// padding, not presented (the container's discard padding). `duration` still covers them, as
    /// the container stores it, so a stream copy keeps the packet as ffmpeg's `-c copy` does; a
    /// decoder ends presentation at pts + duration - discardPadding.
    public var discardPadding: Int64
    /// On an encoded video packet of a paletted codec (pal8 raw video, MS RLE, QuickTime
    /// Animation…): the palette from this packet on (256 native-endian ARGB words, libavcodec's
    /// AV_PKT_DATA_PALETTE), where the container gives it apart from the packet's bytes (AVI and
    /// MOV, with a stream's first packet). A decoder passes it on to libavcodec. nil otherwise.
    public var palette: [UInt8]?
    /// On a WebVTT cue: its identifier and settings (nil when it has neither).
    public var webVTT: WebVTTCueExtras?

    /// "No timestamp" (as AV_NOPTS_VALUE).
    public static let noTime = Int64.min

    public init(format: MediaFormat, pts: Int64 = BufferMetadata.noTime, dts: Int64? = nil, duration: Int64 = 0,
                timeBase: Rational, flags: BufferFlags = [], codecConfiguration: CodecConfiguration? = nil,
                sampleCount: Int = 0, discardPadding: Int64 = 0, palette: [UInt8]? = nil) {
        self.format = format
        self.pts = pts
        self.dts = dts ?? pts
        self.duration = duration
        self.timeBase = timeBase
        self.flags = flags
        self.codecConfiguration = codecConfiguration
        self.sampleCount = sampleCount
        self.discardPadding = discardPadding
        self.palette = palette
    }

    /// The presentation time as a `MediaTime` (nil when unknown).
    public var presentationTime: MediaTime? {
        pts == BufferMetadata.noTime ? nil : MediaTime(value: pts * timeBase.num, timescale: timeBase.den)
    }

    /// Takes timestamps, flags and codec configuration from `other` (format and sample count stay).
    public mutating func copyTiming(from other: BufferMetadata) {
        pts = other.pts
        dts = other.dts
        duration = other.duration
        timeBase = other.timeBase
        flags = other.flags
        discardPadding = other.discardPadding
        codecConfiguration = other.codecConfiguration
    }
}
