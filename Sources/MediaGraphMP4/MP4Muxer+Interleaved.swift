#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// Normal (non-fragmented) layout: chunks interleaved by decode time, moov at the end or, with
/// fast start, before the media, then the atomic rename.
extension MP4Muxer {
    func within(_ t: Track, _ chunkStart: Int64, _ dts: Int64) -> Bool {
        Double(dts - chunkStart) < options.chunkDuration * Double(t.description.timescale)
    }

    func drain(final: Bool) throws {
        guard started || final || queuedBytes > queueLimit else { return }
        if mediaBytes == 0 && mediaBase == 0 && !options.fastStart { try writeHeader() }
        while true {
            if let c = chunkTrack, tracks[c].hasQueued, within(tracks[c], chunkStartDTS, tracks[c].headSample.dts) {
                try writeSample(c, newChunk: false)
                continue
            }
            let waiting = tracks.contains { !$0.ended && !$0.hasQueued }
            if waiting && !final && queuedBytes <= queueLimit { return }
            var pick: Int?
            for (i, t) in tracks.enumerated() where t.hasQueued {
                if let p = pick, !(t.time(t.headSample.dts) < tracks[p].time(tracks[p].headSample.dts)) { continue }
                pick = i
            }
            guard let p = pick else { return }
            try writeSample(p, newChunk: true)
        }
    }

    /// ftyp, then 16 bytes for the mdat header (patched at the end), in the normal layout.
    func writeHeader() throws {
        guard let file else { return }
        let ftyp = MovieBox.ftyp(codecs: tracks.map(\.description.codec), fragmented: false)
        try file.write(ftyp)
        mdatHeaderOffset = file.position
        try file.write([UInt8](repeating: 0, count: 16))
        mediaBase = file.position
    }

    func writeSample(_ i: Int, newChunk: Bool) throws {
        guard let file else { return }
        let t = tracks[i]
        let s = t.popHead()
        queuedBytes -= s.data.count
        if newChunk || chunkTrack != i {
            t.table.startChunk(at: mediaBytes)
            chunkTrack = i
            chunkStartDTS = s.dts
        }
        let size: Int
        do {
            size = try writePayload(s, t, to: file, sampleNumber: t.table.count)
        } catch let e as MP4IOError {
            throw MP4MuxerError.sampleIO(track: t.description.name, sample: t.table.count, e)
        }
        t.table.add(size: size, pts: s.pts, dts: s.dts, duration: s.duration, isSync: s.isSync || !t.description.isVideo)
        mediaBytes += UInt64(size)
    }

    func movieTimescale() -> Int64 {
        if let ts = options.movieTimescale { return ts }
        var l: Int64 = 1
        for t in tracks {
            guard let n = Rational.lcm(l, t.description.timescale), n <= Int64(Int32.max) else {
                return tracks.map(\.description.timescale).max() ?? 1000
            }
            l = n
        }
        return l
    }

