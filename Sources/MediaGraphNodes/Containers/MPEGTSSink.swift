import MediaGraphCore
import MediaGraphMP4

/// `mpegts`: an MPEG-2 transport stream file, what ffmpeg's `-f mpegts` writes for the same
/// packets (`MPEGTSMuxer`; Docs/mpegts.md). Inputs `video`, `video1`, … and `audio`, `audio1`, …
/// as the mp4 sink takes them, read in decode-time order; the file appears only when complete.
public final class MPEGTSSink: RegisteredNode, EndsBeforeItsInputs, WaitsForPreferredInput {
    public static let typeInfo = NodeTypeInfo(
        name: "mpegts", doc: "Writes an MPEG-2 transport stream (.ts) as ffmpeg's -f mpegts writes it: PAT, PMT and SDT, PIDs from 0x100, the PCR on the video PID, H.264 or HEVC video (Annex B, access unit delimiters, parameter sets before key frames) and AAC (ADTS) or MP3 audio with its language; appears at its path only when complete.",
        category: .sink,
        inputs: [PortSpec("video", .encodedVideo([.h264, .hevc, .vp8, .vp9]), doc: "a video stream (H.264 or HEVC)", repeatable: true, optional: true),
                 PortSpec("audio", .encodedAudio([.aac, .opus, .mp3]), doc: "an audio stream (AAC or MP3)", repeatable: true, optional: true)],
        params: ParamSpec.list(pathParam, endParam))
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output file (.ts)")
    static let endParam = MP4Feed.endParam

    /// What a transport stream of ours carries; the ports take the mp4 sink's others only to
    /// refuse them with a message saying what to use.
    static let carried: Set<Codec> = [.h264, .hevc, .aac, .mp3]

    let path: String
    let feed: MP4Feed
    var title: String?

    public init(setup: NodeSetup) throws {
        path = setup.params[Self.pathParam]
        feed = MP4Feed(end: setup.params[Self.endParam], names: setup.connectedInputs)
    }

    public var validationWarnings: [String] {
        guard MP4Sink.fileExtension(path) == "m2ts" else { return [] }
        return ["'\(path)' will be a plain transport stream of 188-byte packets; ffmpeg writes a .m2ts name as Blu-ray BDAV (192-byte packets), which MediaGraph does not write"]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        if inputs.isEmpty { throw NodeFailure("no input connected: connect an encoded video or audio stream to 'video' or 'audio'") }
        for i in inputs {
            guard let codec = i.format.codec, !Self.carried.contains(codec) else { continue }
            let use = codec.isVideo ? "encode the video with h264 or hevc" : "encode the audio with aac or mp3"
            throw NodeFailure("input '\(i.port)': expected H.264 or HEVC video, AAC or MP3 audio, found \(codec.rawValue): MediaGraph's MPEG-TS output does not carry it; \(use) (or use the mp4 or matroska sink)")
        }
        feed.configure(inputs: inputs)
        // the first input's title names the service, as ffmpeg's SDT takes the file's title
        title = feed.formats.lazy.compactMap { $0.tags.movie["title"] }.first
        return []
    }

    public func start() throws {
        try OutputDirectory.prepare(for: path)
        try feed.attach(MPEGTSMuxer(output: try MPEGTSFile(path: path), title: title))
    }

    public var waitsForPreferredInput: Bool { feed.waitsForPreferredInput }
    public func preferredInput() -> Int? { feed.preferredInput() }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        try feed.process(buffer, input: input)
    }
    public func inputEnded(_ input: Int) throws { try feed.inputEnded(input) }
    public var hasEnded: Bool { feed.hasEnded }
    public func ends(whenInputsEnd inputsEnd: [Bool]) -> Bool { feed.ends(whenInputsEnd: inputsEnd) }
    public var runNotes: [String] { feed.runNotes }
    public func finish(output: NodeOutput) throws { try feed.muxer?.finish() }
    public func abort() { feed.muxer?.cancel() }
}
