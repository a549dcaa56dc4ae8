import MediaGraphCore

/// What a container says about the whole file.
public struct ContainerInfo: Sendable {
    /// libavformat's short name of the demuxer ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "mpegts").
    public var formatName: String
    /// Its long name ("QuickTime / MOV").
    public var formatLongName: String
    /// Duration in microseconds, nil when the container does not say.
    public var duration: Int64?
    /// Presentation time of the earliest stream's start, in microseconds (what ffmpeg subtracts
    /// so that output starts at zero), nil when unknown.
    public var startTime: Int64?
    /// Total bit rate in bits per second, 0 when unknown.
    public var bitRate: Int64
    /// Container tags (title, creation_time, encoder, …), in the container's order.
    public var tags: TagList
    /// The container's chapters (libavformat's AVChapters), in its order.
    public var chapters: [Chapter]
    /// The format allows timestamps to jump (MPEG-TS): jumps are flagged, not errors.
    public var allowsDiscontinuities: Bool
    /// Seeking is by presentation time (MP4); otherwise by decode time (Matroska, TS, …).
    public var seeksByPresentationTime: Bool
}

/// libavutil's words for a stream's colour description ("tv", "bt709", "smpte170m", "left").
public struct ColorNames: Sendable {
    public var range: String?
    public var space: String?
    public var primaries: String?
    public var transfer: String?
    public var chromaLocation: String?
    public init() {}
}

/// What a container says about one stream, in MediaGraph's types; the libav names are kept where
/// MediaGraph has no exact equivalent (`nativePixelFormat`), so a decoder knows to convert.
public struct StreamInfo: Sendable {
    public enum Kind: String, Sendable {
        case video, audio, subtitle, data, attachment, unknown
    }

    /// Index in the container (ffprobe's `index`, ffmpeg's `0:N`).
    public var index: Int
    public var kind: Kind
    /// The codec by libavcodec's name; `Codec.Kind.data` for kinds without a codec kind.
    public var codec: Codec
    /// libavcodec's long name of the codec, when it knows the codec.
    public var codecLongName: String?
    /// The container's four-character code for the stream ("avc1", "tmcd"), when it has a
    /// printable one: what names a stream libavcodec has no codec for (a QuickTime timecode).
    public var codecTag: String?
    /// Codec profile name ("High", "Main 10", "LC"), when known.
    public var profileName: String?
    /// Raw `profile` and `level` numbers (-99 when unknown, as FF_PROFILE_UNKNOWN).
    public var profile: Int
    public var level: Int
    /// Time base of the stream's packet timestamps.
    public var timeBase: Rational
    /// First presentation time in ticks of `timeBase`, nil when unknown.
    public var startTime: Int64?
    /// Duration in ticks of `timeBase`, nil when unknown.
    public var duration: Int64?
    /// Frames (packets) the container declares, 0 when it does not say.
    public var frameCount: Int64
    public var bitRate: Int64
    /// Codec-private data exactly as the container stored it (avcC, hvcC, AudioSpecificConfig,
    /// OpusHead, Annex B parameter sets …), empty when there is none.
    public var extradata: [UInt8]
    /// Stream tags (language, title, handler_name, rotate, creation_time, …).
    public var tags: [String: String]
    public var language: String?
    public var title: String?
    /// Seconds since 1970 of the creation_time tag.
    public var creationTime: Int64?
    public var isDefault: Bool
    /// Shown even when subtitles are off (libavformat's forced disposition).
    public var isForced = false
    /// A cover image (MP3/M4A artwork), not a moving picture.
    public var isAttachedPicture: Bool

