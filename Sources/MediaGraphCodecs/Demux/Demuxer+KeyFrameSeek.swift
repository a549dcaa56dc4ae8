import MediaGraphCore

extension Demuxer {
    /// Packets read ahead at most while looking for the key frame a seek must land on.
    static let keyFrameSearchPackets = 5000, keyFrameSearchBytes = 64 << 20

    /// Seeks to `target` (µs) so that `video` begins at a key frame at or before `start` (µs), and
    /// returns the packets it read ahead, to be used before further `read()`s.
    ///
    /// Formats without an index (MPEG-TS, MPEG-PS) seek by libavformat's generic search, which
    /// lands on any packet: the video would begin with pictures whose references were never read
    /// (a copy shows them broken; a decoder drops them, losing the frames up to the next key
    /// frame). When the first packet of `video` is not a key frame, the packets are read ahead to
    /// its first key frame; when that is after `start` the seek goes back further (1 s, 2 s, 4 s …
    /// to before the file's start: the generic search lands by decode time, so even a seek to the
    /// start time can land after the first key frame). The packets of `video` before its key frame
    /// are dropped. Where the seek lands on a key frame (indexed formats) this reads one GOP's
    /// first packets at most and changes nothing. `read` reads the next packet (nil at the end):
    /// a caller that skips damaged data passes a reader that reads on past a read error.
    public func seek(toMicroseconds target: Int64, keyFrameAtOrBefore start: Int64, video: StreamInfo,
                     read: (() throws -> DemuxedPacket?)? = nil) throws -> [DemuxedPacket] {
        let read = read ?? { try self.read() }
        try seek(toMicroseconds: target)
        let fileStart = container.startTime ?? 0
        let micros = Rational(1, 1_000_000)
        var back: Int64 = 0
        while true {
            var packets: [DemuxedPacket] = [], bytes = 0
            var sawVideo = false
            var key: Int?
            while key == nil, packets.count < Self.keyFrameSearchPackets, bytes < Self.keyFrameSearchBytes, let p = try read() {
                packets.append(p)
                bytes += p.bytes.count
                guard p.streamIndex == video.index else { continue }
                // the usual case (an indexed format): the seek landed on a key frame
                if !sawVideo && p.isKeyFrame { return packets }
                sawVideo = true
                if p.isKeyFrame { key = packets.count - 1 }
            }
            let keyTime = key.map { k -> Int64 in
                let p = packets[k]
                return Demuxer.rescale(p.pts != DemuxedPacket.noTime ? p.pts : p.dts, from: video.timeBase, to: micros)
            }
            let beforeFileStart = target - back < fileStart - 1_000_000
            // no key frame before the end of the file (a seek into the last GOP) goes back too;
            // one not found within the read-ahead limit does not
            let limitReached = packets.count >= Self.keyFrameSearchPackets || bytes >= Self.keyFrameSearchBytes
            if !sawVideo || keyTime.map({ $0 <= start }) == true || beforeFileStart || key == nil && limitReached {
                // the video packets before the key frame go; with no key frame at all (a stream
                // whose packets carry no key flags) none do, as before this search
                let cut = key ?? 0
                var kept = packets.enumerated().filter { $0.offset >= cut || $0.element.streamIndex != video.index }.map(\.element)
                // a palette given with a dropped packet holds from the key frame on
                if let palette = packets[..<min(cut, packets.count)].last(where: { $0.streamIndex == video.index && $0.palette != nil })?.palette,
                   let first = kept.firstIndex(where: { $0.streamIndex == video.index }), kept[first].palette == nil {
                    kept[first].palette = palette
                }
                return kept
            }
            back = back == 0 ? 1_000_000 : 2 * back
            try seek(toMicroseconds: target - back)
        }
    }
}
