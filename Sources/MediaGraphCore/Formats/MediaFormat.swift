/// How a picture's lines were captured: all at once, or as two fields of alternate lines taken
/// one after the other (interlaced), and which field is shown first.
public enum FieldOrder: String, Hashable, Sendable {
    case progressive
    case topFieldFirst = "top field first"
    case bottomFieldFirst = "bottom field first"

    /// libavformat's field order names: tt and bt show the top field first, bb and tb the bottom one.
    public init?(libavName: String) {
        switch libavName {
        case "progressive": self = .progressive
        case "tt", "bt": self = .topFieldFirst
        case "bb", "tb": self = .bottomFieldFirst
        default: return nil
        }
    }
}

/// Format of raw video frames, with everything a player needs to show them as the source meant:
/// colour (matrix, range, primaries, transfer, chroma siting), sample aspect ratio and display
/// rotation, and the stream's tags. Filters keep what they do not change; encoders and the MP4
/// muxer write it out.
public struct VideoFormat: Hashable, Sendable, CustomStringConvertible {
    public var pixelFormat: PixelFormat
    public var width: Int
    public var height: Int
    /// Nominal frame rate; buffers carry their own timestamps (variable frame rate is allowed).
    public var frameRate: Rational
    /// Time base of the frames' timestamps: one tick per nominal frame for generated video, the
    /// stream's own time base for decoded video (1/90000, 1/15360, …).
    public var timeBase: Rational
    public var range: ColorRange
    public var matrix: YCbCrMatrix
    public var color: VideoColor
    public var sampleAspect: Rational
    /// Display rotation, 0, 90, 180 or 270: libavutil's `av_display_rotation_get` angle (ffprobe's
    /// `rotation`, what ffmpeg 5.1's `rotate` tag writes), by which a player turns the picture
    /// counterclockwise: ffmpeg's autorotate undoes 90 with `transpose=cclock` (`RotateNode`).
    public var rotation: Int
    /// The display matrix also mirrors the picture: its first row is `rotation`'s and its
    /// second row is negated (the determinant is −1), as a file's matrix says it. Kept so an
    /// MP4 written from the stream shows it as the source does; `rotate`'s `auto` undoes it with
    /// the turn, and frames turned by given degrees carry none.
    public var mirrored: Bool = false
    /// Whether the pictures are two interlaced fields, and which is shown first, as the
    /// container or decoder says (nil: not said). A deinterlacer makes them progressive;
    /// validation notes interlaced frames reaching an encoder or sink (`interlacedFrameNotes`).
    public var interlacing: FieldOrder?
    public var tags: StreamTags

    public init(pixelFormat: PixelFormat, width: Int, height: Int, frameRate: Rational = Rational(25, 1),
                range: ColorRange? = nil, matrix: YCbCrMatrix = .unspecified, color: VideoColor = .unspecified,
                sampleAspect: Rational = Rational(1, 1), rotation: Int = 0, tags: StreamTags = StreamTags(),
                timeBase: Rational? = nil) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.timeBase = timeBase ?? frameRate.inverse ?? Rational(1, 25)
        self.range = range ?? (pixelFormat.isRGB ? .full : .limited)
        self.matrix = matrix
        self.color = color
        self.sampleAspect = sampleAspect
        self.rotation = rotation
        self.tags = tags
    }

    /// Whether full-range arithmetic applies (RGB, or YUV tagged full).
    public var isFullRange: Bool { pixelFormat.isRGB || range == .full }

    public var description: String {
        "video/raw \(pixelFormat) \(width)x\(height) @\(frameRate) \(range)" + VideoFormat.extras(self)
    }

    /// The metadata a description shows when it is set.
    static func extras(_ f: VideoFormat) -> String {
        var s = ""
        if f.matrix != .unspecified { s += " \(f.matrix.rawValue)" }
        let c = f.color.description
        if !c.isEmpty { s += " " + c }
        if f.sampleAspect != Rational(1, 1) && f.sampleAspect.num > 0 { s += " sar \(f.sampleAspect.num):\(f.sampleAspect.den)" }
        if f.rotation != 0 { s += " rotated \(f.rotation)°" }
        if f.mirrored { s += " mirrored" }
        if let l = f.tags.language { s += " [\(l)]" }
        return s
    }
}

/// Sample formats of raw audio (libavutil's, with `planar` for its `p` suffix).
public enum SampleFormat: String, CaseIterable, Hashable, Sendable {
    /// 32-bit float, one plane per channel.
    case f32planar
    /// 32-bit float, channels interleaved.
    case f32
    /// 16-bit signed, channels interleaved.
    case s16
    case s16planar, s32, s32planar, f64, f64planar, u8, u8planar

