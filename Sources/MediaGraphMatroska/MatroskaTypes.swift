import MediaGraphCore

/// The EBML DocType: WebM (the subset browsers play: VP8, VP9, Opus) or full Matroska.
public enum MatroskaDocType: String, Sendable, Equatable {
    case webm
    case matroska
}

/// A track of one muxer, as returned by `addTrack`.
public struct MatroskaTrackID: Hashable, Sendable, CustomStringConvertible {
    /// 0-based position; the file's TrackNumber is index + 1.
    public let index: Int
    public var description: String { "track \(index + 1)" }
}

/// One encoded packet for the muxer, times in its track's time base (the one given to
/// `addTrack`), converted to the file's milliseconds with one rounding, as ffmpeg rounds.
public struct MatroskaPacket: Sendable {
    /// The coded bytes. H.264/HEVC may be Annex B or length-prefixed; foreign memory (a demuxed
    /// packet) is written as it is, without a copy.
    public var data: PacketBytes
    /// Presentation time: what Matroska blocks store (B-frames keep their decode order).
    public var pts: Int64
    /// Decode time: orders the packets of all tracks in the file.
    public var dts: Int64
    public var duration: Int64
    public var isKeyFrame: Bool
    /// Time at the end of the packet that decoders drop (Opus end trimming), as the Block
    /// group's DiscardPadding.
    public var discardPadding: Int64
    /// Codec configuration (parameter sets, OpusHead fields …), needed on a track's first
    /// packet unless given to `addTrack`.
    public var configuration: CodecConfiguration?
    /// A WebVTT cue's identifier and settings, which lead its block.
    public var webVTT: WebVTTCueExtras?

    public init(data: PacketBytes, pts: Int64, dts: Int64? = nil, duration: Int64 = 0, isKeyFrame: Bool,
                discardPadding: Int64 = 0, configuration: CodecConfiguration? = nil, webVTT: WebVTTCueExtras? = nil) {
        self.webVTT = webVTT
        self.data = data
        self.pts = pts
        self.dts = dts ?? pts
        self.duration = duration
        self.isKeyFrame = isKeyFrame
        self.discardPadding = discardPadding
        self.configuration = configuration
    }
}

/// The muxer's life: idle until every track has its first packet (the track headers need their
/// codec configurations), running while writing clusters, then completed, failed or cancelled.
public enum MatroskaMuxerState: String, Sendable, Equatable {
    case idle, running, completed, failed, cancelled
}
