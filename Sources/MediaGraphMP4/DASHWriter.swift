#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// Writes MPEG-DASH as ffmpeg's `-f dash -use_template 1 -use_timeline 1` does: an MPD, and per
/// representation (one per track: video and audio apart) an initialization segment and
/// fragmented-MP4 media segments beside it, named by the SegmentTemplate. Several video tracks
/// are representations of one AdaptationSet (a bit-rate ladder; they must have one picture
/// aspect ratio), audio tracks one set per language (`DASHAdaptationSet`).
///
/// Each representation has an `MP4Muxer` of its own in fragments-to-a-receiver mode
/// (`DASHRepresentationFiles`), cut only where the writer asks (`MP4FragmentCut.onRequest`).
/// Samples of all tracks go through one decode order (`DecodeOrderQueue`), in which
/// `DASHSegmenter` applies ffmpeg's cut rule: a track's segment ends at a key frame
/// `segmentDuration` after its start (each video track at its own key frames), and audio ends
/// its segment where the first video to cut does.
///
/// Every file appears only when complete. A static MPD is written once, at the end, when every
/// segment it lists is in place; a dynamic one after every segment (and made static at the
/// end). With a window (`Options.window`) the MPD lists only the latest segments and older
/// files are removed as ffmpeg's `-window_size`/`-extra_window_size` remove them. After a failure a dynamic stream keeps its last MPD and the segments it lists; a static
/// one, or any cancelled one, removes every file it wrote. `outcome` says which.
///
/// Not thread-safe: call it from one thread (the sink node's).
public final class DASHWriter: MP4TrackWriter, MuxerGroup {
    public struct Options: Sendable {
        /// Seconds (ffmpeg's `-seg_duration`).
        public var segmentDuration: Double
        public var kind: DASHManifest.Kind
        public var initialization: DASHSegmentName
        public var segmentName: DASHSegmentName
        /// Segments the MPD lists per representation, the latest; 0 lists them all (ffmpeg's
        /// `-window_size`).
        public var window: Int
        /// With a window: segments kept on disk after they leave the MPD, for players still
        /// fetching them; older ones are removed (ffmpeg's `-extra_window_size`, default 5).
        public var extraWindow: Int

        public init(segmentDuration: Double = 2, kind: DASHManifest.Kind = .static,
                    initialization: DASHSegmentName = .ffmpegInitialization, segmentName: DASHSegmentName = .ffmpegSegment,
                    window: Int = 0, extraWindow: Int = Options.ffmpegExtraWindow) {
            self.segmentDuration = segmentDuration
            self.kind = kind
            self.initialization = initialization
            self.segmentName = segmentName
            self.window = window
            self.extraWindow = extraWindow
        }

        /// ffmpeg's default `-extra_window_size`.
        public static let ffmpegExtraWindow = 5
    }

    /// One track: its muxer and files.
    struct Representation {
        var format: MediaFormat
        var muxer: MP4Muxer
        var track: MP4TrackID
        var files: DASHRepresentationFiles
        var timescale: Int64
    }

    public let manifestPath: String
    public let options: Options
    /// Folder of the MPD ("" for the current one), with a trailing slash.
    let folder: String
    var representations: [Representation] = []
    var order = DecodeOrderQueue()
    var segmenter: DASHSegmenter
    public internal(set) var state: MP4MuxerState = .idle
    /// Wall clock (µs since 1970) when the first sample came: a dynamic MPD's availabilityStartTime.
    var availabilityStart: Int64?
    /// Per representation, the segments the MPD in place lists; nil while there is none of ours.
    var listed: [Int]?
    /// After a failure or cancel: what was kept or removed, for the error message.
    public internal(set) var outcome: String?

    public init(manifestPath: String, options: Options = Options()) throws {
        guard options.segmentDuration.isFinite, options.segmentDuration > 0 else {
            throw MP4MuxerError.invalidOption("DASH segment duration \(options.segmentDuration) is not a positive number of seconds")
        }
        self.manifestPath = manifestPath
        self.options = options
        folder = manifestPath.lastIndex(of: "/").map { String(manifestPath[...$0]) } ?? ""
        segmenter = DASHSegmenter(segmentDuration: options.segmentDuration)
    }

    deinit {
        if isOpen { cancel() }
    }

