import MediaGraphCodecs
import MediaGraphCore

/// Which streams of a file a `filesrc` offers as output ports, and under which names: `video`,
/// `video1`, …, `audio`, `audio1`, … and `subtitle`, `subtitle1`, … (text subtitles) in
/// container order; `streamN` (container index N) and `<kind>_<language>` (`audio_eng`: the
/// first audio stream tagged English) name the same ports. Bitmap subtitles, data and
/// attachment streams, cover pictures and codecs libavcodec does not know are listed by `probe`
/// with the reason, but get no port.
public struct FileStreamPorts: Sendable {
    public struct Port: Sendable {
        /// The port's name (`video`, `audio1`, …).
        public var name: String
        /// The stream's index in the container.
        public var streamIndex: Int
    }

    public let path: String
    public let ports: [Port]
    /// For each container stream without a port: why not.
    public let unoffered: [Int: String]
    let streams: [StreamInfo]

    public init(path: String, streams: [StreamInfo]) {
        self.path = path
        self.streams = streams
        var ports: [Port] = []
        var unoffered: [Int: String] = [:]
        var counts: [String: Int] = [:]
        for s in streams {
            if let why = FileStreamPorts.reasonNotOffered(s) {
                unoffered[s.index] = why
                continue
            }
            let family = Self.family(s.kind)
            let n = counts[family, default: 0]
            counts[family] = n + 1
            ports.append(Port(name: n == 0 ? family : "\(family)\(n)", streamIndex: s.index))
        }
        self.ports = ports
        self.unoffered = unoffered
    }

    /// The port family of a stream kind that gets ports.
    static func family(_ kind: StreamInfo.Kind) -> String {
        switch kind {
        case .video: return "video"
        case .subtitle: return "subtitle"
        default: return "audio"
        }
    }

    /// Channels of a decodable audio stream (libavcodec's formats go to 64; 22.2 sound has 24).
    static let maxChannels = 64

    static func reasonNotOffered(_ s: StreamInfo) -> String? {
        switch s.kind {
        case .video:
            if s.isAttachedPicture { return "a cover picture, not a video" }
        case .audio:
            break
        case .subtitle:
            if !SubtitleFormat.textCodecs.contains(s.codec) {
                return s.codec.rawValue == "none" ? "its codec is unknown to libavcodec"
                    : "\(s.codec) is a bitmap or unsupported subtitle codec: only text subtitles (\(SubtitleFormat.textCodecs.map(\.rawValue).joined(separator: ", "))) flow on edges"
            }
            if s.extradata.count > MediaLimits.maxSubtitleHeaderSize {
                return "its \(s.extradata.count)-byte header is above the limit of \(MediaLimits.maxSubtitleHeaderSize)"
            }
            return nil
        default:
            return "\(s.kind.rawValue) streams are listed, not offered as ports"
        }
        if s.codec.rawValue == "none" { return "its codec is unknown to libavcodec" }
        if s.kind == .video {
            if s.width <= 0 || s.height <= 0 { return "its picture size is unknown" }
            if let problem = MediaLimits.frameSizeProblem(width: s.width, height: s.height) { return problem }
        }
        if s.kind == .audio {
            if s.sampleRate <= 0 || s.channels <= 0 { return "its sample rate or channel count is unknown" }
            if s.sampleRate > MediaLimits.maxSampleRate { return "sample rate \(s.sampleRate) is above the limit of \(MediaLimits.maxSampleRate)" }
            if s.channels > FileStreamPorts.maxChannels { return "\(s.channels) channels are above the limit of \(FileStreamPorts.maxChannels)" }
        }
        return nil
    }

    /// The port name of a container stream, nil when it has none.
    public func portName(ofStream index: Int) -> String? {
        ports.first { $0.streamIndex == index }?.name
    }

    /// The port a reference names: `video1`, `stream3`, `audio_eng`; throws a message listing
    /// the streams when none matches.
    public func portIndex(named reference: String) throws -> Int {
        if let k = ports.firstIndex(where: { $0.name == reference }) { return k }
        if reference.hasPrefix("stream"), let n = Int(reference.dropFirst(6)), reference.count > 6 {
            if let k = ports.firstIndex(where: { $0.streamIndex == n }) { return k }
            if let why = unoffered[n] {
                throw NodeFailure("stream \(n) of '\(path)' (\(describe(streams[n]))) has no port: \(why)")
            }
            throw NodeFailure("'\(path)' has no stream \(n) (streams 0…\(streams.count - 1)); " + listing)
        }
        if let underscore = reference.firstIndex(of: "_") {
            let family = String(reference[..<underscore]), lang = String(reference[reference.index(after: underscore)...])
            if family == "video" || family == "audio" || family == "subtitle" {
                if let k = ports.firstIndex(where: { streams[$0.streamIndex].language == lang && $0.name.hasPrefix(family) }) { return k }
                throw NodeFailure("'\(path)' has no \(family) stream in language '\(lang)'; " + listing)
            }
        }
        throw NodeFailure("'\(path)' has no stream '\(reference)'; " + listing)
    }

    /// "it has: video (stream 0: h264 320x240), audio (stream 1: aac 48000Hz 2ch, eng)".
    public var listing: String {
        var text = ports.isEmpty ? "it has no video, audio or subtitle stream with a port"
            : "it has: " + ports.map { "\($0.name) (stream \($0.streamIndex): \(describe(streams[$0.streamIndex])))" }.joined(separator: ", ")
        // video and audio without a port say why, since a user expects them
        let refused = streams.filter { ($0.kind == .video || $0.kind == .audio || $0.kind == .subtitle) && unoffered[$0.index] != nil }
        if !refused.isEmpty {
            text += "; without a port: " + refused.map { "stream \($0.index) (\(describe($0))): \(unoffered[$0.index]!)" }.joined(separator: ", ")
        }
        return text
    }

    func describe(_ s: StreamInfo) -> String {
        var d = s.codec.rawValue
        switch s.kind {
        case .video: d += " \(s.width)x\(s.height)"
        case .audio: d += " \(s.sampleRate)Hz \(s.channels)ch"
        default: d = "\(s.kind.rawValue) \(d)"
        }
        if let l = s.language { d += ", \(l)" }
        return d
    }
}