    public var bytesPerSample: Int {
        switch self {
        case .u8, .u8planar: return 1
        case .s16, .s16planar: return 2
        case .f32, .f32planar, .s32, .s32planar: return 4
        case .f64, .f64planar: return 8
        }
    }
    public var isPlanar: Bool { rawValue.hasSuffix("planar") }
    /// libavutil's name (`fltp`, `s16`, …), as `ffmpeg -sample_fmt` takes it.
    public var ffmpegName: String {
        switch self {
        case .f32planar: return "fltp"
        case .f32: return "flt"
        case .f64planar: return "dblp"
        case .f64: return "dbl"
        case .s16planar: return "s16p"
        case .s32planar: return "s32p"
        case .u8planar: return "u8p"
        default: return rawValue
        }
    }
}

/// Which loudspeaker each channel feeds: libavutil's native channel mask (AV_CH_*, in WAVE
/// order), or 0 when the source does not say (then the default order for the channel count).
public struct ChannelLayout: Hashable, Sendable, CustomStringConvertible {
    public var mask: UInt64

    public init(mask: UInt64) { self.mask = mask }

    public static let unspecified = ChannelLayout(mask: 0)
    public static let mono = ChannelLayout(mask: 0x4)
    public static let stereo = ChannelLayout(mask: 0x3)
    public static let surround51 = ChannelLayout(mask: 0x60F)

    public var description: String {
        switch mask {
        case 0: return "unspecified"
        case 0x4: return "mono"
        case 0x3: return "stereo"
        case 0x60F: return "5.1"
        case 0x3F: return "5.1(back)"
        default: return "0x" + String(mask, radix: 16)
        }
    }
}

/// Format of raw audio.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleFormat: SampleFormat
    public var sampleRate: Int
    public var channels: Int
    public var channelLayout: ChannelLayout
    public var tags: StreamTags

    public init(sampleFormat: SampleFormat, sampleRate: Int, channels: Int,
                channelLayout: ChannelLayout = .unspecified, tags: StreamTags = StreamTags()) {
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channels = channels
        self.channelLayout = channelLayout
        self.tags = tags
    }

    public var description: String {
        var s = "audio/raw \(sampleFormat) \(sampleRate)Hz \(channels)ch"
        if channelLayout != .unspecified { s += " \(channelLayout)" }
        if let l = tags.language { s += " [\(l)]" }
        return s
    }
}

/// Format of encoded video packets. `raw` describes what decoding yields (size, pixel format,
/// colour, aspect, rotation, tags): a demuxed stream states it from its container, an encoder
/// passes on its input's. The codec configuration (parameter sets …) travels with the buffers
/// (`SampleBuffer.codecConfiguration`), since an encoder knows it only once it has opened;
/// `extradata` is the codec-private data as a container stored it (avcC, hvcC, OpusHead, …),
/// which a decoder needs before the first packet (empty when there is none or it is in-band).
public struct EncodedVideoFormat: Hashable, Sendable, CustomStringConvertible {
    public var codec: Codec
    public var raw: VideoFormat
    /// Time base of the packets' pts/dts.
    public var timeBase: Rational
    public var extradata: [UInt8]
    /// libavutil's name of the pixel format the container states ("yuv420p12le", "rgb24",
    /// "yuyv422"), nil when it does not say. A decoder gets it as ffmpeg gives it to libavcodec
    /// (uncompressed video cannot be opened without it); it can differ from `raw.pixelFormat`, the
    /// nearest format MediaGraph decodes to, and pictures in it are then converted as planned.
    public var storedLayout: String?
    /// Bits per coded sample as the container states it (0: not said): QuickTime Animation,
    /// Microsoft RLE and other palette or RGB codecs cannot be opened without it.
    public var codedBitsPerSample: Int
    /// The four-character code that names the coding variant where the codec's packets do not
    /// (ProRes: `apch` is HQ, `ap4h` 4444 …), as an encoder or a container states it; nil when
    /// none is known.
    public var codecTag: String?

    public init(codec: Codec, raw: VideoFormat, timeBase: Rational, extradata: [UInt8] = [], storedLayout: String? = nil,
                codedBitsPerSample: Int = 0, codecTag: String? = nil) {
        self.codec = codec
        self.raw = raw
        self.timeBase = timeBase
        self.extradata = extradata
        self.storedLayout = storedLayout
        self.codedBitsPerSample = codedBitsPerSample
        self.codecTag = codecTag
    }

    public init(codec: Codec, width: Int, height: Int, frameRate: Rational, timeBase: Rational) {
        self.init(codec: codec, raw: VideoFormat(pixelFormat: .yuv420p, width: width, height: height, frameRate: frameRate),
                  timeBase: timeBase)
    }

