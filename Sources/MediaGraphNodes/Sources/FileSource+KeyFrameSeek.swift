import MediaGraphCodecs
import MediaGraphCore

extension FileSource {
    /// Packets read ahead at most while looking for the key frame a trimmed video starts at.
    static let keyFrameSearchPackets = 5000, keyFrameSearchBytes = 64 << 20

    /// After the seek to `target` (µs): makes the first video stream read begin at a key frame at
    /// or before `start` (µs). Formats without an index (MPEG-TS, MPEG-PS) seek by libavformat's
    /// generic search, which lands on any packet: the video then began with pictures whose
    /// references were never read — a copy showed them broken, a decoder dropped them and so lost
    /// the frames between `start` and the next key frame. When the first video packet is not a
    /// key frame, the packets are read ahead to the first key frame; when that is after `start`
    /// the seek goes back further (1 s, 2 s, 4 s … to before the file's start). The video packets
    /// before the key frame are dropped; the rest wait in `lookahead`.
    func settleOnKeyFrame(target: Int64, start: Int64) throws {
        guard let video = streams.first(where: { $0.isActive && $0.description.info.kind == .video })?.description.info else { return }
        let fileStart = demuxer.container.startTime ?? 0
        let micros = Rational(1, 1_000_000)
        var back: Int64 = 0
        while true {
            var packets: [DemuxedPacket] = [], bytes = 0
            var firstVideo: DemuxedPacket?
            var key: Int?
            while key == nil, packets.count < Self.keyFrameSearchPackets, bytes < Self.keyFrameSearchBytes {
                let packet: DemuxedPacket?
                do { packet = try demuxer.read() } catch let e as DemuxError { throw NodeFailure(e.message) }
                guard let p = packet else { break }
                packets.append(p)
                bytes += p.bytes.count
                guard p.streamIndex == video.index else { continue }
                if firstVideo == nil {
                    firstVideo = p
                    // the usual case (an indexed format): the seek landed on a key frame
                    if p.isKeyFrame { lookahead = packets; return }
                }
                if p.isKeyFrame { key = packets.count - 1 }
            }
            let time = key.map { k -> Int64 in
                let p = packets[k]
                return Demuxer.rescale(p.pts != DemuxedPacket.noTime ? p.pts : p.dts, from: video.timeBase, to: micros)
            }
            // the generic search lands by decode time, so a seek to the file's start time itself
            // can land after its first key frame: the last step goes a second before it
            let atFileStart = target - back < fileStart - 1_000_000
            if key == nil && firstVideo == nil || time.map({ $0 <= start }) == true || atFileStart || key == nil && packets.count >= Self.keyFrameSearchPackets {
                // drop the video packets that precede the key frame (all of them when none came)
                let cut = key ?? packets.count
                lookahead = packets.enumerated().filter { $0.offset >= cut || $0.element.streamIndex != video.index }.map(\.element)
                return
            }
            back = back == 0 ? 1_000_000 : 2 * back
            do { try demuxer.seek(toMicroseconds: target - back) } catch let e as DemuxError { throw NodeFailure(e.message) }
        }
    }
}
