import MediaGraphCore

/// Fragmented layout: ftyp + moov(mvex), then moof + mdat per fragment, each flushed whole.
extension MP4Muxer {
    func noteFragmentBoundary(_ s: MP4Sample, track i: Int, requested: Bool) {
        guard i == leadTrack else { return }
        let t = tracks[i]
        guard let start = fragmentStart else {
            fragmentStart = s.dts
            fragmentOrigin = s.dts
            return
        }
        let minimum = Int64((options.fragmentDuration * Double(t.description.timescale)).rounded())
        let due = switch options.fragmentCut {
        case .sincePrevious: s.dts - start >= minimum
        case .grid: s.dts - fragmentOrigin >= minimum * (cutsNoted + 1)
        case .onRequest: requested
        }
        if (s.isSync || !t.description.isVideo || options.fragmentCut == .onRequest) && due {
            fragmentCuts.append(t.time(s.dts))
            fragmentStart = s.dts
            cutsNoted += 1
        }
    }

    func writeReadyFragments(final: Bool) throws {
        guard started else { return }
        // A track that stops delivering (or a lead track without key frames) must not grow
        // memory without bound: past the limit, cut anyway — unless the caller decides the cuts.
        var overLimit: Bool { queuedBytes > queueLimit && options.fragmentCut != .onRequest }
        while let cut = fragmentCuts.first {
            let ready = tracks.allSatisfy { t in
                t.ended || (t.lastQueuedDTS.map { !(t.time($0) < cut) } ?? false)
            }
            if !ready && !overLimit { break }
            fragmentCuts.removeFirst()
            try writeFragment(before: cut)
        }
        if overLimit && fragmentCuts.isEmpty {
            try writeFragment(before: nil)
        }
        if final {
            fragmentCuts.removeAll()
            if tracks.contains(where: { $0.hasQueued }) { try writeFragment(before: nil) }
        }
    }

    /// A fragment's first sample when it is a sync sample: its presentation time (media
    /// timeline, track timescale), where its moof starts, and which traf of that moof holds it.
    struct RandomAccessPoint {
        var time: Int64
        var moofOffset: UInt64
        var trafNumber: Int
    }

    /// The mfra box at the end of a completed fragmented file, as ffmpeg writes it: for every
    /// track a tfra listing each fragment that starts with a sync sample (time, moof offset,
    /// traf 1-based, first trun, first sample), then mfro with the size of the whole box, so a
    /// reader finds the index from the end of the file and seeks without scanning every moof.
    /// A file cut short by a crash has none and is read by scanning, as before.
    func writeRandomAccessIndex() throws {
        guard let file, moovWritten else { return }
        var w = ByteWriter(capacity: 256)
        var sizeField = 0
        w.box("mfra") { w in
            var indexed = tracks.indices.compactMap { i in
                i < randomAccess.count && !randomAccess[i].isEmpty ? (tracks[i].description.id, randomAccess[i]) : nil
            }
            if let chapterRandomAccess { indexed.append((tracks.count + 1, [chapterRandomAccess])) }
            for (id, points) in indexed {
                w.fullBox("tfra", version: 1, flags: 0) { w in
                    w.u32(UInt32(id))
                    w.u32(0) // traf, trun and sample numbers in one byte each
                    w.u32(UInt32(points.count))
                    for p in points {
                        w.u64(UInt64(max(0, p.time)))
                        w.u64(p.moofOffset)
                        w.u8(UInt8(p.trafNumber))
                        w.u8(1)
                        w.u8(1)
                    }
                }
            }
            w.fullBox("mfro", version: 0, flags: 0) { w in
                sizeField = w.count
                w.u32(0) // patched: the size of mfra
            }
        }
        w.patchU32(at: sizeField, UInt32(w.count))
        try file.write(w.bytes)
        try file.flush()
    }

    struct FragmentRun {
        var track: Int
        var baseDecodeTime: Int64
        var durations: [UInt32] = []
        var sizes: [UInt32] = []
        var flags: [UInt32] = []
        var offsets: [Int32] = []
        var dataStart = 0
        /// Presentation time of the first sample when it is a sync sample.
        var firstSyncPresentation: Int64?
    }

