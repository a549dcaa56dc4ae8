import MediaGraphCore

/// The chapter track's `trak` (see `ChapterTrack`), box for box as ffmpeg 5.1 writes it.
extension MovieBox {
    /// - Parameters:
    ///   - id: its track ID (after every media track).
    ///   - chunkBase: file offset of mdat's first byte, where the chapter samples are.
    ///   - created: the movie's creation time (MP4 epoch).
    ///   - fragmented: no edit list, durations 0 and empty sample tables (the samples are in the
    ///     first fragment, `chapterFragment`).
    static func chapterTrak(_ w: inout ByteWriter, _ c: ChapterTrack, id: Int, movieTimescale: Int64, chunkBase: UInt64,
                            co64: Bool, created: UInt64, quickTime: Bool, bitrateBox: Bool, fragmented: Bool = false) {
        let duration = fragmented ? 0 : movieTicks(c.presentedDuration, movieTimescale: movieTimescale)
        w.box("trak") { w in
            let v1 = duration > Int64(UInt32.max) || created > UInt64(UInt32.max)
            w.fullBox("tkhd", version: v1 ? 1 : 0, flags: 2) { w in // in the movie, not enabled: not shown as a track
                times(&w, v1, created)
                w.u32(UInt32(id))
                w.u32(0)
                if v1 { w.u64(UInt64(duration)) } else { w.u32(UInt32(duration)) }
                w.zeros(8)
                w.zeros(8) // layer, alternate group, volume, reserved
                matrix(&w, rotation: 0, width: 0, height: 0)
                w.u32(0); w.u32(0) // no picture
            }
            if !fragmented {
                w.box("edts") { w in
                    let v1 = duration > Int64(Int32.max)
                    w.fullBox("elst", version: v1 ? 1 : 0, flags: 0) { w in
                        w.u32(1)
                        edit(&w, v1, duration, 0)
                    }
                }
            }
            w.box("mdia") { w in
                let mediaDuration = fragmented ? 0 : c.presentedDuration
                let mv1 = mediaDuration > Int64(UInt32.max) || created > UInt64(UInt32.max)
                w.fullBox("mdhd", version: mv1 ? 1 : 0, flags: 0) { w in
                    times(&w, mv1, created)
                    w.u32(UInt32(ChapterTrack.timescale))
                    if mv1 { w.u64(UInt64(mediaDuration)) } else { w.u32(UInt32(mediaDuration)) }
                    w.u16(0) // language 0, in both modes, as ffmpeg leaves it
                    w.u16(0)
                }
                handler(&w, quickTime ? "mhlr" : nil, "text", "SubtitleHandler")
                w.box("minf") { w in
                    w.box("gmhd") { w in
                        w.fullBox("gmin", version: 0, flags: 0) { w in
                            w.u16(0x40) // graphics mode: copy
                            w.u16(0x8000); w.u16(0x8000); w.u16(0x8000) // op colour
                            w.u16(0) // balance
                            w.u16(0)
                        }
                        // the text media header: a display matrix
                        w.box("text") { w in matrix(&w, rotation: 0, width: 0, height: 0) }
                    }
                    if quickTime { handler(&w, "dhlr", "url ", "DataHandler") }
                    w.box("dinf") { w in
                        w.fullBox("dref", version: 0, flags: 0) { w in
                            w.u32(1)
                            w.fullBox("url ", version: 0, flags: 1) { _ in }
                        }
                    }
                    if fragmented {
                        emptySampleTable(&w)
                    } else {
                        chapterSampleTable(&w, c, chunkBase: chunkBase, co64: co64, bitrateBox: bitrateBox)
                    }
                }
            }
        }
    }

    /// A fragmented file's: the sample description, and no samples.
    private static func emptySampleTable(_ w: inout ByteWriter) {
        w.box("stbl") { w in
            w.fullBox("stsd", version: 0, flags: 0) { w in
                w.u32(1)
                textSampleEntry(&w, bitrate: 0)
            }
            w.fullBox("stts", version: 0, flags: 0) { $0.u32(0) }
            w.fullBox("stsc", version: 0, flags: 0) { $0.u32(0) }
            w.fullBox("stsz", version: 0, flags: 0) { $0.u32(0); $0.u32(0) }
            w.fullBox("stco", version: 0, flags: 0) { $0.u32(0) }
        }
    }

