import MediaGraphCodecs

extension FileSource {
    /// Packets, and bytes, read ahead at most to find a stream's first dts (a hostile file cannot
    /// make the source hold more).
    static let leadingDTSLookahead = (packets: 128, bytes: 64 << 20)

    /// A video stream whose first packets carry no dts gets theirs counted back from the first
    /// dts it gives, one frame apart, so decode order runs into it. A cut at an open-GOP key
    /// frame (ffmpeg's `-ss … -c copy` of HEVC) leaves the leading pictures after the key frame
    /// with neither pts nor dts; predicting forward from the key frame's pts, as for a lone
    /// packet without dts, gave them times after the dts that follows, which no muxer accepts.
    /// Reads ahead at most `leadingDTSLookahead`, replayed through `lookahead`; without a dts in
    /// what it read the forward prediction stays.
    func countBackLeadingDTS(_ p: DemuxedPacket, on s: FileStreamState) throws -> DemuxedPacket {
        guard p.dts == DemuxedPacket.noTime, s.lastInputDTS == nil, s.timer == nil,
              s.description.info.kind == .video else { return p }
        var k = lookaheadNext, bytes = 0
        while true {
            if k == lookahead.count {
                guard k - lookaheadNext < Self.leadingDTSLookahead.packets, bytes < Self.leadingDTSLookahead.bytes,
                      let next = try readSkipping() else { return p }
                lookahead.append(next)
            }
            bytes += lookahead[k].bytes.count
            let q = lookahead[k]
            if q.streamIndex == p.streamIndex && q.dts != DemuxedPacket.noTime { break }
            k += 1
        }
        let first = lookahead[k].dts
        // the stream's packets before it, this one first, each a frame earlier than the next
        let held = [-1] + (lookaheadNext..<k).filter { lookahead[$0].streamIndex == p.streamIndex }
        let frame = max(1, s.nominalDuration)
        var out = p
        for (n, at) in held.enumerated() {
            let dts = first - Int64(held.count - n) * frame
            if at < 0 { out.dts = dts } else { lookahead[at].dts = dts }
        }
        // the leading pictures without a pts are shown just before the key frame, ending where
        // it starts, so an MP4's edit list hides exactly them
        let unshown = held.filter { $0 >= 0 && lookahead[$0].pts == DemuxedPacket.noTime }
        if p.pts != DemuxedPacket.noTime {
            for (n, at) in unshown.enumerated() { lookahead[at].pts = p.pts - Int64(unshown.count - n) * frame }
        }
        return out
    }
}