    func writeFragment(before cut: MediaTime?) throws {
        guard file != nil || receiver != nil else { return }
        var runs: [FragmentRun] = []
        fragmentData.removeAll(keepingCapacity: true)
        for (i, t) in tracks.enumerated() where t.hasQueued {
            if let cut, !(t.time(t.headSample.dts) < cut) { continue }
            if t.firstDTS == nil { t.firstDTS = t.headSample.dts }
            var run = FragmentRun(track: i, baseDecodeTime: t.headSample.dts - t.firstDTS!)
            run.dataStart = fragmentData.count
            var minPTS = Int64.max
            var firstPresentation: Int64?
            while t.hasQueued {
                let s = t.headSample
                if let cut, !(t.time(s.dts) < cut) { break }
                _ = t.popHead()
                queuedBytes -= s.data.count
                let duration: Int64
                if t.hasQueued {
                    duration = t.headSample.dts - s.dts
                } else {
                    duration = s.duration > 0 ? s.duration : max(t.lastDelta, 1)
                }
                t.lastDelta = duration
                let size = try appendPayload(s, t, to: &fragmentData, sampleNumber: t.received)
                run.durations.append(UInt32(clamping: duration))
                run.sizes.append(UInt32(size))
                let sync = s.isSync || !t.description.isVideo
                if run.sizes.count == 1 && sync { firstPresentation = s.pts - t.firstDTS! }
                run.flags.append(sync ? 0x0200_0000 : 0x0101_0000)
                run.offsets.append(Int32(clamping: s.pts - s.dts))
                minPTS = min(minPTS, s.pts)
            }
            if t.firstFragmentMinPTS == nil { t.firstFragmentMinPTS = minPTS }
            if !run.sizes.isEmpty {
                run.firstSyncPresentation = firstPresentation
                runs.append(run)
            }
        }
        if runs.isEmpty { return }
        if !moovWritten {
            let mts = movieTimescale()
            let ftyp = MovieBox.ftyp(codecs: tracks.map(\.description.codec), fragmented: true, apple: options.appleBrand)
            let moov = MovieBox.moov(tracks: summaries(movieTimescale: mts, fragmented: true), movieTimescale: mts,
                                     chunkBase: 0, co64: options.forceCo64, rotation: options.rotation, fragmented: true,
                                     tags: options.tags, chapters: options.chapters, chapterTrack: chapterTrack,
                                     appleBrand: options.appleBrand)
            if let file {
                try file.write(ftyp)
                try file.write(moov)
            } else {
                try receiver?.receiveInitialization(ftyp + moov)
            }
            moovWritten = true
        }
        var w = ByteWriter(capacity: 1024 + runs.reduce(0) { $0 + $1.sizes.count * 16 })
        var offsetFields: [(Int, Int)] = []
        w.box("moof") { w in
            w.fullBox("mfhd", version: 0, flags: 0) { $0.u32(fragmentSequence + 1) }
            for run in runs {
                w.box("traf") { w in
                    w.fullBox("tfhd", version: 0, flags: 0x02_0000) { $0.u32(UInt32(tracks[run.track].description.id)) }
                    w.fullBox("tfdt", version: 1, flags: 0) { $0.u64(UInt64(max(0, run.baseDecodeTime))) }
                    let hasOffsets = run.offsets.contains { $0 != 0 }
                    let negative = run.offsets.contains { $0 < 0 }
                    let flags: UInt32 = 0x001 | 0x100 | 0x200 | 0x400 | (hasOffsets ? 0x800 : 0)
                    w.fullBox("trun", version: negative ? 1 : 0, flags: flags) { w in
                        w.u32(UInt32(run.sizes.count))
                        offsetFields.append((w.count, run.dataStart))
                        w.u32(0) // data_offset, patched below
                        for k in 0..<run.sizes.count {
                            w.u32(run.durations[k])
                            w.u32(run.sizes[k])
                            w.u32(run.flags[k])
                            if hasOffsets { w.i32(run.offsets[k]) }
                        }
                    }
                }
            }
            if fragmentSequence == 0, let chapterTrack {
                offsetFields.append(chapterFragment(&w, chapterTrack))
            }
        }
        let moofSize = w.count
        for (field, start) in offsetFields { w.patchU32(at: field, UInt32(moofSize + 8 + start)) }
        guard let file else {
            w.u32(UInt32(fragmentData.count + 8))
            w.fourCC("mdat")
            try receiver?.receiveFragment(header: Self.segmentType + w.bytes, media: fragmentData, info: info(of: runs))
            fragmentSequence += 1
            return
        }
        let moofOffset = file.position
        if randomAccess.count < tracks.count { randomAccess += Array(repeating: [], count: tracks.count - randomAccess.count) }
        for (k, run) in runs.enumerated() {
            if let time = run.firstSyncPresentation {
                randomAccess[run.track].append(RandomAccessPoint(time: time, moofOffset: moofOffset, trafNumber: k + 1))
            }
        }
        // the chapter track's one fragment, its traf after the media's
        if fragmentSequence == 0, chapterTrack != nil {
            chapterRandomAccess = RandomAccessPoint(time: 0, moofOffset: moofOffset, trafNumber: runs.count + 1)
        }
        w.u32(UInt32(fragmentData.count + 8))
        w.fourCC("mdat")
        try file.write(w.bytes)
        try file.write(fragmentData)
        try file.flush()
        fragmentSequence += 1
    }