    /// Adds a representation for an encoded track. Its init segment file is opened now, so an
    /// unwritable folder fails before any media is made.
    public func addTrack(for format: MediaFormat, configuration: CodecConfiguration? = nil) throws -> MP4TrackID {
        guard state == .idle, availabilityStart == nil else {
            throw MP4MuxerError.invalidState(operation: "add a representation", state: state)
        }
        let id = representations.count
        if id > 0 && !(options.initialization.hasRepresentationID && options.segmentName.hasRepresentationID) {
            throw MP4MuxerError.invalidOption("DASH segment names '\(options.initialization)' and '\(options.segmentName)' must both contain $RepresentationID$ for more than one representation, or their files would be the same")
        }
        if let par = Self.pictureAspect(of: format),
           let (k, other) = representations.indices.lazy.compactMap({ k in Self.pictureAspect(of: self.representations[k].format).map { (k, $0) } }).first,
           other != par {
            throw MP4MuxerError.invalidOption("DASH video representation \(id) has the picture aspect ratio \(par.num):\(par.den) and representation \(k) \(other.num):\(other.den), but the video representations share one AdaptationSet, which has one (scale or pad them to the same shape)")
        }
        let files = try DASHRepresentationFiles(folder: folder, representation: id, initialization: options.initialization,
                                                segmentName: options.segmentName)
        let muxer = try MP4Muxer(path: manifestPath, fragmentsTo: files,
                                 options: MP4MuxerOptions(fragmented: true, fragmentCut: .onRequest))
        let track = try muxer.addTrack(for: format, configuration: configuration)
        let timescale = muxer.timescale(of: track) ?? 90000
        files.segmentTime = { [unowned self] k in
            let s = segmenter.segments(of: id)
            return k < s.count ? s[k].time : 0
        }
        files.segmentWritten = { [unowned self, unowned files] in
            if options.kind == .dynamic { try writeManifest(.dynamic) }
            // after the MPD that no longer lists them is in place
            if options.window > 0 { files.removeSegments(upTo: files.segmentPaths.count - options.window - options.extraWindow) }
        }
        order.addTrack(timescale: timescale)
        _ = segmenter.addTrack(isVideo: format.codec?.isVideo ?? false, timescale: timescale)
        representations.append(Representation(format: format, muxer: muxer, track: track, files: files, timescale: timescale))
        return MP4TrackID(index: id)
    }

    public func timescale(of track: MP4TrackID) -> Int64? {
        representations.indices.contains(track.index) ? representations[track.index].timescale : nil
    }

    /// Queues a sample; whatever decode order allows goes to its representation's muxer.
    public func append(_ sample: MP4Sample, to track: MP4TrackID) throws {
        guard isOpen else {
            throw MP4MuxerError.invalidState(operation: "append a sample", state: state)
        }
        guard representations.indices.contains(track.index) else { throw MP4MuxerError.unknownTrack(track) }
        if availabilityStart == nil { begin() }
        order.push(sample, track: track.index)
        try release()
    }

    /// The first sample: the run's files start to replace those in the folder, so an MPD of an
    /// earlier run at the path, which may list them, is removed (ours appears when it is true).
    func begin() {
        state = .running
        availabilityStart = Self.wallClockMicroseconds()
        unlink(manifestPath)
    }

    /// Hands the samples that decode order allows to the segmenter and their muxers.
    func release() throws {
        while let (k, s) = order.pop() {
            let r = representations[k]
            let starts = segmenter.place(track: k, pts: s.pts, dts: s.dts, duration: s.duration, isKeyFrame: s.isSync, bytes: s.data.count)
            do { try r.muxer.append(s, to: r.track, startingFragment: starts) } catch { throw fail(error) }
        }
    }

    public func finishTrack(_ track: MP4TrackID) throws {
        guard representations.indices.contains(track.index) else { throw MP4MuxerError.unknownTrack(track) }
        guard isOpen else { return }
        order.end(track: track.index)
        try release()
    }

    public func dropQueued(from dts: Int64, in track: MP4TrackID) -> Int {
        guard representations.indices.contains(track.index), isOpen else { return 0 }
        return order.drop(from: dts, track: track.index)
    }

    /// Writes the last segments and the static MPD.
    public func finish() throws {
        guard isOpen else {
            throw MP4MuxerError.invalidState(operation: "finish", state: state)
        }
        if representations.isEmpty { throw fail(MP4MuxerError.invalidOption("no tracks were added")) }
        for k in representations.indices { order.end(track: k) }
        try release()
        segmenter.finish()
        do {
            for r in representations { try r.muxer.finish() }
            try writeManifest(.static)
        } catch {
            throw fail(error)
        }
        state = .completed
    }

    /// Stops without completing: removes every file written (a dynamic MPD too).
    public func cancel() { stop(cancelled: true) }

    var muxers: [any MP4TrackWriter] { representations.map(\.muxer) }

    /// Segments written per representation.
    public var segmentCounts: [Int] { representations.map(\.files.segmentPaths.count) }

    /// Width × SAR : height of a video track; nil for audio.
    public static func pictureAspect(of format: MediaFormat) -> Rational? {
        guard case .encodedVideo(let f) = format else { return nil }
        return DASHAdaptationSet.pictureAspect(width: f.width, height: f.height, sampleAspect: f.raw.sampleAspect)
    }

    static func wallClockMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