    private static func chapterSampleTable(_ w: inout ByteWriter, _ c: ChapterTrack, chunkBase: UInt64, co64: Bool, bitrateBox: Bool) {
        w.box("stbl") { w in
            w.fullBox("stsd", version: 0, flags: 0) { w in
                w.u32(1)
                textSampleEntry(&w, bitrate: bitrateBox ? c.averageBitrate : 0)
            }
            var runs: [(count: UInt32, delta: UInt32)] = []
            for d in c.deltas.map({ UInt32(clamping: $0) }) {
                if runs.last?.delta == d { runs[runs.count - 1].count += 1 } else { runs.append((1, d)) }
            }
            w.fullBox("stts", version: 0, flags: 0) { w in
                w.u32(UInt32(runs.count))
                for r in runs { w.u32(r.count); w.u32(r.delta) }
            }
            let chunks = c.chunkSampleCounts
            w.fullBox("stsc", version: 0, flags: 0) { w in
                var entries: [(UInt32, UInt32)] = []
                for (i, n) in chunks.enumerated() where entries.last?.1 != UInt32(n) { entries.append((UInt32(i + 1), UInt32(n))) }
                w.u32(UInt32(entries.count))
                for e in entries { w.u32(e.0); w.u32(e.1); w.u32(1) }
            }
            w.fullBox("stsz", version: 0, flags: 0) { w in
                let sizes = c.samples.map { UInt32($0.bytes.count) }
                if let first = sizes.first, sizes.allSatisfy({ $0 == first }) {
                    w.u32(first); w.u32(UInt32(sizes.count))
                } else {
                    w.u32(0); w.u32(UInt32(sizes.count))
                    for s in sizes { w.u32(s) }
                }
            }
            var offsets: [UInt64] = [], offset: UInt64 = 0, sample = 0
            for n in chunks {
                offsets.append(chunkBase + offset)
                for s in c.samples[sample..<(sample + n)] { offset += UInt64(s.bytes.count) }
                sample += n
            }
            if co64 {
                w.fullBox("co64", version: 0, flags: 0) { w in
                    w.u32(UInt32(offsets.count)); for o in offsets { w.u64(o) }
                }
            } else {
                w.fullBox("stco", version: 0, flags: 0) { w in
                    w.u32(UInt32(offsets.count)); for o in offsets { w.u32(UInt32(truncatingIfNeeded: o)) }
                }
            }
        }
    }

    /// A `text` sample description with the 3GPP TextSampleEntry body ffmpeg writes for QuickTime
    /// to recognise the track: display flags 1, no justification, transparent black background,
    /// an empty text box, one style record of font 1, and a font table naming font 1 with an
    /// empty name; in an MP4 (not iPod or QuickTime) a `btrt` follows when the rate is known.
    private static func textSampleEntry(_ w: inout ByteWriter, bitrate: UInt32) {
        w.box("text") { w in
            w.zeros(6)
            w.u16(1) // data reference index
            w.u32(1) // display flags
            w.u8(0); w.u8(0) // horizontal, vertical justification
            w.u32(0) // background colour RGBA
            w.zeros(8) // default text box: top, left, bottom, right
            w.u16(0); w.u16(0) // style record: first and last character
            w.u16(1) // font ID
            w.u8(0); w.u8(0) // face flags, size
            w.u32(0) // text colour RGBA
            w.box("ftab") { w in
                w.u16(1) // one font
                w.u16(1) // its ID
                w.u8(0) // and an empty name
            }
            if bitrate > 0 {
                w.box("btrt") { w in
                    w.u32(0) // buffer size
                    w.u32(bitrate) // maximum
                    w.u32(bitrate) // average
                }
            }
        }
    }

    /// Milliseconds of the chapter track in the movie timescale, rounded up as ffmpeg rounds
    /// a track's duration.
    static func movieTicks(_ ms: Int64, movieTimescale: Int64) -> Int64 {
        let (hi, lo) = ms.multipliedFullWidth(by: movieTimescale)
        let (q, r) = ChapterTrack.timescale.dividingFullWidth((hi, lo))
        return r > 0 ? q + 1 : q
    }
}
