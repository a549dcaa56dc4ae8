/// The formats an input port accepts, in order of preference (the first is what an inserted
/// converter produces).
public enum FormatCaps: Sendable, CustomStringConvertible {
    case video([PixelFormat])
    case audio([SampleFormat])
    case encodedVideo([Codec])
    case encodedAudio([Codec])
    /// Encoded video or audio of these codecs (a muxer input).
    case encoded([Codec])
    /// Text subtitle packets of these codecs.
    case subtitle([Codec])
    /// Anything (a null sink, a hash sink of raw frames and packets).
    case any

    public static let anyVideo = FormatCaps.video(PixelFormat.allCases)

    public func accepts(_ f: MediaFormat) -> Bool {
        switch (self, f) {
        case (.any, _): return true
        case (.video(let pf), .video(let v)): return pf.contains(v.pixelFormat)
        case (.audio(let sf), .audio(let a)): return sf.contains(a.sampleFormat)
        case (.encodedVideo(let c), .encodedVideo(let e)): return c.contains(e.codec)
        case (.encodedAudio(let c), .encodedAudio(let e)): return c.contains(e.codec)
        case (.encoded(let c), .encodedVideo(let e)): return c.contains(e.codec)
        case (.encoded(let c), .encodedAudio(let e)): return c.contains(e.codec)
        case (.subtitle(let c), .subtitle(let s)): return c.contains(s.codec)
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .video(let pf): return "video/raw " + pf.map(\.rawValue).joined(separator: "|")
        case .audio(let sf): return "audio/raw " + sf.map(\.rawValue).joined(separator: "|")
        case .encodedVideo(let c): return "video/" + c.map(\.rawValue).joined(separator: "|")
        case .encodedAudio(let c): return "audio/" + c.map(\.rawValue).joined(separator: "|")
        case .encoded(let c): return "encoded " + c.map(\.rawValue).joined(separator: "|")
        case .subtitle(let c): return "subtitle/" + c.map(\.rawValue).joined(separator: "|")
        case .any: return "any"
        }
    }
}

/// A port of a node type.
public struct PortSpec: Sendable {
    public var name: String
    public var caps: FormatCaps
    public var doc: String
    /// A repeatable input takes `name`, `name1`, `name2`, … (the MP4 muxer's `video`, `video1`).
    /// A repeatable output is a family of ports that the created node names (`DynamicOutputs`:
    /// a file source's `video`, `video1`, `audio`, …).
    public var repeatable: Bool
    /// An optional input may stay unconnected.
    public var optional: Bool

    public init(_ name: String, _ caps: FormatCaps, doc: String = "", repeatable: Bool = false, optional: Bool = false) {
        self.name = name
        self.caps = caps
        self.doc = doc
        self.repeatable = repeatable
        self.optional = optional
    }

    /// Whether a port reference such as `video1` names this port.
    public func matches(_ ref: String) -> Bool {
        if ref == name { return true }
        guard repeatable, ref.hasPrefix(name) else { return false }
        let rest = ref.dropFirst(name.count)
        return !rest.isEmpty && rest.allSatisfy(\.isNumber) && rest.first != "0"
    }
}

extension FormatCaps {
    /// The kind of buffers a port with these caps carries (nil: any kind).
    public var payloadKind: PayloadKind? {
        switch self {
        case .video: return .rawVideo
        case .audio: return .rawAudio
        case .encodedVideo, .encodedAudio, .encoded, .subtitle: return .packets
        case .any: return nil
        }
    }

    /// Whether the buffers are video (true), audio (false) or either (nil).
    var isVideo: Bool? {
        switch self {
        case .video, .encodedVideo: return true
        case .audio, .encodedAudio: return false
        case .encoded, .subtitle, .any: return nil
        }
    }

    /// Whether the buffers are subtitles (true), pictures or sound (false) or any (nil).
    var isSubtitle: Bool? {
        switch self {
        case .subtitle: return true
        case .video, .encodedVideo, .audio, .encodedAudio, .encoded: return false
        case .any: return nil
        }
    }

    /// What a port with these caps carries, in words ("raw video", "audio packets", "any").
    public var kindDescription: String {
        switch self {
        case .video: return "raw video"
        case .audio: return "raw audio"
        case .encodedVideo: return "video packets"
        case .encodedAudio: return "audio packets"
        case .encoded: return "packets"
        case .subtitle: return "subtitle packets"
        case .any: return "any"
        }
    }

    /// Whether an output of these caps can never feed an input of `input` caps, whatever the
    /// negotiation: video and audio never meet, and raw media never becomes packets on its own
    /// (an encoder must be in the graph). Packets into a raw input are fine: a decoder is
    /// inserted.
    public func cannotFeed(_ input: FormatCaps) -> Bool {
        if let a = isVideo, let b = input.isVideo, a != b { return true }
        // subtitles are neither pictures nor sound, and no decoder turns them into either
        if let a = isSubtitle, let b = input.isSubtitle, a != b { return true }
        if let a = payloadKind, let b = input.payloadKind, a != .packets, b == .packets { return true }
        return false
    }
}

extension PortSpec {
    /// The kind of buffers this port carries (nil: any kind).
    public var kind: PayloadKind? { caps.payloadKind }
}