    public var width: Int { get { raw.width } set { raw.width = newValue } }
    public var height: Int { get { raw.height } set { raw.height = newValue } }
    public var frameRate: Rational { get { raw.frameRate } set { raw.frameRate = newValue } }

    /// The range is named only when full: limited is what every codec assumes.
    public var description: String {
        "video/\(codec) \(width)x\(height) @\(frameRate)" + (raw.range == .full ? " full" : "") + VideoFormat.extras(raw)
    }
}

/// Block size, bits per coded sample and bit rate of an audio stream as its container states them
/// (0 where it does not say): what some decoders need to open.
public struct AudioCodingParameters: Hashable, Sendable {
    public var blockAlign: Int
    public var codedBitsPerSample: Int
    public var bitRate: Int64

    public init(blockAlign: Int = 0, codedBitsPerSample: Int = 0, bitRate: Int64 = 0) {
        self.blockAlign = blockAlign
        self.codedBitsPerSample = codedBitsPerSample
        self.bitRate = bitRate
    }
}

/// Format of encoded audio packets; `raw` is what decoding yields. Encoder delay (AAC priming,
/// Opus pre-skip) is not a field: packets before time zero carry it (see `SampleBuffer`).
public struct EncodedAudioFormat: Hashable, Sendable, CustomStringConvertible {
    public var codec: Codec
    public var raw: AudioFormat
    /// Time base of the packets' pts/dts (nil: 1/sampleRate).
    public var timeBase: Rational
    public var extradata: [UInt8]
    /// What the container states about the coding (0: not said), passed to a decoder as ffmpeg
    /// passes it: WMA and IMA ADPCM cannot be opened without the block size, G.726 without the
    /// bits per sample.
    public var coding: AudioCodingParameters

    public init(codec: Codec, raw: AudioFormat, timeBase: Rational? = nil, extradata: [UInt8] = [],
                coding: AudioCodingParameters = AudioCodingParameters()) {
        self.codec = codec
        self.raw = raw
        self.timeBase = timeBase ?? Rational(1, Int64(max(1, raw.sampleRate)))
        self.extradata = extradata
        self.coding = coding
    }

    public init(codec: Codec, sampleRate: Int, channels: Int) {
        self.init(codec: codec, raw: AudioFormat(sampleFormat: .f32planar, sampleRate: sampleRate, channels: channels))
    }

    public var sampleRate: Int { get { raw.sampleRate } set { raw.sampleRate = newValue } }
    public var channels: Int { get { raw.channels } set { raw.channels = newValue } }

    public var description: String {
        var s = "audio/\(codec) \(sampleRate)Hz \(channels)ch"
        if raw.channelLayout != .unspecified { s += " \(raw.channelLayout)" }
        if let l = raw.tags.language { s += " [\(l)]" }
        return s
    }
}

/// What flows on an edge.
public enum MediaFormat: Hashable, Sendable, CustomStringConvertible {
    case video(VideoFormat)
    case audio(AudioFormat)
    case encodedVideo(EncodedVideoFormat)
    case encodedAudio(EncodedAudioFormat)
    /// Encoded text subtitles: one cue per packet.
    case subtitle(SubtitleFormat)

    public var description: String {
        switch self {
        case .video(let f): return f.description
        case .audio(let f): return f.description
        case .encodedVideo(let f): return f.description
        case .encodedAudio(let f): return f.description
        case .subtitle(let f): return f.description
        }
    }

    public var video: VideoFormat? { if case .video(let f) = self { return f } else { return nil } }
    /// Pictures, raw or encoded.
    public var isVideo: Bool {
        switch self {
        case .video, .encodedVideo: return true
        default: return false
        }
    }
    public var audio: AudioFormat? { if case .audio(let f) = self { return f } else { return nil } }
    public var subtitle: SubtitleFormat? { if case .subtitle(let f) = self { return f } else { return nil } }
    /// Packets of a codec (video, audio or subtitles).
    public var isEncoded: Bool {
        switch self {
        case .encodedVideo, .encodedAudio, .subtitle: return true
        default: return false
        }
    }
    /// The codec of an encoded format.
    public var codec: Codec? {
        switch self {
        case .encodedVideo(let f): return f.codec
        case .encodedAudio(let f): return f.codec
        case .subtitle(let f): return f.codec
        default: return nil
        }
    }
    /// The stream's tags, whatever the kind of format.
    public var tags: StreamTags {
        switch self {
        case .video(let f): return f.tags
        case .audio(let f): return f.tags
        case .encodedVideo(let f): return f.raw.tags
        case .encodedAudio(let f): return f.raw.tags
        case .subtitle(let f): return f.tags
        }
    }
}
