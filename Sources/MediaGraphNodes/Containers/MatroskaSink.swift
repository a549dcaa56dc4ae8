import MediaGraphCore
import MediaGraphMatroska

/// `matroska`: the Matroska/WebM muxer as a sink. The path's extension picks the doc type, as
/// ffmpeg picks its muxer: `.webm` writes WebM (VP8, VP9, Opus, WebVTT only: another codec is a
/// validation error that says so and suggests .mkv), anything else Matroska. Inputs `video`,
/// `video1`, …, `audio`, `audio1`, … and `subtitle`, `subtitle1`, …, read in decode-time order
/// like `mp4`'s.
public final class MatroskaSink: RegisteredNode, EndsBeforeItsInputs, WaitsForPreferredInput {
    public static let typeInfo = NodeTypeInfo(
        name: "matroska", doc: "Writes a Matroska (.mkv) or, for a .webm path, WebM file: VP8, VP9, H.264, HEVC, Opus and AAC tracks and SubRip, ASS and WebVTT subtitles (WebM: VP8, VP9, Opus and WebVTT) with their colour, aspect, language and frame rate, subtitle title and default/forced flags, clusters that start at key frames and cues for seeking; movie tags and chapters (copied from the first input's file, tags changed by 'metadata') as ffmpeg writes them; appears at its path only when complete.",
        category: .sink,
        inputs: [PortSpec("video", .encodedVideo([.vp8, .vp9, .h264, .hevc]), doc: "a video track", repeatable: true, optional: true),
                 PortSpec("audio", .encodedAudio([.opus, .aac]), doc: "an audio track", repeatable: true, optional: true),
                 PortSpec("subtitle", .subtitle([.subrip, .ass, .webvtt]), doc: "a subtitle track (a filesrc's subtitle port): SubRip as S_TEXT/UTF8, ASS with its header, WebVTT as ffmpeg writes it", repeatable: true, optional: true)],
        params: ParamSpec.list(pathParam, endParam, metadataParam, ChaptersParam.param))
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output file: .webm writes WebM (VP8, VP9, Opus, WebVTT), any other name Matroska")
    static let endParam = Param<SyncEnd>("end", choices: [.longest, .shortest], default: .longest,
                                         doc: "when the file ends: longest (every input has ended), shortest (where the first input to end ends; the others' later packets are left out, ffmpeg's -shortest)")

    static let metadataParam = MovieMetadata.param(keys: "any name (written in upper case) except those ffmpeg does not write as Matroska tags: encoder, creation_time, encoding_tool, duration, stereo_mode, and names with '-'; title becomes the segment title")

    let path: String
    let docType: MatroskaDocType
    /// Tags the `metadata` param sets ("" to remove), in its order.
    let givenTags: [(name: String, value: String)]
    var tags = MatroskaTags([:])
    var chapters: [Chapter] = []
    /// Chapters the `chapters` param gives (nil: the input file's).
    let givenChapters: [Chapter]?
    let end: SyncEnd
    var names: [String]
    var descriptions: [MatroskaTrackDescription] = []
    var muxer: MatroskaMuxer?
    var tracks: [MatroskaTrackID] = []
    /// Last dts seen per input (seconds), to read inputs in decode order.
    var lastDTS: [Double] = []
    var ended: [Bool] = []
    var packets: [Int] = []
    var shortest = ShortestCut(inputs: 0)

    public init(setup: NodeSetup) throws {
        path = setup.params[Self.pathParam]
        docType = MP4Sink.fileExtension(path) == "webm" ? .webm : .matroska
        end = setup.params[Self.endParam]
        names = setup.connectedInputs
        givenChapters = try ChaptersParam.chapters(setup.params[ChaptersParam.param])
        givenTags = try MovieMetadata.given(setup.params[Self.metadataParam]) { MatroskaTags.check($0).map { "\($0)" } }
    }

    /// Names of other containers: the file is Matroska whatever its name, where ffmpeg would
    /// pick the container by it.
    static let otherContainers: Set<String> = ["mp4", "m4a", "m4v", "mov", "avi", "ts", "m2ts", "flv", "ogg", "ogv", "ivf", "mp3", "aac", "wav"]

