import MediaGraphCore
import MediaGraphMP4

/// Clusters of blocks and the cue points that index them.
///
/// Cluster policy (ffmpeg's matroskaenc's for a seekable file): a new cluster starts at a video
/// key frame once the open one holds more than 4 KiB, or at any packet once it holds more than
/// 5 MiB or spans more than 5 s, or when a block's time would not fit the 16-bit offset from
/// the cluster's. A cue point is written for every video key frame (cluster and offset in it),
/// or, in a file without video, for the first block of every cluster.
extension MatroskaMuxer {
    struct OpenCluster {
        /// Where the Cluster element starts, and its data (after the 4-byte ID and 8-byte size).
        var start: UInt64
        var dataStart: UInt64
        /// Milliseconds.
        var timestamp: Int64
    }

    struct CuePoint {
        var time: Int64
        var track: Int
        /// From the segment's data start.
        var clusterPosition: UInt64
        /// From the cluster's data start to the block.
        var relativePosition: UInt64
        /// A subtitle cue's duration (ms), written as CueDuration.
        var duration: Int64?
    }

    static let keyFrameClusterBytes: UInt64 = 4 << 10
    static let clusterBytesLimit: UInt64 = 5 << 20
    static let clusterTimeLimit: Int64 = 5000

    func writeBlock(_ p: QueuedPacket, of t: Track) throws {
        guard let file else { return }
        let time = p.pts + t.codecDelay + timeShift
        let isVideo = t.description.isVideo
        let startsCluster = needsNewCluster(at: time, videoKeyFrame: isVideo && p.isKeyFrame)
        if startsCluster { try openCluster(at: time) }
        guard let c = cluster else { return }
        let relative = time - c.timestamp
        guard let offset = Int16(exactly: relative) else {
            throw MatroskaMuxerError.invalidPacket(track: t.name, packet: p.number,
                                                   reason: "time \(time) ms is more than 32.767 s before its cluster's (\(c.timestamp) ms)")
        }
        let isSubtitle = t.description.isSubtitle
        // every cue of a subtitle track is a cue point (with its duration), as ffmpeg indexes them
        if isSubtitle || (isVideo ? p.isKeyFrame : (startsCluster && !tracks.contains { $0.description.isVideo })) {
            cues.append(CuePoint(time: max(0, time), track: t.number, clusterPosition: c.start - layout.segmentDataStart,
                                 relativePosition: file.position - c.dataStart, duration: isSubtitle && p.duration > 0 ? p.duration : nil))
        }
        if isSubtitle {
            try writeSubtitleBlock(p, of: t, offset: offset)
            endTime = max(endTime, p.pts + timeShift + p.duration)
            return
        }
        // H.264/HEVC as the avcC/hvcC in CodecPrivate announce them: 4-byte length prefixes
        payload.removeAll(keepingCapacity: true)
        var converted = false
        let malformed = p.data.withUnsafeBytes { raw -> String? in
            do { converted = try LengthPrefixedNALUnits.appendConverted(raw, codec: t.description.codec, framing: t.framing, to: &payload) } catch {
                return "\(error)"
            }
            return nil
        }
        if let malformed { throw MatroskaMuxerError.invalidPacket(track: t.name, packet: p.number, reason: malformed) }
        if converted && payload.isEmpty {
            throw MatroskaMuxerError.invalidPacket(track: t.name, packet: p.number, reason: "holds only parameter sets or delimiters, no picture")
        }
        let size = UInt64(converted ? payload.count : p.data.count)
        // a block: track number (one byte: at most 126 tracks), 16-bit time offset, flags
        header.bytes.removeAll(keepingCapacity: true)
        var trailer: [UInt8] = []
        if p.discardPadding != 0 && !isVideo {
            // DiscardPadding needs a BlockGroup (audio: every block a key frame, no references)
            var padding = EBMLWriter(capacity: 12)
            padding.int(MatroskaID.discardPadding, p.discardPadding)
            trailer = padding.bytes
            var blockHeader = EBMLWriter(capacity: 12)
            blockHeader.id(MatroskaID.block)
            blockHeader.size(size + 4)
            header.id(MatroskaID.blockGroup)
            header.size(UInt64(blockHeader.bytes.count) + size + 4 + UInt64(trailer.count))
            header.bytes.append(contentsOf: blockHeader.bytes)
            appendBlockFields(track: t.number, offset: offset, flags: 0)
        } else {
            header.id(MatroskaID.simpleBlock)
            header.size(size + 4)
            appendBlockFields(track: t.number, offset: offset, flags: p.isKeyFrame || !isVideo ? 0x80 : 0)
        }
        try file.write(header.bytes)
        if converted { try file.write(payload) } else { try file.write(p.data) }
        if !trailer.isEmpty { try file.write(trailer) }
        // the presentation end: Opus's codec delay is not part of the time a reader shows
        endTime = max(endTime, p.pts + timeShift + p.duration)
    }