    // video
    public var width = 0
    public var height = 0
    /// The pixel format MediaGraph decodes this stream to; equal to `nativePixelFormat` unless
    /// MediaGraph has no such format (then the nearest one, and the decoder converts).
    public var pixelFormat: PixelFormat = .yuv420p
    /// libavutil's name of the stream's own pixel format ("yuv420p", "nv12", "yuv420p12le"),
    /// nil when the container does not say.
    public var nativePixelFormat: String?
    /// Bits per coded sample (`EncodedVideoFormat.codedBitsPerSample`, `AudioCodingParameters`;
    /// 0 when not said).
    public var codedBitsPerSample = 0
    /// Bytes per audio block (WMA, ADPCM, PCM in AVI/WAV; 0 when not said).
    public var blockAlign = 0
    /// Bits per component of the coded pictures (0 when unknown).
    public var bitDepth = 0
    public var averageFrameRate: Rational?
    /// libavformat's guess of the lowest rate that represents every timestamp (r_frame_rate).
    public var realFrameRate: Rational?
    public var range: ColorRange = .unspecified
    public var matrix: YCbCrMatrix = .unspecified
    public var color: VideoColor = .unspecified
    /// Raw H.273 codes as the stream signals them (colour enums keep only the named ones).
    public var primariesCode = 2, transferCode = 2, matrixCode = 2
    /// libavutil's names of range, matrix, primaries, transfer and chroma siting, as ffprobe
    /// prints them (nil when unspecified).
    public var colorNames = ColorNames()
    public var sampleAspect = Rational(1, 1)
    /// Clockwise degrees to turn the picture for display (0, 90, 180, 270), from the display
    /// matrix; nil without one.
    public var rotation: Int?
    /// The display matrix also mirrors the picture (kept as metadata, not applied to pixels).
    public var isMirrored = false
    /// Frames a decoder holds back for reordering (B-frames), from the codec parameters.
    public var videoDelay = 0
    /// Field order word ("progressive", "tt", "bb", "tb", "bt"), nil when unknown.
    public var fieldOrder: String?

    // audio
    public var sampleRate = 0
    public var channels = 0
    public var channelLayout = ChannelLayout.unspecified
    /// libavutil's description of the layout ("stereo", "5.1(side)"), when known.
    public var channelLayoutName: String?
    public var sampleFormat: SampleFormat = .f32planar
    /// libavutil's name of the stream's own sample format, nil when not said.
    public var nativeSampleFormat: String?
    /// Samples per frame (1024 for AAC), 0 when variable or unknown.
    public var frameSize = 0
    /// Encoder delay in samples the codec parameters declare (Opus pre-skip, AAC priming).
    public var initialPadding = 0

    public init(index: Int, kind: Kind, codec: Codec, timeBase: Rational) {
        self.index = index
        self.kind = kind
        self.codec = codec
        self.codecLongName = nil
        self.profileName = nil
        self.profile = -99
        self.level = -99
        self.timeBase = timeBase
        self.startTime = nil
        self.duration = nil
        self.frameCount = 0
        self.bitRate = 0
        self.extradata = []
        self.tags = [:]
        self.isDefault = false
        self.isAttachedPicture = false
    }

    /// The nominal frame rate: the average rate, else libavformat's guess, else 25.
    public var frameRate: Rational {
        if let r = averageFrameRate, r.num > 0 { return r }
        if let r = realFrameRate, r.num > 0 { return r }
        return Rational(25, 1)
    }

    public var streamTags: StreamTags { StreamTags(language: language, title: title, creationTime: creationTime) }

    /// What a text subtitle stream's packets are, with the stream's time base.
    public var subtitleFormat: SubtitleFormat {
        SubtitleFormat(codec: codec, timeBase: timeBase, extradata: extradata, tags: streamTags, isDefault: isDefault, isForced: isForced)
    }

    /// What decoding this video stream yields: size, pixel format, colour, aspect, rotation,
    /// tags, with the stream's time base.
    public var videoFormat: VideoFormat {
        var f = VideoFormat(pixelFormat: pixelFormat, width: width, height: height, frameRate: frameRate,
                            range: range, matrix: matrix, color: color, sampleAspect: sampleAspect, rotation: rotation ?? 0,
                            tags: streamTags, timeBase: timeBase)
        f.mirrored = isMirrored
        f.interlacing = fieldOrder.flatMap(FieldOrder.init(libavName:))
        return f
    }

    /// What decoding this audio stream yields.
    public var audioFormat: AudioFormat {
        AudioFormat(sampleFormat: sampleFormat, sampleRate: sampleRate, channels: channels,
                    channelLayout: channelLayout, tags: streamTags)
    }

    /// Start time in seconds (nil when unknown).
    public var startSeconds: Double? { startTime.map { Double($0) * timeBase.doubleValue } }
    /// Duration in seconds (nil when unknown).
    public var durationSeconds: Double? { duration.map { Double($0) * timeBase.doubleValue } }
}
