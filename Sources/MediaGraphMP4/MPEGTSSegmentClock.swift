import MediaGraphCore

/// Where ffmpeg's hls muxer (hlsenc.c, hls_write_packet) cuts MPEG-TS segments: before a key
/// frame of the first video track (any packet when there is no video) whose pts, from the
/// first packet's, reaches the next multiple of hls_time, and whose pts is past the current
/// segment's start. Times in 90 kHz ticks.
struct MPEGTSSegmentClock {
    /// The track whose key frames start segments; nil: every track's packets may.
    var leadTrack: Int?
    private var startPTS: Int64?
    private var startFromAudio = false
    /// The current segment's first lead pts (ffmpeg's end_pts).
    private var segmentStart: Int64?
    /// Segments cut so far + 1 (ffmpeg's number).
    private var number: Int64 = 1
    /// The furthest lead pts + duration seen: where the last segment ends.
    private var leadEnd: Int64?

    /// Whether a segment ends before this packet (`written`: packets written so far).
    mutating func cutsBefore(pts: Int64, duration: Int64, isKey: Bool, track: Int, isVideo: Bool,
                             written: Int, segmentMicroseconds: Int64) -> Bool {
        if startPTS == nil {
            startPTS = pts
            startFromAudio = !isVideo
        }
        if startFromAudio && isVideo && startPTS! > pts {
            startPTS = pts
            startFromAudio = false
        }
        let isLead = leadTrack == nil || leadTrack == track
        guard isLead else { return false }
        if segmentStart == nil { segmentStart = pts }
        leadEnd = max(leadEnd ?? .min, pts + max(duration, 0))
        let canSplit = (leadTrack == nil || isKey) && pts - segmentStart! > 0
        // (pts - start) / 90000 s >= number × hls_time µs / 1e6
        guard written > 0, canSplit,
              Int128(pts - startPTS!) * 1_000_000 >= Int128(segmentMicroseconds) * Int128(number) * 90000 else { return false }
        return true
    }

    /// The segment that ends before `pts` (after `cutsBefore` said so): its duration; the next starts.
    mutating func cut(at pts: Int64) -> MediaTime {
        let d = MediaTime(value: pts - (segmentStart ?? pts), timescale: 90000)
        segmentStart = pts
        number += 1
        return d
    }

    /// How long the last segment lasts: to the end of the lead track's last packet.
    var lastDuration: MediaTime {
        guard let s = segmentStart, let e = leadEnd else { return MediaTime(value: 0, timescale: 90000) }
        return MediaTime(value: max(0, e - s), timescale: 90000)
    }
}
