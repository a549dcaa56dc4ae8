import MediaGraphCore

/// Why the Matroska muxer refused a call or failed. Every case names what it concerns.
public enum MatroskaMuxerError: Error, CustomStringConvertible, Equatable {
    case invalidState(operation: String, state: MatroskaMuxerState)
    case unknownTrack(MatroskaTrackID)
    /// A codec the muxer does not write, or one WebM does not allow.
    case unsupportedCodec(track: String, codec: Codec, docType: MatroskaDocType)
    /// Packets of a track must come in decode order.
    case decodeOrder(track: String, packet: Int, dts: Int64, previousDTS: Int64)
    /// H.264/HEVC need parameter sets, AAC its AudioSpecificConfig, Opus its header.
    case missingConfiguration(track: String)
    case configurationMismatch(track: String, expected: String, found: String)
    case emptyTrack(track: String)
    /// A packet the muxer cannot store (empty, times out of range, malformed NAL units …).
    case invalidPacket(track: String, packet: Int, reason: String)
    case invalidOption(String)
    /// A failed file operation: the path, the offset and the system's reason.
    case io(FileError)

    public var description: String {
        switch self {
        case .invalidState(let op, let state):
            return "matroska muxer: cannot \(op) in state \(state)"
        case .unknownTrack(let id):
            return "matroska muxer: no \(id); add tracks with addTrack first"
        case .unsupportedCodec(let track, let codec, let docType):
            if docType == .webm && MatroskaCodecs.codecID(codec) != nil {
                return "matroska muxer: \(track): \(codec) is not a WebM codec (WebM holds VP8, VP9 and Opus); name the file .mkv to write Matroska"
            }
            return "matroska muxer: \(track): \(codec) is not written to Matroska (it writes \(MatroskaCodecs.written.map(\.rawValue).joined(separator: ", ")))"
        case .decodeOrder(let track, let packet, let dts, let prev):
            return "matroska muxer: \(track): packet \(packet) is out of decode order: dts \(dts) after dts \(prev)"
        case .missingConfiguration(let track):
            return "matroska muxer: \(track): no codec configuration (parameter sets / AudioSpecificConfig / OpusHead) in addTrack or the first packet"
        case .configurationMismatch(let track, let expected, let found):
            return "matroska muxer: \(track): codec configuration mismatch: expected \(expected), found \(found)"
        case .emptyTrack(let track):
            return "matroska muxer: \(track) never received a packet"
        case .invalidPacket(let track, let packet, let reason):
            return "matroska muxer: \(track): packet \(packet): \(reason)"
        case .invalidOption(let text):
            return "matroska muxer: \(text)"
        case .io(let e):
            return "matroska muxer: \(e.description)"
        }
    }
}