    public var validationWarnings: [String] {
        let ext = MP4Sink.fileExtension(path)
        guard Self.otherContainers.contains(ext) else { return [] }
        return ["'\(path)' will be a Matroska file whatever its name: the matroska sink writes .mkv, or WebM for .webm (name it .mkv)"]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        names = inputs.map(\.port)
        descriptions = []
        for i in inputs {
            guard let d = MatroskaTrackDescription(format: i.format) else {
                throw NodeFailure("input '\(i.port)': expected encoded video, audio or subtitles, found \(i.format)")
            }
            if docType == .webm && !MatroskaCodecs.webm.contains(d.codec) {
                if d.isSubtitleTrack {
                    throw NodeFailure("input '\(i.port)': \(d.codec) cannot go into WebM ('\(path)'), whose only subtitles are WebVTT; name the file .mkv to write Matroska, or give WebVTT cues (a .vtt file's)")
                }
                throw NodeFailure("input '\(i.port)': \(d.codec) cannot go into WebM ('\(path)'), which holds VP8, VP9 and Opus (and WebVTT subtitles); name the file .mkv to write Matroska, or encode with vp9/opus")
            }
            descriptions.append(d)
        }
        // as ffmpeg: of two or more subtitle tracks none marked default, the first becomes it
        let subtitles = descriptions.indices.filter { descriptions[$0].isSubtitleTrack }
        if subtitles.count > 1, !subtitles.contains(where: { descriptions[$0].isDefault }) { descriptions[subtitles[0]].isDefault = true }
        lastDTS = Array(repeating: -.infinity, count: inputs.count)
        ended = Array(repeating: false, count: inputs.count)
        packets = Array(repeating: 0, count: inputs.count)
        shortest = ShortestCut(inputs: inputs.count)
        let formats = inputs.map(\.format)
        tags = MatroskaTags(MovieMetadata.merged(copied: MovieMetadata.copiedTags(formats), given: givenTags))
        chapters = givenChapters ?? MovieMetadata.copiedChapters(formats)
        return []
    }

    public func start() throws {
        try OutputDirectory.prepare(for: path)
        let m = try MatroskaMuxer(path: path, docType: docType, tags: tags, chapters: chapters)
        for d in descriptions { tracks.append(try m.addTrack(d)) }
        muxer = m
    }

    /// As `mp4`: strictly in decode order only with `end: shortest`.
    public var waitsForPreferredInput: Bool { end == .shortest }

    /// The input whose last packet is earliest in decode time (an input without packets first).
    public func preferredInput() -> Int? { DecodeOrder.earliest(lastDTS: lastDTS, ended: ended) }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard let muxer else { return }
        let number = packets[input]
        packets[input] += 1
        guard buffer.pts != SampleBuffer.noTime else { throw NodeFailure("input '\(names[input])': packet \(number) has no pts") }
        let dts = buffer.dts == SampleBuffer.noTime ? buffer.pts : buffer.dts
        // packets in the time base the track was added with (an encoder's or a file's stream's)
        let tb = buffer.timeBase, trackTB = descriptions[input].timeBase
        func ticks(_ v: Int64, _ what: String) throws -> Int64 {
            if tb == trackTB { return v }
            let (n, o1) = tb.num.multipliedReportingOverflow(by: trackTB.den)
            let (d, o2) = tb.den.multipliedReportingOverflow(by: trackTB.num)
            guard !o1, !o2, let num = MediaTime.rescale(v, timeBase: Rational(n, d), to: 1) else {
                throw NodeFailure("input '\(names[input])': packet \(number): \(what) \(v) in time base \(tb) does not fit the track's \(trackTB)")
            }
            return num
        }
        if end == .shortest {
            let seconds = tb.doubleValue
            guard shortest.keeps(input: input, dts: Double(dts) * seconds,
                                 end: Double(buffer.pts &+ max(0, buffer.duration)) * seconds) else {
                try inputEnded(input)
                return
            }
        }
        let packet = MatroskaPacket(data: buffer.packetBytes, pts: try ticks(buffer.pts, "pts"), dts: try ticks(dts, "dts"),
                                    duration: try ticks(max(0, buffer.duration), "duration"),
                                    isKeyFrame: buffer.flags.contains(.keyFrame),
                                    discardPadding: try ticks(buffer.discardPadding, "discard padding"),
                                    configuration: buffer.codecConfiguration, webVTT: buffer.metadata.webVTT)
        lastDTS[input] = Double(dts) * tb.doubleValue
        do { try muxer.append(packet, to: tracks[input]) } catch { throw NodeFailure("input '\(names[input])': \(error)") }
    }

    public func inputEnded(_ input: Int) throws {
        guard !ended[input] else { return }
        ended[input] = true
        try muxer?.finishTrack(tracks[input])
        guard end == .shortest, let muxer, shortest.ended(input), let cut = shortest.cut else { return }
        // inputs read ahead of the cut (from one file, all streams end together at its end)
        for k in tracks.indices where !ended[k] {
            shortest.noteLeftOut(muxer.dropQueued(fromSeconds: cut.seconds, in: tracks[k]), input: k)
        }
    }

    /// With `end: shortest`, once an input has ended and every other one has reached that time.
    public var hasEnded: Bool { shortest.cut != nil && !ended.contains(false) }
    public func ends(whenInputsEnd inputsEnd: [Bool]) -> Bool { end.outputEnds(whenInputsEnd: inputsEnd) }

    public var runNotes: [String] {
        guard let cut = shortest.cut else { return [] }
        let others = shortest.leftOut.enumerated().filter { $0.element > 0 }.map { "\($0.element) of '\(names[$0.offset])'" }
        return ["end: shortest: the file ends at \(TimeValue.clock(Rational(Int64((cut.seconds * 1e6).rounded()), 1_000_000))), where input '\(names[cut.input])' ended"
                + (others.isEmpty ? "" : "; packets left out after it: " + others.joined(separator: ", "))]
    }

    public func finish(output: NodeOutput) throws { try muxer?.finish() }
    public func abort() { muxer?.cancel() }
}
