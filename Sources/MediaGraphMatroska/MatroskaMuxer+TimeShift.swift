/// Blocks before zero (a trimmed copy's lead-in, AAC priming).
///
/// A Matroska block's time is its cluster's (unsigned) plus a signed 16-bit offset, and readers
/// take a sum below zero as no time at all: libavformat gives such a packet no pts, so a copied
/// H.264 stream with B-frames loses the pts of its first pictures and its dts no longer rise.
/// Matroska has no edit list to hide a lead-in, and CodecDelay does not hide pictures either
/// (libavformat only moves them back before zero, and its decoding still shows them). So, as
/// ffmpeg's matroskaenc with its default `avoid_negative_ts` (make_non_negative on pts), every
/// track is moved later by the same amount: the earliest block time among the packets queued
/// when the header is written, when that is below zero. The tracks keep their offsets, the
/// lead-in plays from zero.
extension MatroskaMuxer {
    /// Milliseconds added to every block time (never negative): called once, before the first
    /// block is written, when every track has a packet queued.
    func decideTimeShift() {
        var earliest: Int64 = 0
        for t in tracks {
            for p in t.queued { earliest = min(earliest, p.pts + t.codecDelay) }
        }
        timeShift = -earliest
    }
}
