import MediaGraphCodecs
import MediaGraphCore

/// Finds what `filesrc` would correct in a file whose timestamps may jump (MPEG-TS/PS): a jump
/// (`TimestampJumps`, ffmpeg's rule) or a packet not after the one before in its stream. A
/// segment task seeks by time and reads fewer streams than the whole run, so it would correct
/// differently, or not at all: `plan` refuses such a file instead.
final class JumpCheck {
    struct Stream {
        var info: StreamInfo
        var nominalDuration: Int64
        var timeline = TimestampJumps.StreamTimeline()
        var lastDTS: Int64?
    }

    private let jumps = TimestampJumps()
    private var streams: [Int: Stream] = [:]

    init(streams read: [StreamInfo]) {
        for s in read {
            var nominal: Int64 = 0
            if s.kind == .audio && s.frameSize > 0 && s.sampleRate > 0 {
                nominal = Demuxer.rescale(Int64(s.frameSize), from: Rational(1, Int64(s.sampleRate)), to: s.timeBase)
            } else if s.kind == .video {
                nominal = max(0, Demuxer.rescale(1, from: s.frameRate.inverse ?? Rational(1, 25), to: s.timeBase))
            }
            streams[s.index] = Stream(info: s, nominalDuration: nominal)
        }
    }

    /// What is wrong with this packet's time, nil when it follows on.
    func check(_ p: DemuxedPacket) -> String? {
        guard var s = streams[p.streamIndex], !p.isDiscarded else { return nil }
        defer { streams[p.streamIndex] = s }
        let dts = p.dts != DemuxedPacket.noTime ? p.dts : p.pts
        guard dts != DemuxedPacket.noTime else { return nil }
        let tb = s.info.timeBase
        let name = "stream \(s.info.index) (\(s.info.kind))"
        if jumps.check(dts: dts, duration: p.duration > 0 ? p.duration : s.nominalDuration, timeBase: tb,
                       stream: name, timeline: &s.timeline) != 0, let first = jumps.first {
            let size = TimeValue.clock(Rational(Swift.abs(first.micros), 1_000_000))
            return "its timestamps jump \(first.micros < 0 ? "back" : "forward") \(size) at \(TimeValue.clock(Rational(first.at, 1_000_000))) in \(name)"
        }
        if let last = s.lastDTS, dts <= last {
            return "in \(name) a packet's time \(TimeValue.clock(Rational(Demuxer.rescale(dts, from: tb, to: Rational(1, 1_000_000)), 1_000_000))) is not after the one before it"
        }
        s.lastDTS = dts
        return nil
    }
}
