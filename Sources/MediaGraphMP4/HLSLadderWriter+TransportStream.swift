import MediaGraphCore

/// MPEG-TS renditions share one timestamp shift, as ffmpeg's: its hls muxer makes the smallest
/// dts of all its streams 0 (avoid_negative_ts) before handing each variant stream's packets to
/// that stream's mpegts muxer, so a video whose B-frames start it 2 frames before zero moves the
/// audio rendition by as much, and audio and video stay in step across playlists. The ladder
/// therefore holds the first samples until every rendition's first dts is known (or one runs
/// `MPEGTSMuxer.maxInterleaveDelta` ahead, or a track ends), then fixes every muxer's offset.
extension HLSLadderWriter {
    func hold(_ sample: MP4Sample, track: Int) throws {
        if firstDTS[track] == nil { firstDTS[track] = sample.dts }
        held.append((track, sample))
        try releaseHeldIfReady()
    }

    /// Releases once every rendition's first dts is known, or the held samples (arriving from
    /// several tracks, so not in dts order) span more than the interleaving limit.
    func releaseHeldIfReady() throws {
        let waiting = renditions.count < specs.count || firstDTS.contains(nil)
        if waiting {
            let times = held.map(\.sample.dts)
            guard let low = times.min(), let high = times.max(), high - low > MPEGTSMuxer.maxInterleaveDelta else { return }
        }
        try releaseHeld()
    }

    /// Fixes the shared offset (from the first dts known so far) and writes what was held.
    func releaseHeld() throws {
        guard segmentType == .mpegts, !offsetFixed else { return }
        offsetFixed = true
        let earliest = firstDTS.compactMap { $0 }.min() ?? 0
        let offset = max(0, -earliest)
        for r in renditions { (r.muxer as? MPEGTSMuxer)?.offset = offset }
        let samples = held
        held.removeAll()
        for (k, s) in samples {
            let r = renditions[k]
            try r.muxer.append(s, to: r.track)
        }
    }
}
