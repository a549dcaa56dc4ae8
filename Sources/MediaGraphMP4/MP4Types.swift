import MediaGraphCore

/// One encoded sample (access unit / audio frame) for the muxer. Times are integers in the
/// track's timescale (the one given to `addVideoTrack` / `addAudioTrack`), so nothing is rounded;
/// convert a `MediaTime` with `MediaTime.converted(to:)`.
public struct MP4Sample: Sendable {
    /// The coded bytes. H.264/HEVC may be Annex B (start codes) or 4-byte length-prefixed.
    /// Foreign memory (a demuxed AVPacket's buffer) is written as it is, without a copy.
    public var data: PacketBytes
    /// Presentation timestamp.
    public var pts: Int64
    /// Decode timestamp; strictly increasing within a track.
    public var dts: Int64
    /// Duration; 0 means "until the next sample's dts" (the last sample then repeats the
    /// previous duration).
    public var duration: Int64
    /// A random access point (IDR / key frame). Every audio frame is one.
    public var isSync: Bool
    /// Codec configuration, needed on the first sample unless given to addTrack.
    public var configuration: CodecConfiguration?

    public init(data: PacketBytes, pts: Int64, dts: Int64? = nil, duration: Int64 = 0, isSync: Bool,
                configuration: CodecConfiguration? = nil) {
        self.data = data
        self.pts = pts
        self.dts = dts ?? pts
        self.duration = duration
        self.isSync = isSync
        self.configuration = configuration
    }
}

extension MP4Sample {
    /// A sample of bytes of ours.
    public init(data: [UInt8], pts: Int64, dts: Int64? = nil, duration: Int64 = 0, isSync: Bool,
                configuration: CodecConfiguration? = nil) {
        self.init(data: PacketBytes(data), pts: pts, dts: dts, duration: duration, isSync: isSync, configuration: configuration)
    }

    /// A sample whose times are `MediaTime`s, converted to the track's `timescale` (exact when
    /// the timescale is a multiple of theirs, else rounded to the nearest tick).
    public init(data: [UInt8], pts: MediaTime, dts: MediaTime? = nil, duration: MediaTime? = nil, isSync: Bool,
                configuration: CodecConfiguration? = nil, timescale: Int64) {
        self.init(data: data, pts: pts.converted(to: timescale).value,
                  dts: (dts ?? pts).converted(to: timescale).value,
                  duration: duration.map { $0.converted(to: timescale).value } ?? 0,
                  isSync: isSync, configuration: configuration)
    }
}

/// How the file is laid out.
public struct MP4MuxerOptions: Sendable, Equatable {
    /// moov before mdat, so a player can start before the whole file has arrived.
    public var fastStart: Bool
    /// ftyp + moov(mvex), then moof+mdat fragments, each written as it completes.
    public var fragmented: Bool
    /// Minimum fragment length in seconds; a fragment starts at the first video key frame after it.
    public var fragmentDuration: Double
    /// How `fragmentDuration` places the cuts.
    public var fragmentCut: MP4FragmentCut
    /// Clockwise display rotation in degrees, 0, 90, 180 or 270, for every video track's matrix;
    /// nil leaves each track its own (`MP4TrackMetadata.rotation`, from the stream's format).
    public var rotation: Int?
    /// Movie timescale; nil picks one that represents every track's times exactly where possible.
    public var movieTimescale: Int64?
    /// Writes 64-bit chunk offsets (co64) even when 32 bits would do.
    public var forceCo64: Bool
    /// Longest run of one track's consecutive samples written as one chunk, in seconds (in a
    /// QuickTime movie a chunk is instead kept under 1 MiB, as ffmpeg's mov muxer keeps it).
    public var chunkDuration: Double
    /// The iTunes file type (major brand `M4A ` for audio only, `M4V ` with video), what ffmpeg's
    /// ipod muxer writes for a .m4a or .m4v name; otherwise `isom`.
    public var appleBrand: Bool
    /// Movie tags (title, artist, …) written in moov/udta as ffmpeg writes `-metadata`.
    public var tags: MP4Tags?
    /// Chapters, written as the Nero `chpl` box in moov/udta and, in a file (not in pieces for a
    /// receiver), as a QuickTime chapter track (a `text` track and a `tref/chap` in every track).
    public var chapters: [Chapter] = []
    /// A QuickTime movie (.mov) as ffmpeg's mov muxer writes one: brand `qt  `, a `wide` atom
    /// in front of the media, QuickTime handler references, QuickTime sample descriptions
    /// (ProRes, PCM sound, AAC in a `wave` atom), tags as QuickTime user data atoms
    /// (`QuickTimeUserData`: those of `tags` it holds).
    public var quickTime = false

