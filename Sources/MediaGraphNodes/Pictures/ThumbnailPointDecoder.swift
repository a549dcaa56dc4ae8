import MediaGraphCodecs
import MediaGraphCore

extension ThumbnailMaker {
    /// What decoding at one point met besides frames.
    struct PointDecoding {
        /// Frames the decoder gave.
        var framesDecoded = 0
        /// The first packet that did not decode or read that failed, for the error when no
        /// picture at all can be made (a damaged or cut file).
        var firstProblem: String?
    }

    /// Feeds `point` the frames of one GOP from where the seek landed (`readAhead`, then the
    /// demuxer) until it has its frame. At the end of the GOP or of the file the decoder is
    /// drained: its reordering delay holds the last frames back (x264's B-frames: the last 1–3
    /// of a file, and every frame of a file that short), and they are candidates like any other.
    ///
    /// A packet that does not decode, or a read that fails, does not end the run: ffmpeg skips
    /// such packets too, and a file cut short ends in a partial one. A failed read ends this
    /// point's reading (in a cut file it is where the data stops).
    static func decode(_ point: inout ThumbnailPoint, readAhead: [DemuxedPacket], demuxer: Demuxer,
                       decoder: VideoDecoder) throws -> PointDecoding {
        var result = PointDecoding()
        var pending = readAhead[...]
        func note(_ error: any Error) { if result.firstProblem == nil { result.firstProblem = "\(error)" } }
        func next() -> DemuxedPacket? {
            if let p = pending.popFirst() { return p }
            do { return try demuxer.read() } catch { note(error); return nil }
        }
        /// Receives what the decoder has; true when the point's search is over.
        func receiveAll() -> Bool {
            while true {
                let frame: SampleBuffer?
                do { frame = try decoder.receive() } catch { note(error); return false }
                guard let frame else { return false }
                result.framesDecoded += 1
                if point.consider(frame) { return true }
            }
        }
        while let packet = next() {
            // a key frame after the first frame looked at ends the GOP
            if packet.isKeyFrame && point.looked > 0 && point.hasCandidate { break }
            do {
                try packet.bytes.withUnsafeBytes {
                    try decoder.send(bytes: $0, pts: packet.pts, dts: packet.dts, duration: packet.duration, keyFrame: packet.isKeyFrame,
                                       palette: packet.palette)
                }
            } catch {
                note(error)
                continue
            }
            if receiveAll() { return result }
        }
        try decoder.sendEndOfStream()
        _ = receiveAll()
        return result
    }
}