    /// The chapter track's traf in the first fragment, after the media's, with its samples at the
    /// end of that fragment's media data, as ffmpeg writes them; returns the trun's data offset
    /// field and where its data starts in `fragmentData`.
    func chapterFragment(_ w: inout ByteWriter, _ c: ChapterTrack) -> (Int, Int) {
        let start = fragmentData.count
        for s in c.samples { fragmentData.append(contentsOf: s.bytes) }
        var field = 0
        w.box("traf") { w in
            w.fullBox("tfhd", version: 0, flags: 0x02_0000) { $0.u32(UInt32(tracks.count + 1)) }
            w.fullBox("tfdt", version: 1, flags: 0) { $0.u64(0) }
            w.fullBox("trun", version: 0, flags: 0x001 | 0x100 | 0x200 | 0x400) { w in
                w.u32(UInt32(c.samples.count))
                field = w.count
                w.u32(0) // data_offset, patched with the others
                for (s, delta) in zip(c.samples, c.deltas) {
                    w.u32(UInt32(clamping: delta))
                    w.u32(UInt32(s.bytes.count))
                    w.u32(0x0200_0000) // every one a sync sample
                }
            }
        }
        return (field, start)
    }

    /// styp in front of each fragment handed to a receiver: a media segment (msdh) that can be
    /// indexed (msix), what ffmpeg's hls and dash muxers write.
    static let segmentType: [UInt8] = {
        var w = ByteWriter(capacity: 24)
        w.box("styp") { w in
            w.fourCC("msdh")
            w.u32(0)
            w.fourCC("msdh")
            w.fourCC("msix")
        }
        return w.bytes
    }()

    /// The fragment's place and length on the lead track (see `MP4FragmentInfo`).
    func info(of runs: [FragmentRun]) -> MP4FragmentInfo {
        func length(_ r: FragmentRun) -> MediaTime {
            tracks[r.track].time(r.durations.reduce(0) { $0 + Int64($1) })
        }
        let lead = runs.first { $0.track == leadTrack }
            ?? runs.max { length($0).seconds < length($1).seconds }!
        let independent = runs.allSatisfy { !tracks[$0.track].description.isVideo || $0.flags.first == 0x0200_0000 }
        return MP4FragmentInfo(sequence: fragmentSequence + 1, start: tracks[lead.track].time(lead.baseDecodeTime),
                               duration: length(lead), independent: independent)
    }
}
