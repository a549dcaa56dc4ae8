import MediaGraphCore

/// Everything the moov box says about one track.
struct TrackSummary {
    var description: MP4TrackDescription
    var configuration: CodecConfiguration
    var table: SampleTable
    /// Empty edit before the track's media, in the movie timescale (0: none).
    var emptyEdit: Int64
    /// Composition time where presentation starts (elst media_time), track timescale.
    var mediaTime: Int64
    /// Presented duration in the movie timescale (0 in fragmented files: unknown).
    var segmentDuration: Int64
    /// Bytes per second, for esds.
    var averageBitrate: Int

    /// Whether the track says how it is presented even when that is "all of it from 0" (as
    /// ffmpeg's movenc does in normal files; fragmented files leave the identity out).
    var alwaysEdit = false

    var needsEditList: Bool { alwaysEdit || emptyEdit > 0 || mediaTime != 0 }
    var trackDuration: Int64 { emptyEdit + segmentDuration }
}

/// ftyp and moov (ISO/IEC 14496-12) built from the finished sample tables.
enum MovieBox {
    /// - Parameter apple: the iTunes brands (`M4A ` for audio only, `M4V ` with video) in front
    ///   of isom and iso2, without mp41, as ffmpeg's ipod muxer.
    ///   - quickTime: brand `qt  ` (major and only compatible brand), as ffmpeg's mov muxer.
    static func ftyp(codecs: [Codec], fragmented: Bool, apple: Bool = false, quickTime: Bool = false) -> [UInt8] {
        var w = ByteWriter()
        if quickTime {
            w.box("ftyp") { w in
                w.fourCC("qt  ")
                w.u32(0x200)
                w.fourCC("qt  ")
            }
            return w.bytes
        }
        let major: StaticString = !apple ? "isom" : codecs.contains(where: \.isVideo) ? "M4V " : "M4A "
        w.box("ftyp") { w in
            w.fourCC(major)
            w.u32(0x200)
            // an iTunes brand is also the first compatible one, as ffmpeg writes it
            if apple { w.fourCC(major) }
            w.fourCC("isom")
            w.fourCC("iso2")
            if fragmented { w.fourCC("iso6") }
            if codecs.contains(.h264) { w.fourCC("avc1") }
            if !apple { w.fourCC("mp41") }
        }
        return w.bytes
    }

