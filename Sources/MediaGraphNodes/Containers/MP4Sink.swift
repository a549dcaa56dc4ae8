import MediaGraphCore
import MediaGraphMP4

/// `mp4`: the MP4 muxer as a sink. Inputs `video`, `video1`, … and `audio`, `audio1`, …; it reads
/// its inputs in decode-time order (`preferredInput`), so tracks interleave on disk without
/// holding media in memory.
public final class MP4Sink: RegisteredNode, EndsBeforeItsInputs, WaitsForPreferredInput {
    public static let typeInfo = NodeTypeInfo(
        name: "mp4", doc: "Writes an MP4 (ISO BMFF) file: H.264, HEVC, VP8, VP9, AAC, Opus and MP3 tracks with their colour, aspect, rotation, language and creation time, fast start or fragmented (a .m4a or .m4v name gets the iTunes brand); movie tags (title, artist, …) and chapters (chpl and a QuickTime chapter track) as ffmpeg writes them. A .mov name writes a QuickTime movie as ffmpeg's mov muxer does: H.264, HEVC, ProRes, AAC and PCM sound, tags as QuickTime user data (title, artist, album, date, comment, genre, copyright), chapters. Appears at its path only when complete.",
        category: .sink,
        inputs: [PortSpec("video", .encodedVideo([.h264, .hevc, .vp8, .vp9, .prores]), doc: "a video track (ProRes: .mov only)", repeatable: true, optional: true),
                 PortSpec("audio", .encodedAudio([.aac, .opus, .mp3] + QuickTimePCM.all.map(\.codec)), doc: "an audio track (PCM: .mov only)", repeatable: true, optional: true)],
        params: ParamSpec.list(pathParam, faststart, fragmented, fragmentDuration, rotation, timescale, co64, endParam, metadataParam, ChaptersParam.param))
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output file")
    static let faststart = Param<Bool>("faststart", default: true, doc: "moov before mdat, for progressive playback")
    static let fragmented = Param<Bool>("fragmented", default: false, doc: "fragmented MP4 (moof/mdat per fragment; survives a crash)")
    static let fragmentDuration = Param<Double>("fragment-duration", 0.1...60, default: 1, doc: "seconds per fragment (fragments start at key frames)")
    static let rotation = Param<String?>("rotation", oneOf: ["0", "90", "180", "270"],
                                         doc: "display rotation in degrees of every video track (track matrix); default: each stream's own rotation")
    static let timescale = Param<Int?>("timescale", 1...10_000_000, doc: "movie timescale (default: chosen to represent every timestamp exactly)")
    static let co64 = Param<Bool>("co64", default: false, doc: "always use 64-bit chunk offsets (co64); otherwise only past 4 GiB")
    static let metadataParam = MovieMetadata.param(keys: MP4Tags.keys.map(\.name).joined(separator: ", "))
    static let endParam = MP4Feed.endParam

    let path: String
    var options: MP4MuxerOptions
    /// Tags the `metadata` param sets, and those it removes (given as "").
    let givenTags: MP4Tags?
    let removedTags: Set<String>
    /// Chapters the `chapters` param gives (nil: the input file's).
    let givenChapters: [Chapter]?
    let feed: MP4Feed

    public init(setup: NodeSetup) throws {
        let p = setup.params
        path = p[Self.pathParam]
        feed = MP4Feed(end: p[Self.endParam], names: setup.connectedInputs)
        options = MP4MuxerOptions(fastStart: p[Self.faststart], fragmented: p[Self.fragmented],
                                  fragmentDuration: p[Self.fragmentDuration],
                                  rotation: p[Self.rotation].flatMap { Int($0) },
                                  movieTimescale: p[Self.timescale].map(Int64.init), forceCo64: p[Self.co64],
                                  appleBrand: ["m4a", "m4v"].contains(Self.fileExtension(path)))
        options.quickTime = Self.fileExtension(path) == "mov"
        (givenTags, removedTags) = try Self.tags(p[Self.metadataParam], quickTime: options.quickTime)
        givenChapters = try ChaptersParam.chapters(p[ChaptersParam.param])
    }

