import MediaGraphCore
import MediaGraphMP4

/// `mp4`: the MP4 muxer as a sink. Inputs `video`, `video1`, … and `audio`, `audio1`, …; it reads
/// its inputs in decode-time order (`preferredInput`), so tracks interleave on disk without
/// holding media in memory.
public final class MP4Sink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "mp4", doc: "Writes an MP4 (ISO BMFF) file: H.264, HEVC, VP8, VP9, AAC, Opus and MP3 tracks with their colour, aspect, rotation, language and creation time, fast start or fragmented; appears at its path only when complete.",
        category: .sink,
        inputs: [PortSpec("video", .encodedVideo([.h264, .hevc, .vp8, .vp9]), doc: "a video track", repeatable: true, optional: true),
                 PortSpec("audio", .encodedAudio([.aac, .opus, .mp3]), doc: "an audio track", repeatable: true, optional: true)],
        params: ParamSpec.list(pathParam, faststart, fragmented, fragmentDuration, rotation, timescale, co64))
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output file")
    static let faststart = Param<Bool>("faststart", default: true, doc: "moov before mdat, for progressive playback")
    static let fragmented = Param<Bool>("fragmented", default: false, doc: "fragmented MP4 (moof/mdat per fragment; survives a crash)")
    static let fragmentDuration = Param<Double>("fragment-duration", 0.1...60, default: 1, doc: "seconds per fragment (fragments start at key frames)")
    static let rotation = Param<String?>("rotation", oneOf: ["0", "90", "180", "270"],
                                         doc: "display rotation in degrees of every video track (track matrix); default: each stream's own rotation")
    static let timescale = Param<Int?>("timescale", 1...10_000_000, doc: "movie timescale (default: chosen to represent every timestamp exactly)")
    static let co64 = Param<Bool>("co64", default: false, doc: "always use 64-bit chunk offsets (co64); otherwise only past 4 GiB")

    let path: String
    let options: MP4MuxerOptions
    var formats: [MediaFormat] = []
    var names: [String]
    var muxer: MP4Muxer?
    var tracks: [MP4TrackID] = []
    var timescales: [Int64] = []
    /// Last dts seen per input (seconds), to read inputs in decode order.
    var lastDTS: [Double] = []
    var ended: [Bool] = []
    /// Packets received per input (for error messages).
    var packets: [Int] = []

    public init(setup: NodeSetup) throws {
        let p = setup.params
        path = p[Self.pathParam]
        names = setup.connectedInputs
        options = MP4MuxerOptions(fastStart: p[Self.faststart], fragmented: p[Self.fragmented],
                                  fragmentDuration: p[Self.fragmentDuration],
                                  rotation: p[Self.rotation].flatMap { Int($0) },
                                  movieTimescale: p[Self.timescale].map(Int64.init), forceCo64: p[Self.co64])
    }

    /// Names that say another container: the sink writes MP4 whatever the name, where ffmpeg
    /// would pick the container by it.
    static let otherContainers: Set<String> = ["webm", "mkv", "mka", "avi", "ts", "m2ts", "mts", "flv", "ogg", "ogv",
                                               "nut", "mpg", "mpeg", "wmv", "asf", "wav", "mp3", "aac", "gif"]

    public var validationWarnings: [String] {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.contains(".") ? String(name.split(separator: ".").last!).lowercased() : ""
        guard Self.otherContainers.contains(ext) else { return [] }
        return ["'\(path)' will be an MP4 file whatever its name: the mp4 sink writes only MP4 (name it .mp4; MediaGraph writes no .\(ext))"]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        formats = inputs.map(\.format)
        names = inputs.map(\.port)
        lastDTS = Array(repeating: -.infinity, count: inputs.count)
        ended = Array(repeating: false, count: inputs.count)
        packets = Array(repeating: 0, count: inputs.count)
        return []
    }

    public func start() throws {
        try OutputDirectory.prepare(for: path)
        let m = try MP4Muxer(path: path, options: options)
        for f in formats {
            let id = try m.addTrack(for: f)
            tracks.append(id)
            timescales.append(m.timescale(of: id) ?? 90000)
        }
        muxer = m
    }

    /// The input whose last sample is earliest in decode time (an input without samples first).
    public func preferredInput() -> Int? {
        var best: Int?
        for k in 0..<lastDTS.count where !ended[k] {
            if best == nil || lastDTS[k] < lastDTS[best!] { best = k }
        }
        return best
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard let muxer else { return }
        let tb = buffer.timeBase, ts = timescales[input]
        let number = packets[input]
        packets[input] += 1
        // Timestamps come from files (an IVF pts is any 64-bit value): rescale with a 128-bit
        // intermediate and refuse what does not fit, instead of overflowing.
        func ticks(_ v: Int64, _ what: String) throws -> Int64 {
            guard v != SampleBuffer.noTime else {
                throw NodeFailure("input '\(names[input])': packet \(number) has no \(what)")
            }
            guard let t = MediaTime.rescale(v, timeBase: tb, to: ts) else {
                throw NodeFailure("input '\(names[input])': packet \(number): \(what) \(v) in time base \(tb) does not fit 64 bits in the track timescale \(ts)")
            }
            return t
        }
        let sample = MP4Sample(data: buffer.packetBytes, pts: try ticks(buffer.pts, "pts"), dts: try ticks(buffer.dts, "dts"),
                               duration: try ticks(buffer.duration, "duration"),
                               isSync: buffer.flags.contains(.keyFrame), configuration: buffer.codecConfiguration)
        lastDTS[input] = Double(buffer.dts) * tb.doubleValue
        do { try muxer.append(sample, to: tracks[input]) } catch { throw NodeFailure("input '\(names[input])': \(error)") }
    }

    public func inputEnded(_ input: Int) throws {
        ended[input] = true
        try muxer?.finishTrack(tracks[input])
    }

    public func finish(output: NodeOutput) throws { try muxer?.finish() }
    public func abort() { muxer?.cancel() }
}