    /// - Parameters:
    ///   - chunkBase: file offset of the first media byte; chunk offsets are relative to it.
    ///   - rotation: every video track's rotation (nil: each track's own, from its metadata).
    ///   - fragmented: empty sample tables plus mvex/trex.
    ///   - chapterTrack: the QuickTime chapter track, written after the media tracks, with a
    ///     `tref/chap` to it in every media track; its samples start at `chunkBase`.
    ///   - appleBrand: an iPod file (.m4a/.m4v), whose text sample entry has no btrt.
    static func moov(tracks: [TrackSummary], movieTimescale: Int64, chunkBase: UInt64, co64: Bool,
                     rotation: Int?, fragmented: Bool, tags: MP4Tags? = nil, chapters: [Chapter] = [],
                     chapterTrack: ChapterTrack? = nil, quickTime: Bool = false, appleBrand: Bool = false) -> [UInt8] {
        var w = ByteWriter(capacity: 4096 + tracks.reduce(0) { $0 + $1.table.count * 12 })
        let chapterDuration = chapterTrack.map { movieTicks($0.presentedDuration, movieTimescale: movieTimescale) } ?? 0
        let movieDuration = fragmented ? 0 : max(tracks.map(\.trackDuration).max() ?? 0, chapterDuration)
        let chapterTrackID = chapterTrack.map { _ in tracks.count + 1 }
        // The movie was made when its earliest stream was.
        let created = tracks.compactMap(\.description.metadata.creationTime).min().map(mp4Time) ?? 0
        w.box("moov") { w in
            let v1 = movieDuration > Int64(UInt32.max) || movieTimescale > Int64(UInt32.max) || created > UInt64(UInt32.max)
            w.fullBox("mvhd", version: v1 ? 1 : 0, flags: 0) { w in
                times(&w, v1, created)
                w.u32(UInt32(clamping: movieTimescale))
                if v1 { w.u64(UInt64(movieDuration)) } else { w.u32(UInt32(movieDuration)) }
                w.u32(0x0001_0000) // rate 1.0
                w.u16(0x0100) // volume 1.0
                w.zeros(10)
                matrix(&w, rotation: 0, width: 0, height: 0)
                w.zeros(24)
                w.u32(UInt32(tracks.count + (chapterTrack == nil ? 1 : 2))) // next_track_ID
            }
            for t in tracks {
                trak(&w, t, movieTimescale: movieTimescale, chunkBase: chunkBase, co64: co64,
                     rotation: t.description.isVideo ? (rotation ?? t.description.metadata.rotation ?? 0) : 0,
                     fragmented: fragmented, quickTime: quickTime, chapterTrackID: chapterTrackID)
            }
            if let chapterTrack, let chapterTrackID {
                chapterTrak(&w, chapterTrack, id: chapterTrackID, movieTimescale: movieTimescale, chunkBase: chunkBase,
                            co64: co64, created: created, quickTime: quickTime, bitrateBox: !quickTime && !appleBrand,
                            fragmented: fragmented)
            }
            if fragmented {
                w.box("mvex") { w in
                    for id in tracks.map(\.description.id) + (chapterTrackID.map { [$0] } ?? []) {
                        w.fullBox("trex", version: 0, flags: 0) { w in
                            w.u32(UInt32(id))
                            w.u32(1) // sample description index
                            w.u32(0); w.u32(0); w.u32(0)
                        }
                    }
                }
            }
            // udta last in moov, as ffmpeg places it (after mvex when fragmented): tags (in an
            // MP4 an empty meta/ilst beside chapters, as ffmpeg always writes one; in a QuickTime
            // movie user data atoms, and nothing when there are none), then chapters
            let quickTimeTags = quickTime ? QuickTimeUserData(tags) : nil
            if quickTime ? !(quickTimeTags?.isEmpty ?? true) || !chapters.isEmpty : !(tags?.isEmpty ?? true) || !chapters.isEmpty {
                w.box("udta") { w in
                    if let quickTimeTags {
                        quickTimeTags.write(&w)
                    } else {
                        (tags ?? MP4Tags(copying: [:], overrides: nil)).write(&w)
                    }
                    NeroChapters.write(chapters, &w)
                }
            }
        }
        return w.bytes
    }

    private static func trak(_ w: inout ByteWriter, _ t: TrackSummary, movieTimescale: Int64, chunkBase: UInt64,
                             co64: Bool, rotation: Int, fragmented: Bool, quickTime: Bool, chapterTrackID: Int?) {
        let d = t.description
        let created = d.metadata.creationTime.map(mp4Time) ?? 0
        w.box("trak") { w in
            let duration = t.trackDuration
            let v1 = duration > Int64(UInt32.max) || created > UInt64(UInt32.max)
            w.fullBox("tkhd", version: v1 ? 1 : 0, flags: 3) { w in // enabled, in movie
                times(&w, v1, created)
                w.u32(UInt32(d.id))
                w.u32(0)
                if v1 { w.u64(UInt64(duration)) } else { w.u32(UInt32(duration)) }
                w.zeros(8)
                w.u16(0) // layer
                w.u16(d.isVideo ? 0 : 1) // alternate_group
                w.u16(d.isVideo ? 0 : 0x0100) // volume
                w.u16(0)
                matrix(&w, rotation: rotation, mirrored: d.isVideo && d.metadata.mirrored, width: d.width, height: d.height)
                w.u32(displayWidth(d))
                w.u32(UInt32(d.height) << 16)
            }
            if t.needsEditList {
                w.box("edts") { w in
                    let v1 = t.trackDuration > Int64(Int32.max) || abs(t.mediaTime) > Int64(Int32.max)
                    w.fullBox("elst", version: v1 ? 1 : 0, flags: 0) { w in
                        w.u32(t.emptyEdit > 0 ? 2 : 1)
                        if t.emptyEdit > 0 { edit(&w, v1, t.emptyEdit, -1) }
                        edit(&w, v1, t.segmentDuration, t.mediaTime)
                    }
                }
            }
            // every media track names the chapter track, as ffmpeg's muxer does
            if let chapterTrackID {
                w.box("tref") { w in
                    w.box("chap") { $0.u32(UInt32(chapterTrackID)) }
                }
            }
            w.box("mdia") { w in
                let mediaDuration = fragmented ? 0 : t.table.mediaDuration
                let mv1 = mediaDuration > Int64(UInt32.max) || d.timescale > Int64(UInt32.max) || created > UInt64(UInt32.max)
                w.fullBox("mdhd", version: mv1 ? 1 : 0, flags: 0) { w in
                    times(&w, mv1, created)
                    w.u32(UInt32(clamping: d.timescale))
                    if mv1 { w.u64(UInt64(mediaDuration)) } else { w.u32(UInt32(mediaDuration)) }
                    w.u16(quickTime ? d.metadata.quickTimeLanguage : d.metadata.packedLanguage)
                    w.u16(0)
                }
                handler(&w, quickTime ? "mhlr" : nil, d.isVideo ? "vide" : "soun", d.isVideo ? "VideoHandler" : "SoundHandler")
                w.box("minf") { w in
                    if d.isVideo {
                        w.fullBox("vmhd", version: 0, flags: 1) { $0.zeros(8) }
                    } else {
                        w.fullBox("smhd", version: 0, flags: 0) { $0.zeros(4) }
                    }
                    // QuickTime names the data handler too (ISO leaves it out)
                    if quickTime { handler(&w, "dhlr", "url ", "DataHandler") }
                    w.box("dinf") { w in
                        w.fullBox("dref", version: 0, flags: 0) { w in
                            w.u32(1)
                            w.fullBox("url ", version: 0, flags: 1) { _ in }
                        }
                    }
                    stbl(&w, t, chunkBase: chunkBase, co64: co64, quickTime: quickTime)
                }
            }
        }
    }