    public init(fastStart: Bool = true, fragmented: Bool = false, fragmentDuration: Double = 1.0,
                rotation: Int? = nil, movieTimescale: Int64? = nil, forceCo64: Bool = false,
                chunkDuration: Double = 1.0, appleBrand: Bool = false, tags: MP4Tags? = nil,
                fragmentCut: MP4FragmentCut = .sincePrevious) {
        self.fastStart = fastStart
        self.fragmented = fragmented
        self.fragmentDuration = fragmentDuration
        self.fragmentCut = fragmentCut
        self.rotation = rotation
        self.movieTimescale = movieTimescale
        self.forceCo64 = forceCo64
        self.chunkDuration = chunkDuration
        self.appleBrand = appleBrand
        self.tags = tags
    }
}

/// Where a fragmented file is cut: always at the lead track's first sync sample (a video key
/// frame; any sample of audio only) once the rule says a fragment is due.
public enum MP4FragmentCut: Sendable, Equatable {
    /// At least `fragmentDuration` after the previous cut (the mp4 sink's `fragment-duration`).
    case sincePrevious
    /// At or after the next multiple of `fragmentDuration` from the first sample, as ffmpeg's
    /// hls muxer cuts at `hls_time`: with key frames every 1.5 s and 2 s segments that gives
    /// 3, 1.5, 1.5, … (4.5 and 6 s cuts), so the segments keep to the asked length on average.
    case grid
    /// Only before a sample appended with `append(_:to:startingFragment: true)`, key frame or
    /// not, and never on the muxer's own account (not past the 64 MiB queue either): the caller
    /// decides every cut and bounds a fragment's size. A DASH writer cuts each representation's
    /// muxer this way, so that audio segments end where ffmpeg's dash muxer ends them.
    case onRequest
}

/// A track of one muxer, as returned by `addVideoTrack` / `addAudioTrack`.
public struct MP4TrackID: Hashable, Sendable, CustomStringConvertible {
    /// 0-based position; the file's track_ID is index + 1.
    public let index: Int
    public var description: String { "track \(index + 1)" }
}

/// The muxer's life: idle until every track has its first sample, running while writing, then
/// completed, failed or cancelled (all final).
public enum MP4MuxerState: String, Sendable, Equatable {
    case idle, running, completed, failed, cancelled
}

/// What a track is: codec and, for video, size; for audio, rate and channels.
struct MP4TrackDescription {
    var id: Int
    var codec: Codec
    var width = 0
    var height = 0
    var sampleRate = 0
    var channels = 0
    var timescale: Int64
    var metadata = MP4TrackMetadata()
    /// The sample description type the stream's format names (ProRes: its profile's).
    var codecTag: String?
    /// Uncompressed sound in a QuickTime movie: one sample per sample frame.
    var pcm: QuickTimePCM?
    /// The channel layout of an audio track (QuickTime's `chan`).
    var channelLayout = ChannelLayout.unspecified

    var isVideo: Bool { codec.isVideo }
    var name: String {
        "track \(id) (\(isVideo ? "video" : "audio") \(codec.rawValue))"
    }
}
