import MediaGraphCore
import MediaGraphMP4

/// `dash`: MPEG-DASH output, what ffmpeg writes with `-f dash -use_template 1 -use_timeline 1`:
/// an MPD and, per representation (video and audio apart, as DASH has them), an init segment
/// and fragmented-MP4 media segments beside it (`DASHWriter`, one mp4 muxer per
/// representation). Several video inputs (video, video1, …) are one AdaptationSet, a bit-rate
/// ladder; several audio inputs one set per language. See Docs/dash.md.
public final class DASHSink: RegisteredNode, EndsBeforeItsInputs, WaitsForPreferredInput {
    public static let typeInfo = NodeTypeInfo(
        name: "dash", doc: "Writes MPEG-DASH, as ffmpeg's -f dash -use_template 1 -use_timeline 1: an MPD (.mpd) with a SegmentTemplate and SegmentTimeline per representation (several video inputs: one AdaptationSet, a bit-rate ladder), and beside it for each representation an init segment init-streamN.m4s and fragmented-MP4 segments chunk-streamN-00001.m4s, …, each video cut at its key frames as ffmpeg's seg_duration cuts; H.264, HEVC or VP9 video and AAC or Opus audio; every file appears only when complete.",
        category: .sink,
        inputs: [PortSpec("video", .encodedVideo([.h264, .hevc, .vp8, .vp9]), doc: "a video representation (H.264, HEVC or VP9); video, video1, … are the representations of one AdaptationSet (a bit-rate ladder), of one picture aspect ratio", repeatable: true, optional: true),
                 PortSpec("audio", .encodedAudio([.aac, .opus, .mp3]), doc: "an audio representation (AAC or Opus); audio, audio1, … of one language share an AdaptationSet, each language has its own", repeatable: true, optional: true)],
        params: ParamSpec.list(pathParam, segmentDuration, manifestType, windowSize, extraWindowSize, initName, mediaName, endParam))
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "the MPD, a .mpd file; the segments go beside it")
    static let segmentDuration = Param<Double>("segment-duration", 0.1...3600, default: 2,
                                               doc: "target segment length in seconds, ffmpeg's seg_duration: a segment ends at the first video key frame at least this long after its start; audio ends its segments there too")
    static let manifestType = Param<String>("manifest-type", oneOf: DASHManifest.Kind.allCases.map(\.rawValue), default: "static",
                                            doc: "static: the MPD is written once, complete, at the end; dynamic: a live (dynamic) MPD rewritten after every segment, so a player can follow a running job, made static at the end (what ffmpeg does)")
    static let windowSize = Param<Int>("window-size", 0...1_000_000, default: 0,
                                       doc: "how many of the latest segments the MPD lists per representation, from their startNumber (ffmpeg's window_size); 0 lists them all")
    static let extraWindowSize = Param<Int?>("extra-window-size", 0...1_000_000,
                                             doc: "with a window-size: segments kept on disk after they leave the MPD, for players still fetching them; older ones are removed (ffmpeg's extra_window_size); default \(DASHWriter.Options.ffmpegExtraWindow), as ffmpeg's")
    static let initName = Param<String>("init-segment-name", default: DASHSegmentName.ffmpegInitialization.template,
                                        doc: "init segment file name template, ffmpeg's init_seg_name: $RepresentationID$ is 0 for the first input connected, 1 for the second, …")
    static let mediaName = Param<String>("media-segment-name", default: DASHSegmentName.ffmpegSegment.template,
                                         doc: "media segment file name template, ffmpeg's media_seg_name: $RepresentationID$, $Number$ (from 1) or $Time$ (the segment's start in the track's timescale), each number with an optional %0Nd")
    static let endParam = MP4Feed.endParam

    /// What DASH players take in fMP4 segments (DASH-IF: AVC, HEVC, VP9, AAC, Opus); the ports
    /// take the mp4 muxer's others only to refuse them with a message saying what to use.
    static let playable: Set<Codec> = [.h264, .hevc, .vp9, .aac, .opus]

    let path: String
    let options: DASHWriter.Options
    let feed: MP4Feed
    var writer: DASHWriter?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        path = p[Self.pathParam]
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard MP4Sink.fileExtension(path) == "mpd", name.count > ".mpd".count else {
            throw NodeFailure("param 'path': '\(path)' is not an MPD name: expected a file ending in .mpd (the segments are written beside it)")
        }
        let initialization = try Self.template(p[Self.initName], param: Self.initName.name)
        let segment = try Self.template(p[Self.mediaName], param: Self.mediaName.name)
        if initialization.identifiesSegments {
            throw NodeFailure("param 'init-segment-name': '\(initialization)' has $Number$ or $Time$, but a representation has one init segment: name it with $RepresentationID$ only")
        }
        guard segment.identifiesSegments else {
            throw NodeFailure("param 'media-segment-name': '\(segment)' names every segment alike: expected $Number$ or $Time$ in it")
        }
        let representations = max(1, setup.connectedInputs.count)
        if representations > 1 {
            for (param, t) in [(Self.initName.name, initialization), (Self.mediaName.name, segment)] where !t.hasRepresentationID {
                throw NodeFailure("param '\(param)': '\(t)' has no $RepresentationID$, so the \(representations) representations' files would have the same names")
            }
        }
        for r in 0..<representations {
            let initFile = initialization.name(representation: r)
            if segment.canName(initFile) || initFile == name {
                throw NodeFailure("param 'init-segment-name': '\(initFile)' is also \(initFile == name ? "the MPD's name" : "a name 'media-segment-name' gives a segment"): choose names that differ")
            }
        }
        if segment.canName(name) {
            throw NodeFailure("param 'media-segment-name': '\(segment)' can give a segment the MPD's name '\(name)': choose names that differ")
        }
        let window = p[Self.windowSize], extra = p[Self.extraWindowSize]
        if window == 0 && extra != nil {
            throw NodeFailure("param 'extra-window-size': applies to a window (param 'window-size' above 0), without which the MPD lists every segment and every file stays; set \"window-size\" or leave 'extra-window-size' out")
        }
        options = DASHWriter.Options(segmentDuration: p[Self.segmentDuration],
                                     kind: DASHManifest.Kind(rawValue: p[Self.manifestType]) ?? .static,
                                     initialization: initialization, segmentName: segment,
                                     window: window, extraWindow: extra ?? DASHWriter.Options.ffmpegExtraWindow)
        feed = MP4Feed(end: p[Self.endParam], names: setup.connectedInputs)
    }

    /// A name template, or the param's error.
    static func template(_ text: String, param: String) throws -> DASHSegmentName {
        do { return try DASHSegmentName(text) } catch {
            throw NodeFailure("param '\(param)': \(error)")
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        for i in inputs {
            guard let codec = i.format.codec, !Self.playable.contains(codec) else { continue }
            let use = codec.isVideo ? "encode the video with h264, hevc or vp9" : "encode the audio with aac or opus"
            throw NodeFailure("input '\(i.port)': \(codec.rawValue) is not written to DASH segments, which players take in MP4 as H.264, HEVC or VP9 video and AAC or Opus audio: \(use) (or use the mp4 or matroska sink)")
        }
        try Self.checkOneShape(inputs)
        feed.configure(inputs: inputs)
        return []
    }

    /// The video inputs are representations of one AdaptationSet, whose `par` is one picture
    /// aspect ratio (ffmpeg refuses the same: "Conflicting stream aspect ratios").
    static func checkOneShape(_ inputs: [InputFormat]) throws {
        let shapes = inputs.compactMap { i in DASHWriter.pictureAspect(of: i.format).map { (port: i.port, par: $0, format: i.format) } }
        guard let first = shapes.first, let other = shapes.first(where: { $0.par != first.par }) else { return }
        func shown(_ s: (port: String, par: Rational, format: MediaFormat)) -> String {
            guard case .encodedVideo(let f) = s.format else { return "'\(s.port)'" }
            return "'\(s.port)' (\(f.width)x\(f.height), \(s.par.num):\(s.par.den))"
        }
        throw NodeFailure("inputs \(shown(first)) and \(shown(other)) have different picture aspect ratios, but the video inputs are representations of one AdaptationSet, which has one: scale (or pad) them to the same shape")
    }

    public func start() throws {
        try OutputDirectory.prepare(for: path)
        let w = try DASHWriter(manifestPath: path, options: options)
        writer = w
        try feed.attach(w)
    }

    public var waitsForPreferredInput: Bool { feed.waitsForPreferredInput }
    public func preferredInput() -> Int? { feed.preferredInput() }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        do { try feed.process(buffer, input: input) } catch { throw withOutcome(error) }
    }

    public func inputEnded(_ input: Int) throws {
        do { try feed.inputEnded(input) } catch { throw withOutcome(error) }
    }

    public var hasEnded: Bool { feed.hasEnded }
    public func ends(whenInputsEnd inputsEnd: [Bool]) -> Bool { feed.ends(whenInputsEnd: inputsEnd) }

    public var runNotes: [String] {
        guard let w = writer, w.state == .completed else { return feed.runNotes }
        let counts = zip(feed.names, w.segmentCounts).map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        return feed.runNotes + ["segments: \(counts); longest \(DASHManifest.duration(w.manifest(.static).maxSegmentDuration).dropFirst(2).lowercased())"]
    }

    public func finish(output: NodeOutput) throws {
        do { try feed.muxer?.finish() } catch { throw withOutcome(error) }
    }

    public func abort() { feed.muxer?.cancel() }

    /// A failure with what became of the files written so far (kept or removed).
    func withOutcome(_ error: Error) -> Error {
        guard let outcome = writer?.outcome else { return error }
        return NodeFailure("\(error); \(outcome)")
    }
}