    /// A cue: a BlockGroup of the Block and its BlockDuration, as ffmpeg writes a subtitle with a
    /// duration (a WebVTT cue always, its identifier and settings leading the text, one line
    /// each); a SimpleBlock key frame for a cue without one.
    private func writeSubtitleBlock(_ p: QueuedPacket, of t: Track, offset: Int16) throws {
        guard let file else { return }
        var body = p.data.array
        if t.description.codec == .webvtt {
            let extras = p.webVTT ?? WebVTTCueExtras()
            body = extras.identifier + [0x0A] + extras.settings + [0x0A] + body
        }
        header.bytes.removeAll(keepingCapacity: true)
        if p.duration <= 0 && t.description.codec != .webvtt {
            header.id(MatroskaID.simpleBlock)
            header.size(UInt64(body.count) + 4)
            appendBlockFields(track: t.number, offset: offset, flags: 0x80)
            try file.write(header.bytes)
            try file.write(body)
            return
        }
        var block = EBMLWriter(capacity: 16)
        block.id(MatroskaID.block)
        block.size(UInt64(body.count) + 4)
        var duration = EBMLWriter(capacity: 12)
        duration.uint(MatroskaID.blockDuration, UInt64(max(0, p.duration)))
        header.id(MatroskaID.blockGroup)
        header.size(UInt64(block.bytes.count + 4 + body.count + duration.bytes.count))
        header.bytes.append(contentsOf: block.bytes)
        appendBlockFields(track: t.number, offset: offset, flags: 0)
        try file.write(header.bytes)
        try file.write(body)
        try file.write(duration.bytes)
    }

    private func appendBlockFields(track: Int, offset: Int16, flags: UInt8) {
        header.bytes.append(0x80 | UInt8(track))
        let o = UInt16(bitPattern: offset)
        header.bytes.append(UInt8(o >> 8))
        header.bytes.append(UInt8(o & 0xFF))
        header.bytes.append(flags)
    }

    func needsNewCluster(at time: Int64, videoKeyFrame: Bool) -> Bool {
        guard let c = cluster, let file else { return true }
        let bytes = file.position - c.dataStart
        let relative = time - c.timestamp
        return Int16(exactly: relative) == nil || bytes > Self.clusterBytesLimit || relative > Self.clusterTimeLimit
            || (videoKeyFrame && bytes > Self.keyFrameClusterBytes)
    }

    /// Closes the open cluster and starts one at `time` (cluster times are unsigned: a block
    /// before zero goes into a cluster at zero, at a negative offset).
    func openCluster(at time: Int64) throws {
        guard let file else { return }
        closeCluster()
        let start = file.position
        let timestamp = max(0, time)
        var w = EBMLWriter(capacity: 24)
        w.id(MatroskaID.cluster)
        w.bytes.append(contentsOf: EBMLWriter.unknownSize)
        w.uint(MatroskaID.timestamp, UInt64(timestamp))
        try file.write(w.bytes)
        cluster = OpenCluster(start: start, dataStart: start + 12, timestamp: timestamp)
    }

    /// Notes the open cluster's size for the end (its size field says "unknown" until then).
    func closeCluster() {
        guard let c = cluster, let file else { return }
        layout.clusterSizes.append((c.start + 4, file.position - c.dataStart))
        cluster = nil
    }
}
