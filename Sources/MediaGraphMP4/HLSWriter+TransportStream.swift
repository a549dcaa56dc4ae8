import MediaGraphCore

/// What kind of media segments an HLS stream has (ffmpeg's -hls_segment_type).
public enum HLSSegmentType: String, Sendable, CaseIterable {
    /// Fragmented MP4 with an initialization segment (`#EXT-X-MAP`), playlist version 7.
    case fmp4
    /// MPEG-2 transport stream segments, each starting with PAT and PMT, playlist version 3.
    case mpegts
}

/// MPEG-TS segments from an `MPEGTSMuxer`: the packets of each segment go to
/// `<prefix>N.ts` as they come (an exclusive temporary beside the playlist), which is put in
/// place, whole, when the muxer ends the segment; then the playlist lists it (EVENT, live).
extension HLSWriter: MPEGTSOutput {
    /// Fails now, not after the first segment's media is made, when the folder cannot be written.
    func checkFolderIsWritable() throws {
        do { try OutputFile(path: folder + prefix + "0.ts", bufferSize: 4096).discard() } catch let e as MP4IOError {
            throw MP4MuxerError.io(e)
        }
    }

    var nextSegmentName: String { prefix + String(playlist.segments.count) + ".ts" }

    public func write(_ packets: [UInt8]) throws {
        if segmentFile == nil { segmentFile = try OutputFile(path: folder + nextSegmentName, bufferSize: 1 << 20) }
        do { try segmentFile!.write(packets) } catch {
            segmentFile!.discard()
            segmentFile = nil
            throw error
        }
    }

    public func endSegment(duration: MediaTime) throws {
        guard let file = segmentFile else { return }
        let bytes = Int(file.position)
        segmentFile = nil
        do { try file.closeFile() } catch {
            file.discard()
            throw error
        }
        written.append(file.path)
        try add(HLSPlaylist.Segment(uri: nextSegmentName, duration: duration, independent: true, bytes: bytes))
    }

    public func finish(lastSegmentDuration: MediaTime) throws {
        try endSegment(duration: lastSegmentDuration)
        try finishFragments()
    }
}
