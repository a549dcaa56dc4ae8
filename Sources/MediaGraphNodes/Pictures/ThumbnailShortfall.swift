import MediaGraphCodecs
import MediaGraphCore

/// Why `ThumbnailMaker` made fewer pictures than asked for.
public enum ThumbnailShortfall: Sendable, Equatable, CustomStringConvertible {
    /// The file has fewer distinct frames than pictures were asked for (every one was taken).
    case fewFrames(found: Int)
    /// The video ends well before the duration the file declares: a file cut short (a download
    /// or copy that stopped), whose header still claims the whole length.
    case cutShort(atSeconds: Double, declaredSeconds: Double)

    public var description: String {
        switch self {
        case let .fewFrames(found):
            return found == 0 ? "the file has no decodable frame" : "the file has only \(found) distinct frame\(found == 1 ? "" : "s")"
        case let .cutShort(at, declared):
            return "the file ends early: it was cut short at about \(Self.seconds(at)) s of the \(Self.seconds(declared)) s it declares"
        }
    }

    static func seconds(_ s: Double) -> String {
        let tenths = (Swift.max(0, s) * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
    }

    /// Video ending this much before the declared duration (and more than 5 % of it) counts as cut
    /// short; less is containers' rounding and streams of slightly different lengths.
    static let slackSeconds = 0.5

    /// Why `found` pictures are all there are: the file's video is measured from `from` (µs on
    /// the file's clock: the last picture, or the start) to its last packet, and compared with
    /// what it declares (the video stream's duration, else the file's). Reads packets without
    /// decoding them, one stretch of the file at most (from the last picture on), and only when
    /// pictures are missing.
    static func measure(_ demuxer: Demuxer, video: StreamInfo, from: Int64, fileStart: Int64,
                        declaredMicroseconds: Int64, found: Int) -> ThumbnailShortfall {
        let declared = video.durationSeconds.flatMap { $0 > 0 ? $0 : nil } ?? Double(declaredMicroseconds) / 1e6
        guard let end = videoEnd(demuxer, video: video, from: from) else {
            // not one packet could be read from there on: the data stops before it
            let at = Double(from - fileStart) / 1e6
            return declared - at > Swift.max(slackSeconds, declared * 0.05) ? .cutShort(atSeconds: at, declaredSeconds: declared) : .fewFrames(found: found)
        }
        let at = end - Double(fileStart) / 1e6
        if declared - at > Swift.max(slackSeconds, declared * 0.05) { return .cutShort(atSeconds: at, declaredSeconds: declared) }
        return .fewFrames(found: found)
    }

    /// Seconds (file clock) where the last video packet from `from` on ends; nil when none can be
    /// read. A read error ends the reading: in a cut file that is where the data stops.
    private static func videoEnd(_ demuxer: Demuxer, video: StreamInfo, from: Int64) -> Double? {
        guard var packets = try? demuxer.seek(toMicroseconds: from, keyFrameAtOrBefore: from, video: video)[...] else { return nil }
        var end: Int64?
        while let p = packets.popFirst() ?? (try? demuxer.read()) {
            guard p.streamIndex == video.index else { continue }
            let t = p.pts != DemuxedPacket.noTime ? p.pts : p.dts
            guard t != DemuxedPacket.noTime else { continue }
            let e = t + Swift.max(0, p.duration)
            end = Swift.max(end ?? e, e)
        }
        return end.map { Double($0) * video.timeBase.doubleValue }
    }
}
