#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// A failed file operation: which file, where, and the system's reason.
public struct MP4IOError: Error, CustomStringConvertible, Equatable {
    public var operation: String
    public var path: String
    public var offset: UInt64?
    /// The `errno` value.
    public var code: Int32

    public var description: String {
        var reason = String(cString: strerror(code))
        if code == ENOSPC { reason += " (the disk is full)" }
        if code == EFBIG { reason += " (the file size limit was reached)" }
        let at = offset.map { " at byte \($0)" } ?? ""
        return "cannot \(operation) \(path)\(at): \(reason)"
    }
}

/// Why the muxer refused a call or failed. Every case names the track it concerns.
public enum MP4MuxerError: Error, CustomStringConvertible, Equatable {
    /// A call that the current state does not allow (append after finish, addTrack after start …).
    case invalidState(operation: String, state: MP4MuxerState)
    case unknownTrack(MP4TrackID)
    /// Decode timestamps must increase strictly within a track.
    case decodeOrder(track: String, sample: Int, dts: Int64, previousDTS: Int64)
    /// H.264/HEVC need parameter sets, AAC its AudioSpecificConfig, VP8/9 a vpcC description.
    case missingConfiguration(track: String)
    /// The configuration does not suit the track (an AAC configuration on an H.264 track …).
    case configurationMismatch(track: String, expected: String, found: String)
    /// A track that was added but never received a sample.
    case emptyTrack(track: String)
    /// A sample the muxer cannot store (empty, negative duration, malformed NAL units …).
    case invalidSample(track: String, sample: Int, reason: String)
    case invalidOption(String)
    case io(MP4IOError)
    /// A file error while writing a track's sample (the disk filled up …).
    case sampleIO(track: String, sample: Int, MP4IOError)

    public var description: String {
        switch self {
        case .invalidState(let op, let state):
            return "mp4 muxer: cannot \(op) in state \(state)"
        case .unknownTrack(let id):
            return "mp4 muxer: no track \(id.index + 1); add tracks with addTrack first"
        case .decodeOrder(let track, let sample, let dts, let prev):
            return "mp4 muxer: \(track): sample \(sample) is out of decode order: dts \(dts) after dts \(prev) (decode timestamps must increase)"
        case .missingConfiguration(let track):
            return "mp4 muxer: \(track): no codec configuration (parameter sets / AudioSpecificConfig) in addTrack, the first sample, or the first sample's data"
        case .configurationMismatch(let track, let expected, let found):
            return "mp4 muxer: \(track): codec configuration mismatch: expected \(expected), found \(found)"
        case .emptyTrack(let track):
            return "mp4 muxer: \(track) never received a sample"
        case .invalidSample(let track, let sample, let reason):
            return "mp4 muxer: \(track): sample \(sample): \(reason)"
        case .invalidOption(let text):
            return "mp4 muxer: \(text)"
        case .io(let e):
            return "mp4 muxer: \(e.description)"
        case .sampleIO(let track, let sample, let e):
            return "mp4 muxer: \(track): sample \(sample): \(e.description)"
        }
    }
}
