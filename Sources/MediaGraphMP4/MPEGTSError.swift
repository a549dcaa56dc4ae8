import MediaGraphCore

/// Why the MPEG-TS muxer refused a stream or a packet, or failed. Each case names the track.
public enum MPEGTSMuxerError: Error, CustomStringConvertible, Equatable {
    case unsupported(stream: Int, format: String)
    case noStreams
    case programTooLarge(streams: Int)
    case invalidState(operation: String, state: MP4MuxerState)
    case unknownTrack(MP4TrackID)
    case decodeOrder(track: String, sample: Int, dts: Int64, previousDTS: Int64)
    case missingConfiguration(track: String)
    case invalidSample(track: String, sample: Int, reason: String)
    case io(MP4IOError)

    public var description: String {
        switch self {
        case .unsupported(let k, let f):
            return "mpegts muxer: stream \(k + 1) (\(f)) cannot be carried: MPEG-TS output takes H.264 or HEVC video and AAC or MP3 audio"
        case .noStreams:
            return "mpegts muxer: no streams to write"
        case .programTooLarge(let n):
            return "mpegts muxer: \(n) streams (with their language lists) do not fit one program map section of 1021 bytes; connect fewer inputs"
        case .invalidState(let op, let state):
            return "mpegts muxer: cannot \(op) in state \(state)"
        case .unknownTrack(let id):
            return "mpegts muxer: no \(id); add tracks with addTrack first"
        case .decodeOrder(let track, let sample, let dts, let prev):
            return "mpegts muxer: \(track): sample \(sample) is out of decode order: dts \(dts) after dts \(prev) (decode timestamps must increase)"
        case .missingConfiguration(let track):
            return "mpegts muxer: \(track): no codec configuration (parameter sets / AudioSpecificConfig) on its first packet"
        case .invalidSample(let track, let sample, let reason):
            return "mpegts muxer: \(track): sample \(sample): \(reason)"
        case .io(let e):
            return "mpegts muxer: \(e.description)"
        }
    }
}
