/// A segment of one representation as a SegmentTimeline states it: where it starts on the
/// representation's presentation timeline and how long it lasts, in the track's timescale.
public struct DASHSegment: Sendable, Equatable {
    /// `S@t`: presentation time of the segment's start.
    public var time: Int64
    /// `S@d`.
    public var duration: Int64
    /// Whether its first sample is a key frame (every audio frame is one).
    public var startsWithKeyFrame: Bool

    public init(time: Int64, duration: Int64, startsWithKeyFrame: Bool = true) {
        self.time = time
        self.duration = duration
        self.startsWithKeyFrame = startsWithKeyFrame
    }
}

/// Where ffmpeg's dash muxer (libavformat/dashenc.c of 5.1, `-use_template 1 -use_timeline 1`)
/// ends segments, and the timeline it states for them. Samples come in decode order across
/// tracks (ffmpeg's interleaver: the smaller dts first, the lower track on a tie):
///
/// - a track's segment ends before a key frame (any audio frame) whose pts is at least
///   `segmentDuration` after the segment's start — a rule counted from the previous cut, not a
///   grid as HLS's `hls_time` (key frames every 1.48 s with 2 s segments give 2.96 s segments);
/// - when a video track's segment ends, every audio track's ends there too, unless the audio
///   already ended more segments by its own rule than the video did (so audio is cut at the
///   video's key frames while they come in time, and every 2 s of its own otherwise); other
///   video tracks are not cut: each ends its segments at its own key frames, and the audio
///   follows whichever video cuts first;
/// - a segment starts where the previous one ended (the latest pts + duration seen), the first
///   at its first sample's pts; a start before 0 (AAC priming) is moved to 0, shortening it.
///
/// One more rule of ours: a segment past `byteLimit` ends at its next sample even without a
/// key frame, so a stream whose key frames never come cannot grow memory without bound (the
/// segment then does not start with a key frame; `DASHSegment.startsWithKeyFrame` says so).
public struct DASHSegmenter: Sendable {
    /// What is known of one track's current segment.
    struct Track: Sendable {
        let isVideo: Bool
        let timescale: Int64
        /// ffmpeg's start_pts.
        var segmentStart: Int64 = 0
        /// ffmpeg's max_pts: the latest pts + duration so far.
        var presentationEnd: Int64?
        var samplesInSegment = 0
        var bytesInSegment = 0
        var startsWithKeyFrame = true
        var lastDTS: Int64?
        var segments: [DASHSegment] = []
    }

    /// Seconds, in microseconds as ffmpeg holds `seg_duration`.
    public let segmentMicroseconds: Int64
    public let byteLimit: Int
    var tracks: [Track] = []

    /// - Parameter segmentDuration: seconds (ffmpeg's `-seg_duration`), rounded to microseconds.
    public init(segmentDuration: Double, byteLimit: Int = 64 << 20) {
        segmentMicroseconds = max(1, Int64((segmentDuration * 1_000_000).rounded()))
        self.byteLimit = byteLimit
    }

    /// Adds a track; returns its number, the order of `place(track:…)`'s tie-break.
    public mutating func addTrack(isVideo: Bool, timescale: Int64) -> Int {
        tracks.append(Track(isVideo: isVideo, timescale: timescale))
        return tracks.count - 1
    }

    /// The segments of `track` decided so far (the current one is not among them until it ends).
    public func segments(of track: Int) -> [DASHSegment] { tracks[track].segments }

    /// Where the presentation of `track` ends so far (latest pts + duration), in its timescale.
    public func presentationEnd(of track: Int) -> Int64? { tracks[track].presentationEnd }

    /// Takes the next sample in decode order and returns whether it starts a new segment of its
    /// track (not the first: that one starts with the track). `duration` 0 means "until this
    /// sample's successor", which ffmpeg guesses as the previous dts step.
    public mutating func place(track i: Int, pts: Int64, dts: Int64, duration: Int64, isKeyFrame: Bool, bytes: Int) -> Bool {
        var t = tracks[i]
        let length = duration > 0 ? duration : t.lastDTS.map { max(0, dts - $0) } ?? 0
        t.lastDTS = dts
        let key = isKeyFrame || !t.isVideo
        if t.samplesInSegment > 0 {
            if key && Self.atLeast(pts - t.segmentStart, ticksPerSecond: t.timescale, microseconds: segmentMicroseconds) {
                tracks[i] = t
                endSegments(cutBy: i)
                t = tracks[i]
            } else if t.bytesInSegment >= byteLimit {
                Self.endSegment(&t)
            }
        }
        var starts = false
        if t.samplesInSegment == 0 {
            t.segmentStart = t.presentationEnd ?? pts
            t.startsWithKeyFrame = key
            starts = !t.segments.isEmpty
        }
        t.presentationEnd = max(t.presentationEnd ?? .min, pts + length)
        t.samplesInSegment += 1
        t.bytesInSegment += bytes
        tracks[i] = t
        return starts
    }

    /// Ends every track's current segment (the end of the run).
    public mutating func finish() {
        for i in tracks.indices where tracks[i].samplesInSegment > 0 { Self.endSegment(&tracks[i]) }
    }

    /// ffmpeg's dash_flush for a stream: that track, and after a video cut the audio tracks
    /// that have not ended more segments than the video has.
    mutating func endSegments(cutBy i: Int) {
        let done = tracks[i].segments.count
        let video = tracks[i].isVideo
        Self.endSegment(&tracks[i])
        guard video else { return }
        for k in tracks.indices where k != i && !tracks[k].isVideo && tracks[k].samplesInSegment > 0 && tracks[k].segments.count <= done {
            Self.endSegment(&tracks[k])
        }
    }

    static func endSegment(_ t: inout Track) {
        var s = DASHSegment(time: t.segmentStart, duration: (t.presentationEnd ?? t.segmentStart) - t.segmentStart,
                            startsWithKeyFrame: t.startsWithKeyFrame)
        // presented before 0 (AAC priming, a B-frame lead-in): hidden by the edit list
        if s.time < 0 {
            s.duration += s.time
            s.time = 0
        }
        t.segments.append(s)
        t.samplesInSegment = 0
        t.bytesInSegment = 0
    }

    /// ticks / ticksPerSecond ≥ microseconds / 10⁶, exactly (ffmpeg's av_compare_ts).
    static func atLeast(_ ticks: Int64, ticksPerSecond: Int64, microseconds: Int64) -> Bool {
        let l = ticks.multipliedFullWidth(by: 1_000_000)
        let r = microseconds.multipliedFullWidth(by: ticksPerSecond)
        return (l.high, l.low) >= (r.high, r.low)
    }
}
