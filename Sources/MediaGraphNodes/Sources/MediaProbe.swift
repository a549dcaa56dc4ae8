import MediaGraphCodecs
import MediaGraphCore

/// What `mediagraph probe` reports about a file: the container and each stream with the port a
/// `filesrc` gives it, in plain values (so the command needs no codec types).
public struct MediaProbe {
    public struct Stream {
        public var index: Int
        /// `video`, `audio1`, …; nil when the stream gets no port (then `note` says why).
        public var port: String?
        public var note: String?
        public var kind: String
        public var codec: String
        public var codecLongName: String?
        /// The container's four-character code, when printable.
        public var codecTag: String?
        public var profile: String?
        public var timeBase: Rational
        public var startTime: Double?
        public var duration: Double?
        public var frames: Int64
        public var bitRate: Int64
        public var language: String?
        public var title: String?
        public var creationTime: Int64?
        public var isDefault: Bool
        // video
        public var width: Int
        public var height: Int
        /// libavutil's name of the stream's pixel format, and what MediaGraph decodes it to.
        public var nativePixelFormat: String?
        public var pixelFormat: String?
        public var bitDepth: Int
        public var averageFrameRate: Rational?
        public var realFrameRate: Rational?
        public var colorRange: String?
        public var colorSpace: String?
        public var colorPrimaries: String?
        public var colorTransfer: String?
        public var chromaLocation: String?
        public var sampleAspect: Rational?
        public var rotation: Int?
        public var mirrored: Bool
        public var fieldOrder: String?
        // audio
        public var sampleRate: Int
        public var channels: Int
        public var channelLayout: String?
        public var sampleFormat: String?
    }

    public var path: String
    public var formatName: String
    public var formatLongName: String
    public var duration: Double?
    public var startTime: Double?
    public var bitRate: Int64
    public var tags: [String: String]
    public var streams: [Stream]

    /// Opens and describes `path`; throws a message naming the file when it cannot be read as media.
    public init(path: String, probeSize: Int64 = 5_000_000, probeDuration: Double = 5) throws {
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: path, options: DemuxerOptions(probeSize: probeSize, analyzeDuration: Int64(probeDuration * 1e6)))
        } catch let e as DemuxError {
            throw NodeFailure(e.message)
        }
        let ports = FileStreamPorts(path: path, streams: demuxer.streams)
        let c = demuxer.container
        self.path = path
        formatName = c.formatName
        formatLongName = c.formatLongName
        duration = c.duration.map { Double($0) / 1e6 }
        startTime = c.startTime.map { Double($0) / 1e6 }
        bitRate = c.bitRate
        tags = c.tags.dictionary
        streams = demuxer.streams.map { s in
            let video = s.kind == .video
            return Stream(index: s.index, port: ports.portName(ofStream: s.index), note: ports.unoffered[s.index],
                          kind: s.kind.rawValue, codec: s.codec.rawValue, codecLongName: s.codecLongName, codecTag: s.codecTag, profile: s.profileName,
                          timeBase: s.timeBase, startTime: s.startSeconds, duration: s.durationSeconds, frames: s.frameCount,
                          bitRate: s.bitRate, language: s.language, title: s.title, creationTime: s.creationTime, isDefault: s.isDefault,
                          width: s.width, height: s.height, nativePixelFormat: video ? s.nativePixelFormat : nil,
                          pixelFormat: video ? s.pixelFormat.rawValue : nil, bitDepth: s.bitDepth,
                          averageFrameRate: s.averageFrameRate, realFrameRate: s.realFrameRate,
                          colorRange: s.colorNames.range, colorSpace: s.colorNames.space, colorPrimaries: s.colorNames.primaries,
                          colorTransfer: s.colorNames.transfer, chromaLocation: s.colorNames.chromaLocation,
                          sampleAspect: video ? s.sampleAspect : nil, rotation: s.rotation, mirrored: s.isMirrored, fieldOrder: s.fieldOrder,
                          sampleRate: s.sampleRate, channels: s.channels, channelLayout: s.channelLayoutName,
                          sampleFormat: s.kind == .audio ? s.nativeSampleFormat : nil)
        }
    }

    /// The report as JSON (`probe --json`): numbers as numbers, rationals as "num/den",
    /// unknown values left out.
    public var json: JSONValue {
        var format: [(String, JSONValue)] = [("name", .str(formatName)), ("long_name", .str(formatLongName))]
        if let d = duration { format.append(("duration", .num(d))) }
        if let s = startTime { format.append(("start_time", .num(s))) }
        if bitRate > 0 { format.append(("bit_rate", .num(Double(bitRate)))) }
        format.append(("tags", .obj(tags.keys.sorted().map { ($0, .str(tags[$0]!)) })))
        return .obj([("file", .str(path)), ("format", .obj(format)), ("streams", .arr(streams.map(MediaProbe.json)))])
    }

    static func json(_ s: Stream) -> JSONValue {
        var m: [(String, JSONValue)] = [("index", .int(s.index)), ("port", s.port.map { .str($0) } ?? .null(nil))]
        func add(_ k: String, _ v: String?) { if let v { m.append((k, .str(v))) } }
        func add(_ k: String, _ v: Double?) { if let v { m.append((k, .num(v))) } }
        func add(_ k: String, _ r: Rational?) { if let r { m.append((k, .str("\(r.num)/\(r.den)"))) } }
        add("note", s.note)
        m.append(("kind", .str(s.kind)))
        m.append(("codec", .str(s.codec)))
        add("codec_long_name", s.codecLongName)
        add("codec_tag", s.codecTag)
        add("profile", s.profile)
        add("time_base", s.timeBase)
        add("start_time", s.startTime)
        add("duration", s.duration)
        if s.frames > 0 { m.append(("frames", .num(Double(s.frames)))) }
        if s.bitRate > 0 { m.append(("bit_rate", .num(Double(s.bitRate)))) }
        if s.kind == "video" {
            m.append(("width", .int(s.width)))
            m.append(("height", .int(s.height)))
            add("native_pixel_format", s.nativePixelFormat)
            add("pixel_format", s.pixelFormat)
            if s.bitDepth > 0 { m.append(("bit_depth", .int(s.bitDepth))) }
            add("avg_frame_rate", s.averageFrameRate)
            add("r_frame_rate", s.realFrameRate)
            add("color_range", s.colorRange)
            add("color_space", s.colorSpace)
            add("color_primaries", s.colorPrimaries)
            add("color_transfer", s.colorTransfer)
            add("chroma_location", s.chromaLocation)
            if let a = s.sampleAspect { m.append(("sample_aspect_ratio", .str("\(a.num):\(a.den)"))) }
            m.append(("rotation", .int(s.rotation ?? 0)))
            if s.mirrored { m.append(("mirrored", .bool(true, nil))) }
            add("field_order", s.fieldOrder)
        }
        if s.kind == "audio" {
            m.append(("sample_rate", .int(s.sampleRate)))
            m.append(("channels", .int(s.channels)))
            add("channel_layout", s.channelLayout)
            add("sample_format", s.sampleFormat)
        }
        add("language", s.language)
        add("title", s.title)
        if let c = s.creationTime { m.append(("creation_time", .str(CreationTime.format(c)))) }
        m.append(("default", .bool(s.isDefault, nil)))
        return .obj(m)
    }
}