    /// Edit lists follow the time-zero contract (`SampleBuffer`): presentation starts at time 0.
    /// Samples presented before 0 (AAC priming, Opus pre-skip, the GOP lead-in of a trim) are
    /// pre-roll that the edit's media_time skips; a track whose first sample comes after 0
    /// starts with an empty edit of that length; B-frame reordering delay is skipped the same
    /// way (media_time = the first composition time). This is what ffmpeg's movenc writes.
    func summaries(movieTimescale mts: Int64, fragmented: Bool) -> [TrackSummary] {
        func presentationStart(_ t: Track) -> Int64 {
            let minPTS = fragmented ? (t.firstFragmentMinPTS ?? 0) : t.table.minPTS
            return minPTS < 0 && (fragmented || t.table.maxEnd > 0) ? 0 : minPTS
        }
        // In movie ticks: the empty edit rounded down, the presented duration up (as movenc does
        // when the movie timescale does not divide the track's).
        func movieTicks(_ ticks: Int64, _ t: Track, roundUp: Bool) -> Int64 {
            let ts = t.description.timescale
            let (hi, lo) = ticks.multipliedFullWidth(by: mts)
            let (q, r) = ts.dividingFullWidth((hi, lo))
            return r == 0 ? q : (roundUp ? (r > 0 ? q + 1 : q) : (r < 0 ? q - 1 : q))
        }
        return tracks.map { t in
            let table = t.table
            let emptyEdit = movieTicks(presentationStart(t), t, roundUp: false)
            let firstDTS = fragmented ? (t.firstDTS ?? 0) : table.firstDTS
            let minPTS = fragmented ? (t.firstFragmentMinPTS.map { _ in presentationStart(t) } ?? firstDTS) : presentationStart(t)
            // With a lead-in, the presented part is the media minus the lead-in (each rounded
            // as movenc rounds them); otherwise from the first presented sample to the end.
            let segment = fragmented ? 0 : table.minPTS < 0 && minPTS == 0
                ? movieTicks(table.mediaDuration, t, roundUp: true) + movieTicks(table.minPTS, t, roundUp: false)
                : movieTicks(table.maxEnd - minPTS, t, roundUp: true)
            let seconds = t.time(table.mediaDuration).seconds
            let bitrate = seconds > 0 ? Int(Double(table.totalBytes) * 8 / seconds) : 0
            return TrackSummary(description: t.description, configuration: t.configuration!,
                                table: table, emptyEdit: max(0, emptyEdit), mediaTime: minPTS - firstDTS,
                                segmentDuration: segment, averageBitrate: bitrate, alwaysEdit: !fragmented)
        }
    }

    func finalizeNormal() throws {
        guard let media = file else { return }
        for t in tracks { t.table.close() }
        let mts = movieTimescale()
        let trackSummaries = summaries(movieTimescale: mts, fragmented: false)
        let ftyp = MovieBox.ftyp(codecs: tracks.map(\.description.codec), fragmented: false)
        let maxOffset = tracks.map(\.table.maxChunkOffset).max() ?? 0
        func moov(_ base: UInt64, _ co64: Bool) -> [UInt8] {
            MovieBox.moov(tracks: trackSummaries, movieTimescale: mts, chunkBase: base, co64: co64,
                          rotation: options.rotation, fragmented: false)
        }
        let mdatHeader = Self.mdatHeader(dataSize: mediaBytes)
        if options.fastStart {
            var co64 = options.forceCo64
            var base = UInt64(ftyp.count + moov(0, co64).count + 16)
            if !co64 && maxOffset + base > UInt64(UInt32.max) {
                co64 = true
                base = UInt64(ftyp.count + moov(0, co64).count + 16)
            }
            // the finished file, then the media from the scratch file behind its moov
            let out = try OutputFile(path: path)
            file = out   // so that a failure below discards it
            defer { media.discard() }
            try out.write(ftyp)
            try out.write(moov(base, co64))
            try out.write(mdatHeader)
            try out.append(contentsOf: media)
            try out.closeFile()
        } else {
            let co64 = options.forceCo64 || maxOffset + mediaBase > UInt64(UInt32.max)
            try media.write(moov(mediaBase, co64))
            try media.patch(mdatHeader, at: mdatHeaderOffset)
            try media.closeFile()   // fsync, then renamed to `path`
        }
        file = nil
    }

    /// 16 bytes: `free` + 32-bit `mdat` when the size fits, else a 64-bit `mdat` header.
    static func mdatHeader(dataSize: UInt64) -> [UInt8] {
        var w = ByteWriter()
        if dataSize + 8 <= UInt64(UInt32.max) {
            w.u32(8); w.fourCC("free")
            w.u32(UInt32(dataSize + 8)); w.fourCC("mdat")
        } else {
            w.u32(1); w.fourCC("mdat"); w.u64(dataSize + 16)
        }
        return w.bytes
    }
}
