#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// Normal (non-fragmented) layout: chunks interleaved by decode time, moov at the end or, with
/// fast start, before the media, then the atomic rename.
extension MP4Muxer {
    /// Whether a sample of `t` at `dts` may still join the chunk that began at `chunkStart`. In a
    /// QuickTime movie a chunk is bounded by size instead, as ffmpeg's mov muxer merges a run of
    /// one track's samples while it stays under 1 MiB, so that its chunk tables are ffmpeg's.
    func within(_ t: Track, _ chunkStart: Int64, _ dts: Int64) -> Bool {
        if options.quickTime { return chunkBytes + t.headSample.data.count < Self.quickTimeChunkBytes }
        return Double(dts - chunkStart) < options.chunkDuration * Double(t.description.timescale)
    }

    /// ffmpeg's mov muxer's largest chunk (a chunk stays below it).
    static let quickTimeChunkBytes = 1 << 20

    /// Writes queued samples in decode-time order across tracks, each as soon as every unfinished
    /// track has a sample queued (so nothing later can come before it), as ffmpeg's interleaver
    /// does: at most about one sample per track waits, and a packet goes to the kernel while its
    /// bytes are still in the CPU's cache (holding a second of 1080p video made the kernel's copy
    /// into the page cache several times slower). A chunk is a run of one track's samples, ended when another track's
    /// sample comes between or it spans `chunkDuration`.
    func drain(final: Bool) throws {
        guard started || final || queuedBytes > queueLimit else { return }
        if mediaBytes == 0 && mediaBase == 0 { try options.fastStart ? writeFastStartReserve() : writeHeader() }
        while true {
            let waiting = tracks.contains { !$0.ended && !$0.hasQueued }
            if waiting && !final && queuedBytes <= queueLimit { return }
            var pick: Int?
            for (i, t) in tracks.enumerated() where t.hasQueued {
                if let p = pick, !(t.time(t.headSample.dts) < tracks[p].time(tracks[p].headSample.dts)) { continue }
                pick = i
            }
            guard let p = pick else { return }
            let t = tracks[p]
            try writeSample(p, newChunk: chunkTrack != p || !within(t, chunkStartDTS, t.headSample.dts))
        }
    }

    /// ftyp, then 16 bytes for the mdat header (patched at the end), in the normal layout.
    func writeHeader() throws {
        guard let file else { return }
        let ftyp = MovieBox.ftyp(codecs: tracks.map(\.description.codec), fragmented: false, apple: options.appleBrand,
                                 quickTime: options.quickTime)
        try file.write(ftyp)
        mdatHeaderOffset = file.position
        try file.write([UInt8](repeating: 0, count: 16))
        mediaBase = file.position
        try writeChapterSamples(file)
    }

    /// The chapter track's samples, the first media data, as ffmpeg writes them with the header.
    private func writeChapterSamples(_ file: OutputFile) throws {
        guard let chapterTrack else { return }
        for s in chapterTrack.samples { try file.write(s.bytes) }
        mediaBytes += UInt64(chapterTrack.totalBytes)
    }

