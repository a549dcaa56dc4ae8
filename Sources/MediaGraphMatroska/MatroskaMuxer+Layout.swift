import MediaGraphCore

/// The file around the clusters: EBML header, Segment, a room for the SeekHead, Info and Tracks
/// in front; Cues at the end; then the sizes and the duration patched in.
extension MatroskaMuxer {
    /// Where the patched fields are (absolute byte offsets).
    struct Layout {
        var segmentSizeOffset: UInt64 = 0
        var segmentDataStart: UInt64 = 0
        var infoPosition: UInt64 = 0
        var tracksPosition: UInt64 = 0
        var chaptersPosition: UInt64?
        var tagsPosition: UInt64?
        var durationOffset: UInt64 = 0
        /// Each closed cluster's size field and its data size.
        var clusterSizes: [(offset: UInt64, size: UInt64)] = []
    }

    /// Bytes kept after the Segment header for the SeekHead written at the end, the rest a Void:
    /// five entries (Info, Tracks, Chapters, Tags, Cues) of at most 21 bytes, the SeekHead's ID
    /// and size (5), and 2 so that a Void always fits after it.
    static let seekHeadRoom = 5 * 21 + 5 + 2
    static let appName = "MediaGraph"

    /// The EBML header, the Segment (size unknown until the end), the SeekHead room, Info with a
    /// Duration patched at the end, Tracks, then Chapters and Tags when there are any (ffmpeg's
    /// order).
    func writeHeader() throws {
        guard let file else { return }
        // Colour, CodecDelay, SeekPreRoll and DiscardPadding are version 4 elements
        let usesVersion4 = tracks.contains { $0.description.hasColour || $0.description.codec == .opus }
        var w = EBMLWriter(capacity: 1024)
        w.master(MatroskaID.ebml) { w in
            w.uint(MatroskaID.ebmlVersion, 1)
            w.uint(MatroskaID.ebmlReadVersion, 1)
            w.uint(MatroskaID.ebmlMaxIDLength, 4)
            w.uint(MatroskaID.ebmlMaxSizeLength, 8)
            w.string(MatroskaID.docType, docType.rawValue)
            w.uint(MatroskaID.docTypeVersion, usesVersion4 ? 4 : 2)
            // SimpleBlock needs a version 2 reader
            w.uint(MatroskaID.docTypeReadVersion, 2)
        }
        w.id(MatroskaID.segment)
        layout.segmentSizeOffset = file.position + UInt64(w.bytes.count)
        w.bytes.append(contentsOf: EBMLWriter.unknownSize)
        layout.segmentDataStart = file.position + UInt64(w.bytes.count)
        w.void(total: Self.seekHeadRoom)
        layout.infoPosition = file.position + UInt64(w.bytes.count)
        w.master(MatroskaID.info) { w in
            w.uint(MatroskaID.timestampScale, 1_000_000) // milliseconds
            if let title = tags.title { w.string(MatroskaID.title, title) }
            w.string(MatroskaID.muxingApp, Self.appName)
            w.string(MatroskaID.writingApp, Self.appName)
            w.float(MatroskaID.duration, 0)   // last: its 8 bytes end the element
        }
        layout.durationOffset = file.position + UInt64(w.bytes.count) - 8
        layout.tracksPosition = file.position + UInt64(w.bytes.count)
        w.master(MatroskaID.tracks) { w in
            for t in tracks {
                TrackEntry.write(&w, number: t.number, track: t.description, codecPrivate: t.codecPrivate,
                                 codecDelayNanoseconds: t.codecDelayNanoseconds)
            }
        }
        if !chapters.isEmpty {
            layout.chaptersPosition = file.position + UInt64(w.bytes.count)
            MatroskaChapters.write(chapters, webm: docType == .webm, &w)
        }
        if !tags.simpleTags.isEmpty {
            layout.tagsPosition = file.position + UInt64(w.bytes.count)
            tags.writeTags(&w)
        }
        try file.write(w.bytes)
    }

    /// Closes the last cluster, writes the Cues, then patches the cluster sizes, the Duration,
    /// the SeekHead and the Segment size.
    func writeTrailer() throws {
        guard let file else { return }
        closeCluster()
        let base = layout.segmentDataStart
        var cuesPosition: UInt64?
        if !cues.isEmpty {
            cuesPosition = file.position
            var w = EBMLWriter(capacity: cues.count * 24)
            // by time; stable, so several video tracks' points at one time keep track order
            let sorted = cues.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            w.master(MatroskaID.cues) { w in
                for c in sorted {
                    w.master(MatroskaID.cuePoint) { w in
                        w.uint(MatroskaID.cueTime, UInt64(c.time))
                        w.master(MatroskaID.cueTrackPositions) { w in
                            w.uint(MatroskaID.cueTrack, UInt64(c.track))
                            w.uint(MatroskaID.cueClusterPosition, c.clusterPosition)
                            w.uint(MatroskaID.cueRelativePosition, c.relativePosition)
                            if let d = c.duration { w.uint(MatroskaID.cueDuration, UInt64(d)) }
                        }
                    }
                }
            }
            try file.write(w.bytes)
        }
        let end = file.position
        for c in layout.clusterSizes { try file.patch(EBMLWriter.size8(c.size), at: c.offset) }
        let duration = Double(endTime).bitPattern
        try file.patch((0..<8).map { UInt8((duration >> (8 * UInt64(7 - $0))) & 0xFF) }, at: layout.durationOffset)
        var seek = EBMLWriter(capacity: Self.seekHeadRoom)
        seek.master(MatroskaID.seekHead) { w in
            func entry(_ id: UInt32, _ position: UInt64) {
                w.master(MatroskaID.seek) { w in
                    var idBytes = EBMLWriter()
                    idBytes.id(id)
                    w.binary(MatroskaID.seekID, idBytes.bytes)
                    w.uint(MatroskaID.seekPosition, position - base)
                }
            }
            entry(MatroskaID.info, layout.infoPosition)
            entry(MatroskaID.tracks, layout.tracksPosition)
            if let p = layout.chaptersPosition { entry(MatroskaID.chapters, p) }
            if let p = layout.tagsPosition { entry(MatroskaID.tags, p) }
            if let cuesPosition { entry(MatroskaID.cues, cuesPosition) }
        }
        seek.void(total: Self.seekHeadRoom - seek.bytes.count)
        try file.patch(seek.bytes, at: base)
        try file.patch(EBMLWriter.size8(end - base), at: layout.segmentSizeOffset)
    }
}