    /// The `metadata` object as tags to set (known keys, track and disc as numbers) and keys to
    /// remove (given as ""). A .mov takes only the tags QuickTime user data holds.
    static func tags(_ value: JSONValue?, quickTime: Bool = false) throws -> (set: MP4Tags?, removed: Set<String>) {
        let pairs = try MovieMetadata.given(value) { name in
            guard MP4Tags.keys.contains(where: { $0.name == name.lowercased() }) else { return "\(MP4Tags.TagError.unknownKey(name))" }
            guard !quickTime || QuickTimeUserData.names.contains(name.lowercased()) else {
                return "tag '\(name)' is not written into a .mov (QuickTime user data holds \(QuickTimeUserData.names.joined(separator: ", ")); ffmpeg drops it): name the output .mp4 for it"
            }
            return nil
        }
        do {
            let tags = try MP4Tags(pairs.filter { !$0.value.isEmpty })
            return (tags.isEmpty ? nil : tags, Set(pairs.filter { $0.value.isEmpty }.map { $0.name.lowercased() }))
        } catch let e as MP4Tags.TagError {
            throw NodeFailure("param 'metadata': \(e)")
        }
    }

    /// Names that say another container: the sink writes MP4 whatever the name, where ffmpeg
    /// would pick the container by it.
    static let otherContainers: Set<String> = ["webm", "mkv", "mka", "avi", "ts", "m2ts", "mts", "flv", "ogg", "ogv",
                                               "nut", "mpg", "mpeg", "wmv", "asf", "wav", "mp3", "aac", "gif"]

    /// The lower-case extension of the path's file name ("" without one).
    static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.contains(".") ? String(name.split(separator: ".").last!).lowercased() : ""
    }

    public var validationWarnings: [String] {
        let ext = Self.fileExtension(path)
        guard Self.otherContainers.contains(ext) else { return [] }
        let instead = ["webm", "mkv", "mka"].contains(ext) ? "the 'matroska' sink writes .\(ext)" : "MediaGraph writes no .\(ext)"
        return ["'\(path)' will be an MP4 file whatever its name: the mp4 sink writes only MP4 (name it .mp4; \(instead))"]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        try checkContainer(inputs)
        feed.configure(inputs: inputs)
        // the first input's file tags, as ffmpeg keeps its first input file's, under what the graph sets
        let tags = MP4Tags(copying: MovieMetadata.copiedTags(feed.formats), overrides: givenTags, removing: removedTags)
        options.tags = tags.isEmpty ? nil : tags
        options.chapters = givenChapters ?? MovieMetadata.copiedChapters(feed.formats)
        if options.quickTime {
            droppedInQuickTime = tags.items.map(\.key.name).filter { !QuickTimeUserData.names.contains($0) }
        }
        return []
    }

    /// The input's tags a .mov cannot hold (composer, track, …), for the run's notes.
    var droppedInQuickTime: [String] = []

    /// Codecs the container chosen by the name cannot hold, refused when the graph is checked.
    func checkContainer(_ inputs: [InputFormat]) throws {
        for i in inputs {
            guard let codec = i.format.codec else { continue }
            let pcm = QuickTimePCM(codec) != nil
            if !options.quickTime && (codec == .prores || pcm) {
                throw NodeFailure("input '\(i.port)': \(codec) is written only into a QuickTime movie; name the output .mov (as ffmpeg, which refuses it in .mp4)")
            }
            if options.quickTime && !pcm && ![.h264, .hevc, .prores, .aac].contains(codec) {
                throw NodeFailure("input '\(i.port)': a .mov is written with H.264, HEVC, ProRes, AAC or PCM; \(codec) goes into .mp4 (or the matroska sink's .mkv)")
            }
            if options.quickTime && options.fragmented {
                throw NodeFailure("param 'fragmented': a .mov is written whole; name the output .mp4 to fragment it")
            }
        }
    }

    public func start() throws {
        try OutputDirectory.prepare(for: path)
        try feed.attach(try MP4Muxer(path: path, options: options))
    }

    public var waitsForPreferredInput: Bool { feed.waitsForPreferredInput }
    public func preferredInput() -> Int? { feed.preferredInput() }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        try feed.process(buffer, input: input)
    }
    public func inputEnded(_ input: Int) throws { try feed.inputEnded(input) }
    public var hasEnded: Bool { feed.hasEnded }
    public func ends(whenInputsEnd inputsEnd: [Bool]) -> Bool { feed.ends(whenInputsEnd: inputsEnd) }
    public var runNotes: [String] {
        feed.runNotes + (droppedInQuickTime.isEmpty ? [] : ["'\(path)': the input's tags \(droppedInQuickTime.joined(separator: ", ")) are not written into a .mov (QuickTime user data holds \(QuickTimeUserData.names.joined(separator: ", ")); ffmpeg drops them too)"])
    }
    public func finish(output: NodeOutput) throws { try feed.muxer?.finish() }
    public func abort() { feed.muxer?.cancel() }
}