    /// Fast start: one file-system block kept for ftyp, moov (when it fits) and the mdat header
    /// at its end; the media follows on a block boundary, so a larger moov gets a gap inserted in
    /// front of it at the end instead of the media being copied.
    func writeFastStartReserve() throws {
        guard let file else { return }
        let block = file.blockSize
        let reserve = block >= 512 && block <= 1 << 16 && block & (block - 1) == 0 ? block : 4096
        try file.write([UInt8](repeating: 0, count: reserve))
        mdatHeaderOffset = file.position - 16
        mediaBase = file.position
        try writeChapterSamples(file)
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
            chunkBytes = 0
        }
        let size: Int
        do {
            size = try writePayload(s, t, to: file, sampleNumber: t.table.count)
        } catch let e as MP4IOError {
            // written behind, the failure may be an earlier sample's: its offset says which
            if case .sampleIO = ioFailure(e) { throw ioFailure(e) }
            throw MP4MuxerError.sampleIO(track: t.description.name, sample: t.table.count, e)
        }
        if let pcm = t.description.pcm {
            t.table.addFrames(size / (pcm.bytesPerSample * t.description.channels), frameSize: pcm.bytesPerSample * t.description.channels, dts: s.dts)
        } else {
            t.table.add(size: size, pts: s.pts, dts: s.dts, duration: s.duration, isSync: s.isSync || !t.description.isVideo)
        }
        mediaBytes += UInt64(size)
        chunkBytes += size
    }

    func movieTimescale() -> Int64 {
        if let ts = options.movieTimescale { return ts }
        // ffmpeg's mov muxer counts a QuickTime movie's time in milliseconds, as QuickTime itself does
        if options.quickTime { return 1000 }
        var l: Int64 = 1
        let timescales = tracks.map(\.description.timescale) + (chapterTrack == nil ? [] : [ChapterTrack.timescale])
        for ts in timescales {
            guard let n = Rational.lcm(l, ts), n <= Int64(Int32.max) else {
                return timescales.max() ?? 1000
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
        let ftyp = MovieBox.ftyp(codecs: tracks.map(\.description.codec), fragmented: false, apple: options.appleBrand,
                                 quickTime: options.quickTime)
        let maxOffset = tracks.map(\.table.maxChunkOffset).max() ?? 0
        func moov(_ base: UInt64, _ co64: Bool) -> [UInt8] {
            MovieBox.moov(tracks: trackSummaries, movieTimescale: mts, chunkBase: base, co64: co64,
                          rotation: options.rotation, fragmented: false, tags: options.tags, chapters: options.chapters,
                          chapterTrack: chapterTrack, quickTime: options.quickTime, appleBrand: options.appleBrand)
        }
        let mdatHeader = Self.mdatHeader(dataSize: mediaBytes, quickTime: options.quickTime)
        if options.fastStart {
            try finalizeFastStart(media, ftyp: ftyp, mdatHeader: mdatHeader, maxOffset: maxOffset, moov: moov)
        } else {
            let co64 = options.forceCo64 || maxOffset + mediaBase > UInt64(UInt32.max)
            try media.write(moov(mediaBase, co64))
            try media.patch(mdatHeader, at: mdatHeaderOffset)
            try media.closeFile()   // fsync, then renamed to `path`
        }
        file = nil
    }

    /// Fast start: [ftyp][moov][free][mdat header][media]. The media was written behind a
    /// reserved block (`writeFastStartReserve`); a moov larger than the block gets a gap of whole
    /// blocks inserted at the start of the file (no byte of media copied). Where the file system
    /// cannot insert, the media is copied behind a new header, as ffmpeg's faststart does.
    func finalizeFastStart(_ media: OutputFile, ftyp: [UInt8], mdatHeader: [UInt8], maxOffset: UInt64,
                           moov: (UInt64, Bool) -> [UInt8]) throws {
        let reserve = mediaBase
        // ftyp, moov, a free box (at least its 8-byte header) and the 16-byte mdat header fill
        // the gap and the reserved block exactly
        func gap(_ co64: Bool) -> UInt64 {
            let need = UInt64(ftyp.count + moov(0, co64).count + 8 + 16)
            return need <= reserve ? 0 : (need - reserve + reserve - 1) / reserve * reserve
        }
        var co64 = options.forceCo64
        if !co64 && maxOffset + gap(false) + reserve > UInt64(UInt32.max) { co64 = true }
        let inserted = gap(co64), base = inserted + reserve
        if try destination == nil && (inserted == 0 || media.insertGap(at: 0, count: inserted)) {
            let moovBytes = moov(base, co64)
            var free = ByteWriter()
            free.u32(UInt32(base - 16 - UInt64(ftyp.count + moovBytes.count))); free.fourCC("free")
            try media.patch(ftyp + moovBytes + free.bytes, at: 0)
            try media.patch(mdatHeader, at: base - 16)
            try media.closeFile()   // fsync, then renamed to `path`
            return
        }
        // no range insertion here (tmpfs …, or media in scratch for a stream): the finished file,
        // then the media copied behind it
        var copyCo64 = options.forceCo64
        var copyBase = UInt64(ftyp.count + moov(0, copyCo64).count + 16)
        if !copyCo64 && maxOffset + copyBase > UInt64(UInt32.max) {
            copyCo64 = true
            copyBase = UInt64(ftyp.count + moov(0, copyCo64).count + 16)
        }
        let out = try destination ?? OutputFile(path: path)
        file = out   // so that a failure below discards it
        destination = nil
        defer { media.discard() }
        try out.write(ftyp)
        try out.write(moov(copyBase, copyCo64))
        try out.write(mdatHeader)
        try out.append(contentsOf: media, from: reserve)
        try out.closeFile()
    }

    /// 16 bytes: `free` + 32-bit `mdat` when the size fits, else a 64-bit `mdat` header. A
    /// QuickTime movie has a `wide` atom there instead of `free`, as ffmpeg's mov muxer writes it.
    static func mdatHeader(dataSize: UInt64, quickTime: Bool = false) -> [UInt8] {
        var w = ByteWriter()
        if dataSize + 8 <= UInt64(UInt32.max) {
            w.u32(8); if quickTime { w.fourCC("wide") } else { w.fourCC("free") }
            w.u32(UInt32(dataSize + 8)); w.fourCC("mdat")
        } else {
            w.u32(1); w.fourCC("mdat"); w.u64(dataSize + 16)
        }
        return w.bytes
    }
}
