/// The three kinds of payload that flow along edges; a port accepts one of them or any.
public enum PayloadKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Raw video frames (pooled planes).
    case rawVideo = "raw video"
    /// Raw audio (samples).
    case rawAudio = "raw audio"
    /// Encoded packets (bytes).
    case packets = "packets"

    public var description: String { rawValue }

    /// The kind of buffers of a format.
    public init(_ format: MediaFormat) {
        switch format {
        case .video: self = .rawVideo
        case .audio: self = .rawAudio
        default: self = .packets
        }
    }
}
