/// Format of raw video frames.
public struct VideoFormat: Hashable, Sendable, CustomStringConvertible {
    public var pixelFormat: PixelFormat
    public var width: Int
    public var height: Int
    /// Nominal frame rate; buffers carry their own timestamps (variable frame rate is allowed).
    public var frameRate: Rational
    public var range: ColorRange
    public var matrix: YCbCrMatrix
    public var sampleAspect: Rational

    public init(pixelFormat: PixelFormat, width: Int, height: Int, frameRate: Rational = Rational(25, 1),
                range: ColorRange? = nil, matrix: YCbCrMatrix = .bt601, sampleAspect: Rational = Rational(1, 1)) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.range = range ?? (pixelFormat.isRGB ? .full : .limited)
        self.matrix = matrix
        self.sampleAspect = sampleAspect
    }

    /// Time base of the frames' timestamps: one tick per nominal frame.
    public var timeBase: Rational { frameRate.inverse }

    public var description: String {
        "video/raw \(pixelFormat) \(width)x\(height) @\(frameRate) \(range)"
    }
}

/// Sample formats of raw audio.
public enum SampleFormat: String, CaseIterable, Hashable, Sendable {
    /// 32-bit float, one plane per channel.
    case f32planar
    /// 32-bit float, channels interleaved.
    case f32
    /// 16-bit signed, channels interleaved.
    case s16

    public var bytesPerSample: Int { self == .s16 ? 2 : 4 }
    public var isPlanar: Bool { self == .f32planar }
}

/// Format of raw audio.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleFormat: SampleFormat
    public var sampleRate: Int
    public var channels: Int

    public init(sampleFormat: SampleFormat, sampleRate: Int, channels: Int) {
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { "audio/raw \(sampleFormat) \(sampleRate)Hz \(channels)ch" }
}

/// Compressed formats.
public enum Codec: String, CaseIterable, Hashable, Sendable {
    case h264, hevc, vp8, vp9, aac

    public var isVideo: Bool { self != .aac }
}

/// Format of encoded video packets. The codec configuration (parameter sets …) is known only once
/// the encoder has opened, so it travels with the buffers (`SampleBuffer.codecConfiguration`).
public struct EncodedVideoFormat: Hashable, Sendable, CustomStringConvertible {
    public var codec: Codec
    public var width: Int
    public var height: Int
    public var frameRate: Rational
    /// Time base of the packets' pts/dts.
    public var timeBase: Rational

    public init(codec: Codec, width: Int, height: Int, frameRate: Rational, timeBase: Rational) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.timeBase = timeBase
    }

    public var description: String { "video/\(codec) \(width)x\(height) @\(frameRate)" }
}

/// Format of encoded audio packets.
public struct EncodedAudioFormat: Hashable, Sendable, CustomStringConvertible {
    public var codec: Codec
    public var sampleRate: Int
    public var channels: Int

    public init(codec: Codec, sampleRate: Int, channels: Int) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { "audio/\(codec) \(sampleRate)Hz \(channels)ch" }
}

/// What flows on an edge.
public enum MediaFormat: Hashable, Sendable, CustomStringConvertible {
    case video(VideoFormat)
    case audio(AudioFormat)
    case encodedVideo(EncodedVideoFormat)
    case encodedAudio(EncodedAudioFormat)

    public var description: String {
        switch self {
        case .video(let f): return f.description
        case .audio(let f): return f.description
        case .encodedVideo(let f): return f.description
        case .encodedAudio(let f): return f.description
        }
    }

    public var video: VideoFormat? { if case .video(let f) = self { return f } else { return nil } }
    public var audio: AudioFormat? { if case .audio(let f) = self { return f } else { return nil } }
}
