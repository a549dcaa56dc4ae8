import MediaGraphCodecs
import MediaGraphCore

/// Timestamps that jump in a format that allows it (MPEG-TS, MPEG-PS, FLV…): recordings joined
/// with `cat`, a capture whose clock restarts. As ffmpeg does, a stream's packet that lands more
/// than 0.1 s before that stream's previous one, or more than 10 s from where it should follow
/// on (a stream's first packet: from the latest packet of any stream), moves every later packet
/// of the file by the same amount, so that this one follows on; all streams keep their relation,
/// and encoders and muxers get timestamps that increase.
final class TimestampJumps {
    /// ffmpeg's thresholds (`ts_discontinuity_detect`): a step back beyond 0.1 s, or a step
    /// either way beyond `dts_delta_threshold` (10 s).
    static let backMicros: Int64 = 100_000
    static let eitherWayMicros: Int64 = 10_000_000
    static let micros = Rational(1, 1_000_000)
    /// Every value here stays within ±2^60 (a hostile file's timestamps may be anything, and
    /// av_rescale_q gives Int64.min where the result does not fit): sums of a few never overflow,
    /// and filesrc refuses timestamps beyond ±2^60 ticks anyway.
    static func bounded(_ v: Int64) -> Int64 { min(max(v, -(1 << 60)), 1 << 60) }
    static func rescale(_ v: Int64, _ from: Rational, _ to: Rational) -> Int64 { bounded(Demuxer.rescale(v, from: from, to: to)) }

    /// Where one stream's timeline stands (microseconds, after the correction so far).
    struct StreamTimeline {
        var last: Int64?
        var next: Int64?
    }

    /// Added to every timestamp read from now on (microseconds).
    private(set) var offsetMicros: Int64 = 0
    /// The latest packet's dts of any stream (after the correction).
    private var fileLast: Int64?
    private(set) var count = 0
    /// The first jump, for the warning.
    private(set) var first: (stream: String, micros: Int64, at: Int64)?

    /// The correction so far in ticks of `timeBase`, for a packet just read.
    func shift(in timeBase: Rational) -> Int64 { Self.rescale(offsetMicros, Self.micros, timeBase) }

    /// Checks a packet's dts (already shifted) against its stream's timeline; returns the ticks to
    /// subtract from its timestamps when it jumped (0 otherwise), and moves the timeline on.
    func check(dts: Int64, duration: Int64, timeBase: Rational, stream: String, timeline: inout StreamTimeline) -> Int64 {
        var at = Self.rescale(dts, timeBase, Self.micros)
        var correction: Int64 = 0
        // a stream's packet against where it should follow on; its first packet, against the
        // latest of any stream (ffmpeg's "inter stream" check: a stream that first appears after
        // a jump the others have made)
        let expected = timeline.next ?? fileLast
        if let expected {
            let delta = at - expected
            let back = timeline.last.map { at + Self.backMicros < $0 } ?? false
            if Swift.abs(delta) > Self.eitherWayMicros || back {
                offsetMicros = Self.bounded(offsetMicros - delta)
                count += 1
                if first == nil { first = (stream, delta, expected) }
                correction = Self.rescale(delta, Self.micros, timeBase)
                at = expected
            }
        }
        fileLast = at
        timeline.last = at
        timeline.next = at + Self.rescale(max(0, duration), timeBase, Self.micros)
        return correction
    }

    /// Packets moved to one tick after their stream's previous one.
    private(set) var overlapsMoved = 0

    /// A packet whose dts is not after its stream's previous one (in the port's ticks) after the
    /// correction: where streams are joined, the next part's first packets may overlap the last
    /// ones of the part before by less than a jump. As ffmpeg's muxer does ("Non-monotonous
    /// DTS … changing to"), it moves to one tick after the previous, its pts no earlier.
    func follow(dts: inout Int64, pts: inout Int64, previous: Int64?) {
        guard let previous, dts <= previous else { return }
        dts = previous + 1
        pts = max(pts, dts)
        overlapsMoved += 1
    }

    /// What happened, for `run`'s warnings at the end; nil when nothing jumped.
    func warning(path: String) -> String? {
        guard let first else {
            return overlapsMoved == 0 ? nil : "\(overlapsMoved) packet\(overlapsMoved == 1 ? "" : "s") of '\(path)' not after the one before in \(overlapsMoved == 1 ? "its" : "their") stream moved to one tick after it, as ffmpeg's muxer does"
        }
        let size = TimeValue.clock(Rational(Swift.abs(first.micros), 1_000_000))
        let way = first.micros < 0 ? "back" : "forward"
        let more = count > 1 ? " (and \(count - 1) more time\(count == 2 ? "" : "s"))" : ""
        let overlaps = overlapsMoved == 0 ? "" : "; \(overlapsMoved) packet\(overlapsMoved == 1 ? "" : "s") that overlapped the one before in \(overlapsMoved == 1 ? "its" : "their") stream moved to one tick after it"
        return "the timestamps of '\(path)' jump \(way) \(size) at \(TimeValue.clock(Rational(first.at, 1_000_000))) in stream '\(first.stream)'\(more), as where recordings are joined: every later packet was moved to follow on\(overlaps), as ffmpeg does"
    }
}
