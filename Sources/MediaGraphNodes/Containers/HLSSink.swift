import MediaGraphCore
import MediaGraphMP4

/// `hls`: HTTP Live Streaming output with fragmented-MP4 segments, what ffmpeg writes with
/// `-f hls -hls_segment_type fmp4`: the mp4 muxer's fragments, one per segment, each in a file
/// of its own beside the playlist (`HLSWriter`); or, with `segment-type: mpegts`, MPEG-TS
/// segments from the `MPEGTSMuxer`, cut as ffmpeg's default `-f hls` cuts them (ladders too). With one video input one playlist holds both
/// tracks, as ffmpeg's does without `-var_stream_map`; with several video inputs (a bit-rate
/// ladder) or several audio inputs, `path` is a master playlist and every input a rendition
/// with its own media playlist and files (`HLSLadderWriter`). See Docs/hls.md.
public final class HLSSink: RegisteredNode, EndsBeforeItsInputs, WaitsForPreferredInput {
    public static let typeInfo = NodeTypeInfo(
        name: "hls", doc: "Writes HTTP Live Streaming (RFC 8216) with fragmented-MP4 segments, as ffmpeg's -f hls -hls_segment_type fmp4: a media playlist (.m3u8), an initialization segment NAME_init.mp4 and segments NAME0.m4s, NAME1.m4s, … beside it, each starting at a video key frame; with several video inputs (a bit-rate ladder) a master playlist with a variant per video input and the audio as a rendition of its own, each with its media playlist NAME_PORT.m3u8, NAME_PORT_init.mp4 and NAME_PORT_0.m4s, …; H.264 or HEVC video and AAC audio; with segment-type mpegts (ffmpeg's default -f hls) MPEG-TS segments NAME0.ts, NAME1.ts, … (a ladder: NAME_PORT_0.ts, …) without an init segment (AAC or MP3 audio); every file appears only when complete.",
        category: .sink,
        inputs: [PortSpec("video", .encodedVideo([.h264, .hevc, .vp8, .vp9]), doc: "the video track (H.264 or HEVC); several: one variant stream each, in port order", repeatable: true, optional: true),
                 PortSpec("audio", .encodedAudio([.aac, .opus, .mp3]), doc: "the audio track (AAC); with several video inputs (or audio inputs): an audio rendition each, the first the default", repeatable: true, optional: true)],
        params: ParamSpec.list(pathParam, segmentDuration, segmentType, playlistType, listSize, deleteSegments, segmentName, programDateTime, endParam))
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "the playlist, a .m3u8 file (with several video inputs the master playlist); the segments go beside it")
    static let segmentDuration = Param<Double>("segment-duration", 0.1...3600, default: 2,
                                               doc: "target segment length in seconds, ffmpeg's hls_time: a segment ends at the first video key frame at or after the next multiple of it")
    static let segmentType = Param<String>("segment-type", oneOf: HLSSegmentType.allCases.map(\.rawValue), default: HLSSegmentType.fmp4.rawValue,
                                           doc: "fmp4: fragmented-MP4 segments NAME0.m4s, … after an init segment (playlist version 7); mpegts: MPEG-TS segments NAME0.ts, … each starting with PAT, PMT and a key frame, no init segment (version 3), as ffmpeg's -hls_segment_type; a ladder's renditions likewise (NAME_PORT_0.ts, …)")
    static let playlistType = Param<String>("playlist-type", oneOf: HLSPlaylist.Kind.allCases.map(\.rawValue), default: "vod",
                                            doc: "vod: the playlist is written once, complete, at the end; event: rewritten after every segment, so a player can follow a running job (ffmpeg's hls_playlist_type); live: rewritten after every segment, listing only the latest list-size segments, without a playlist type (ffmpeg's -f hls without hls_playlist_type)")
    static let listSize = Param<Int?>("list-size", 0...1_000_000,
                                      doc: "live: how many of the latest segments the playlist lists (ffmpeg's hls_list_size); 0 lists them all; default \(HLSLiveWindow.ffmpegListSize), as ffmpeg's")
    static let deleteSegments = Param<Bool>("delete-segments", default: false,
                                            doc: "live: remove a segment's file once it has left the playlist and one more segment has followed it out, so a player that read the previous playlist can still fetch it (ffmpeg's hls_flags delete_segments with its hls_delete_threshold 1)")
    static let segmentName = Param<String?>("segment-name",
                                            doc: "start of the segment file names (NAME0.m4s, NAME_init.mp4; with a master playlist NAME_PORT.m3u8, NAME_PORT_init.mp4, NAME_PORT_0.m4s; MPEG-TS: NAME0.ts, NAME_PORT_0.ts); default: the playlist's name without .m3u8")
    static let programDateTime = Param<Bool>("program-date-time", default: false,
                                             doc: "write #EXT-X-PROGRAM-DATE-TIME before each segment's URI: the wall clock when the run starts (local time with its offset, milliseconds) plus the durations before it, as ffmpeg's hls_flags program_date_time")
    static let endParam = MP4Feed.endParam

    /// Codecs HLS players take in fMP4 segments; the ports take the mp4 muxer's others only to
    /// refuse them with a message saying what to use.
    static let playable: Set<Codec> = [.h264, .hevc, .aac]

    let path: String
    let kind: HLSPlaylist.Kind
    let window: HLSLiveWindow
    let segments: HLSSegmentType
    let prefix: String
    let options: MP4MuxerOptions
    let feed: MP4Feed
    let writesDateTime: Bool
    /// Several video or audio inputs: `path` is a master playlist (`HLSLadderWriter`).
    let hasMaster: Bool
    var writer: HLSWriter?
    var ladder: HLSLadderWriter?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        path = p[Self.pathParam]
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard MP4Sink.fileExtension(path) == "m3u8", name.count > ".m3u8".count else {
            throw NodeFailure("param 'path': '\(path)' is not a playlist name: expected a file ending in .m3u8 (the segments are written beside it)")
        }
        kind = HLSPlaylist.Kind(rawValue: p[Self.playlistType]) ?? .vod
        let listed = p[Self.listSize], delete = p[Self.deleteSegments]
        if kind != .live, let given = listed != nil ? Self.listSize.spec.name : delete ? Self.deleteSegments.spec.name : nil {
            throw NodeFailure("param '\(given)': applies to \"playlist-type\": \"live\" only (\(kind.rawValue) playlists list every segment and keep every file); set \"playlist-type\": \"live\" or leave '\(given)' out")
        }
        window = HLSLiveWindow(listSize: listed ?? HLSLiveWindow.ffmpegListSize, deleteSegments: delete)
        segments = HLSSegmentType(rawValue: p[Self.segmentType]) ?? .fmp4
        let given = p[Self.segmentName]
        prefix = given ?? String(name.dropLast(".m3u8".count))
        if prefix.isEmpty || prefix.contains("/") {
            throw NodeFailure("param 'segment-name': '\(prefix)' is not a file name: expected one without '/' (the segments go beside the playlist)")
        }
        if let c = HLSPlaylist.unusableCharacter(inFileName: prefix) {
            let whose = given == nil ? "the playlist's name '\(name)' gives segment names" : "'\(prefix)' gives segment names"
            throw NodeFailure("param 'segment-name': \(whose) with \(c.unicodeScalars.first!.value < 0x20 ? "a control character" : "'\(c)'"), which a playlist cannot list as it is; set \"segment-name\" to a name without \" # ? % \\ or control characters")
        }
        options = MP4MuxerOptions(fragmented: true, fragmentDuration: p[Self.segmentDuration], fragmentCut: .grid)
        feed = MP4Feed(end: p[Self.endParam], names: setup.connectedInputs)
        writesDateTime = p[Self.programDateTime]
        hasMaster = try Self.needsMaster(ports: setup.connectedInputs, prefix: prefix, masterName: name)
    }

    /// Whether the inputs make a master playlist (two or more video inputs, or audio inputs),
    /// or the validation error: a master needs a video variant, and no media playlist may have
    /// the master's name (which takes a segment-name: the default, the master's name without
    /// .m3u8, never gives one).
    static func needsMaster(ports: [String], prefix: String, masterName: String) throws -> Bool {
        let videos = ports.filter { typeInfo.inputs[0].matches($0) }
        let audios = ports.filter { typeInfo.inputs[1].matches($0) }
        guard videos.count > 1 || audios.count > 1 else { return false }
        if videos.isEmpty {
            throw NodeFailure("inputs \(audios.map { "'\($0)'" }.joined(separator: ", ")): several audio renditions need a video input to play with (a master playlist lists video variants, each with the audio group); connect a video input, or one audio input only")
        }
        if let port = HLSRenditionNames.collision(masterName: masterName, prefix: prefix, ports: ports) {
            throw NodeFailure("param 'path': the master playlist '\(masterName)' has the name that \"segment-name\": \"\(prefix)\" gives the media playlist of input '\(port)' (\(prefix)_\(port).m3u8), which would overwrite it: choose another path or segment-name")
        }
        return true
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        for i in inputs {
            guard let codec = i.format.codec, !Self.playable.contains(codec) else { continue }
            if segments == .mpegts && MPEGTSSink.carried.contains(codec) { continue }
            let use = codec.isVideo ? "encode the video with h264 or hevc" : "encode the audio with aac"
            throw NodeFailure("input '\(i.port)': \(codec.rawValue) is not written to HLS segments, which players take as H.264 or HEVC video and AAC audio: \(use) (or use the mp4 or matroska sink)")
        }
        feed.configure(inputs: inputs)
        return []
    }

    public func start() throws {
        try OutputDirectory.prepare(for: path)
        // ffmpeg takes the clock when it opens the output, before the first packet
        let dateTime = writesDateTime ? HLSProgramDateTime.now() : nil
        if hasMaster {
            let order = SyncInputOrder.order(of: feed.names, in: Self.typeInfo)
            let specs = feed.names.indices.map { k in
                HLSLadderWriter.RenditionSpec(names: HLSRenditionNames(prefix: prefix, port: feed.names[k]),
                                              position: order.firstIndex(of: k) ?? k)
            }
            let l = try HLSLadderWriter(masterPath: path, renditions: specs, kind: kind, segmentDuration: options.fragmentDuration,
                                        window: window, segmentType: segments, title: title, programDateTime: dateTime)
            ladder = l
            try feed.attach(l)
            return
        }
        let w = try HLSWriter(playlistPath: path, segmentPrefix: prefix, kind: kind, segmentType: segments, window: window,
                              programDateTime: dateTime)
        writer = w
        if segments == .mpegts {
            try feed.attach(MPEGTSMuxer(output: w, title: title, segmentDuration: options.fragmentDuration))
        } else {
            try feed.attach(try MP4Muxer(path: path, fragmentsTo: w, options: options))
        }
    }

    /// MPEG-TS: the SDT's service name, the first input's `title` tag (ffmpeg copies the first
    /// input file's to its output).
    var title: String? { feed.formats.lazy.compactMap { $0.tags.movie["title"] }.first }

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
        if let l = ladder {
            guard l.state == .completed else { return feed.runNotes }
            let m = l.master
            return feed.runNotes + ["master playlist: \(m.variants.count) variants, \(m.audio.count) audio rendition\(m.audio.count == 1 ? "" : "s"); segments: "
                                    + l.segmentCounts.map { "\($0.port) \($0.segments)" }.joined(separator: ", ")]
        }
        guard let w = writer, w.playlist.ended else { return feed.runNotes }
        let n = w.playlist.segments.count
        var note = "\(n) segment\(n == 1 ? "" : "s"), target duration \(w.playlist.targetDuration) s"
        if kind == .live && w.playlist.mediaSequence > 0 {
            note += "; the playlist lists the last \(w.playlist.listed.count)"
            if w.removedSegments > 0 { note += ", the files of the first \(w.removedSegments) were removed" }
        }
        return feed.runNotes + [note]
    }

    /// A ladder whose variants' segments do not start at the same times (key frames apart).
    public var runWarnings: [String] {
        guard let l = ladder, l.state == .completed, let w = l.misalignment else { return [] }
        return [w]
    }

    public func finish(output: NodeOutput) throws {
        do { try feed.muxer?.finish() } catch { throw withOutcome(error) }
    }

    public func abort() { feed.muxer?.cancel() }

    /// A failure with what became of the files written so far (kept or removed).
    func withOutcome(_ error: Error) -> Error {
        guard let outcome = ladder?.outcome ?? writer?.outcome else { return error }
        return NodeFailure("\(error); \(outcome)")
    }
}