    /// hdlr: ISO's (pre_defined 0, name NUL-terminated) or, with a QuickTime component type
    /// (`mhlr` media, `dhlr` data handler), QuickTime's, whose name is a Pascal string.
    static func handler(_ w: inout ByteWriter, _ component: StaticString?, _ type: StaticString, _ name: String) {
        w.fullBox("hdlr", version: 0, flags: 0) { w in
            if let component { w.fourCC(component) } else { w.u32(0) }
            w.fourCC(type)
            w.zeros(12)
            let bytes = Array(name.utf8)
            if component != nil { w.u8(UInt8(bytes.count)) }
            w.append(bytes)
            if component == nil { w.u8(0) }
        }
    }

    static func edit(_ w: inout ByteWriter, _ v1: Bool, _ duration: Int64, _ mediaTime: Int64) {
        if v1 { w.u64(UInt64(duration)); w.i64(mediaTime) } else { w.u32(UInt32(duration)); w.i32(Int32(mediaTime)) }
        w.u32(0x0001_0000) // media_rate 1.0
    }

    private static func stbl(_ w: inout ByteWriter, _ t: TrackSummary, chunkBase: UInt64, co64: Bool, quickTime: Bool) {
        let table = t.table
        w.box("stbl") { w in
            w.fullBox("stsd", version: 0, flags: 0) { w in
                w.u32(1)
                if quickTime {
                    QuickTimeSampleEntry.write(&w, track: t.description, configuration: t.configuration,
                                               maxSampleSize: Int(table.maxSampleSize), averageBitrate: t.averageBitrate)
                } else {
                    SampleEntry.write(&w, track: t.description, configuration: t.configuration,
                                      maxSampleSize: Int(table.maxSampleSize), averageBitrate: t.averageBitrate)
                }
            }
            w.fullBox("stts", version: 0, flags: 0) { w in
                w.u32(UInt32(table.timeRuns.count))
                for r in table.timeRuns { w.u32(r.count); w.u32(r.delta) }
            }
            // a .mov has stss before ctts, as ffmpeg's mov muxer orders them
            if quickTime { syncSamples(&w, table) }
            if table.hasCompositionOffsets {
                let signed = table.hasNegativeOffsets
                w.fullBox("ctts", version: signed ? 1 : 0, flags: 0) { w in
                    w.u32(UInt32(table.offsetRuns.count))
                    for r in table.offsetRuns {
                        w.u32(r.count)
                        if signed { w.i32(Int32(clamping: r.offset)) } else { w.u32(UInt32(clamping: r.offset)) }
                    }
                }
            }
            if !quickTime { syncSamples(&w, table) }
            w.fullBox("stsc", version: 0, flags: 0) { w in
                var entries: [(UInt32, UInt32)] = []
                for (i, n) in table.chunkSampleCounts.enumerated() where entries.last?.1 != n {
                    entries.append((UInt32(i + 1), n))
                }
                w.u32(UInt32(entries.count))
                for e in entries { w.u32(e.0); w.u32(e.1); w.u32(1) }
            }
            w.fullBox("stsz", version: 0, flags: 0) { w in
                if let size = table.constantSize {
                    w.u32(size)
                    w.u32(UInt32(table.count))
                } else if let first = table.sizes.first, table.sizes.allSatisfy({ $0 == first }) {
                    w.u32(first)
                    w.u32(UInt32(table.count))
                } else {
                    w.u32(0)
                    w.u32(UInt32(table.count))
                    for s in table.sizes { w.u32(s) }
                }
            }
            if co64 {
                w.fullBox("co64", version: 0, flags: 0) { w in
                    w.u32(UInt32(table.chunkOffsets.count))
                    for o in table.chunkOffsets { w.u64(o + chunkBase) }
                }
            } else {
                w.fullBox("stco", version: 0, flags: 0) { w in
                    w.u32(UInt32(table.chunkOffsets.count))
                    for o in table.chunkOffsets { w.u32(UInt32(truncatingIfNeeded: o + chunkBase)) }
                }
            }
            if let groups = RollGroups(codec: t.description.codec, timescale: t.description.timescale, table: table) { groups.write(&w) }
        }
    }

    /// stss: the sync samples, when not every sample is one.
    private static func syncSamples(_ w: inout ByteWriter, _ table: SampleTable) {
        guard !table.allSync else { return }
        w.fullBox("stss", version: 0, flags: 0) { w in
            w.u32(UInt32(table.syncSamples.count))
            for s in table.syncSamples { w.u32(s) }
        }
    }

    /// Creation and modification time (both the creation time, as ffmpeg writes them).
    static func times(_ w: inout ByteWriter, _ v1: Bool, _ t: UInt64) {
        if v1 { w.u64(t); w.u64(t) } else { w.u32(UInt32(truncatingIfNeeded: t)); w.u32(UInt32(truncatingIfNeeded: t)) }
    }

    /// Seconds since 1904-01-01 UTC (the MP4 epoch) of a time in seconds since 1970 (0 before 1904).
    static func mp4Time(_ unixSeconds: Int64) -> UInt64 {
        let (t, overflow) = unixSeconds.addingReportingOverflow(2_082_844_800)
        return overflow || t < 0 ? 0 : UInt64(t)
    }

    /// tkhd's width (16.16): the display width, the coded width stretched by the sample aspect
    /// ratio and rounded to the nearest 1/65536, as ffmpeg writes it; the coded width when that
    /// does not fit.
    static func displayWidth(_ d: MP4TrackDescription) -> UInt32 {
        let coded = UInt32(d.width) << 16
        guard d.isVideo, let a = d.metadata.nonSquareAspect else { return coded }
        let (product, overflow) = (Int64(d.width) << 16).multipliedReportingOverflow(by: a.num)
        guard !overflow else { return coded }
        let w = (product + a.den / 2) / a.den
        return w > 0 && w <= Int64(UInt32.max) ? UInt32(w) : coded
    }

    /// The display matrix for a rotation in `VideoFormat.rotation`'s convention, as ffmpeg writes it for its `rotate` tag
    /// (rotation only; players place the rotated picture themselves); `mirrored` negates the
    /// second row, as the source's matrix had it (`VideoFormat.mirrored`).
    static func matrix(_ w: inout ByteWriter, rotation: Int, mirrored: Bool = false, width: Int, height: Int) {
        let (a, b, c, d): (Int32, Int32, Int32, Int32)
        switch rotation {
        case 90: (a, b, c, d) = (0, -1, 1, 0)
        case 180: (a, b, c, d) = (-1, 0, 0, -1)
        case 270: (a, b, c, d) = (0, 1, -1, 0)
        default: (a, b, c, d) = (1, 0, 0, 1)
        }
        let flip: Int32 = mirrored ? -1 : 1
        w.i32(a << 16); w.i32(b << 16); w.u32(0)
        w.i32(flip * c << 16); w.i32(flip * d << 16); w.u32(0)
        w.u32(0); w.u32(0); w.u32(0x4000_0000)
    }
}
