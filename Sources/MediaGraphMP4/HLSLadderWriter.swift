#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// Writes HLS with a master playlist (RFC 8216 4.3.4): one rendition per track, each a muxer
/// of its own writing to an `HLSWriter` (its media playlist and segments): an `MP4Muxer` for
/// fragmented-MP4 segments (with an init segment), or an `MPEGTSMuxer` for MPEG-TS ones, as
/// ffmpeg's `-var_stream_map` gives each variant stream an mpegts muxer of its own. Video tracks as variant streams and audio tracks as renditions of one audio
/// group that every variant plays with, as Apple's HLS authoring specification recommends
/// over muxing the audio into every variant.
///
/// Every rendition is cut by the same rule, the `hls` sink's grid (`MP4FragmentCut.grid`, or
/// `MPEGTSSegmentClock`, the same rule on pts): a segment ends at its first key frame (audio: any frame) at or after the next multiple of
/// `segmentDuration` from its first sample. Variants encoded with the same key-frame positions
/// therefore get segments that start at the same times; others do not, and each media playlist
/// still describes its own segments correctly.
///
/// Every file appears only when complete. A VOD master is written once, at the end, after every
/// media playlist is complete. An EVENT master is written as soon as every rendition's media
/// playlist is in place (each has its first segment), with the bit rates measured so far, and
/// again at the end: a player never reads a master that names a playlist that is not there.
/// After a failure an EVENT stream whose master is in place keeps everything it lists; any
/// other stream (VOD, an EVENT without a master yet, a cancelled run) removes every file of
/// every rendition. `outcome` says which.
///
/// Not thread-safe: call it from one thread (the sink node's).
public final class HLSLadderWriter: MP4TrackWriter, MuxerGroup {
    /// What the node knows of a rendition before its track exists.
    public struct RenditionSpec: Sendable {
        public var names: HLSRenditionNames
        /// Where it goes in the master playlist (variants and audio renditions each in this order).
        public var position: Int

        public init(names: HLSRenditionNames, position: Int) {
            self.names = names
            self.position = position
        }
    }

    /// One track: its muxer and files.
    struct Rendition {
        var spec: RenditionSpec
        var format: MediaFormat
        /// An `MP4Muxer` (fMP4 segments) or an `MPEGTSMuxer` (MPEG-TS segments).
        var muxer: any MP4TrackWriter
        var track: MP4TrackID
        var files: HLSWriter
        var timescale: Int64
        var isVideo: Bool { format.codec?.isVideo ?? false }
    }

    public let masterPath: String
    public let kind: HLSPlaylist.Kind
    /// Every media playlist's window when `kind` is live.
    public let window: HLSLiveWindow
    public let segmentType: HLSSegmentType
    /// MPEG-TS: the SDT's service name of every rendition (ffmpeg takes the `title` tag).
    let title: String?
    let segmentDuration: Double
    let programDateTime: Double?
    /// MPEG-TS: samples held until every rendition's first is known (`HLSLadderWriter+TransportStream`).
    var held: [(track: Int, sample: MP4Sample)] = []
    var firstDTS: [Int64?] = []
    var offsetFixed = false
    let specs: [RenditionSpec]
    let muxerOptions: MP4MuxerOptions
    /// Folder of the master ("" for the current one), with a trailing slash.
    let folder: String
    var renditions: [Rendition] = []
    public internal(set) var state: MP4MuxerState = .idle
    /// Whether a master playlist of this run is in place.
    public internal(set) var masterWritten = false
    /// After a failure or cancel: what was kept or removed, for the error message.
    public internal(set) var outcome: String?

    /// - Parameters:
    ///   - renditions: one per track, in the order `addTrack` will be called.
    ///   - segmentDuration: seconds of the segment grid (the `hls` sink's `segment-duration`).
    ///   - window: each media playlist's sliding window when `kind` is live.
    ///   - segmentType: fMP4 segments after an init segment, or MPEG-TS segments.
    ///   - title: MPEG-TS: the service name in every rendition's SDT (default "Service01").
    ///   - programDateTime: every media playlist's `HLSPlaylist.programDateTime`.
    public init(masterPath: String, renditions: [RenditionSpec], kind: HLSPlaylist.Kind, segmentDuration: Double,
                window: HLSLiveWindow = HLSLiveWindow(), segmentType: HLSSegmentType = .fmp4, title: String? = nil,
                programDateTime: Double? = nil) throws {
        guard segmentDuration.isFinite, segmentDuration > 0 else {
            throw MP4MuxerError.invalidOption("HLS segment duration \(segmentDuration) is not a positive number of seconds")
        }
        let masterName = masterPath.split(separator: "/").last.map(String.init) ?? masterPath
        if let prefix = renditions.first?.names.prefix,
           let port = HLSRenditionNames.collision(masterName: masterName, prefix: prefix, ports: renditions.map(\.names.port)) {
            throw MP4MuxerError.invalidOption("the master playlist '\(masterName)' would be overwritten by the media playlist of '\(port)'")
        }
        self.masterPath = masterPath
        self.kind = kind
        self.window = window
        self.segmentType = segmentType
        self.title = title
        self.programDateTime = programDateTime
        self.segmentDuration = segmentDuration
        specs = renditions
        muxerOptions = MP4MuxerOptions(fragmented: true, fragmentDuration: segmentDuration, fragmentCut: .grid)
        folder = masterPath.lastIndex(of: "/").map { String(masterPath[...$0]) } ?? ""
    }

    deinit {
        if isOpen { cancel() }
    }

    /// Adds the next rendition. Its init segment file is opened now (MPEG-TS: its first segment's
    /// name tried), so an unwritable folder fails before any media is made.
    public func addTrack(for format: MediaFormat, configuration: CodecConfiguration? = nil) throws -> MP4TrackID {
        guard state == .idle else { throw MP4MuxerError.invalidState(operation: "add a rendition", state: state) }
        let k = renditions.count
        guard specs.indices.contains(k) else {
            throw MP4MuxerError.invalidOption("HLS master playlist: track \(k + 1) has no rendition name (\(specs.count) given)")
        }
        let names = specs[k].names
        let files = try HLSWriter(playlistPath: folder + names.playlist, segmentPrefix: names.segmentPrefix,
                                  initName: names.initialization, kind: kind, segmentType: segmentType, window: window,
                                  programDateTime: programDateTime)
        files.decidesCleanup = false
        files.segmentWritten = { [unowned self] in try writeFirstEventMaster() }
        let muxer: any MP4TrackWriter = switch segmentType {
        case .fmp4: try MP4Muxer(path: files.playlistPath, fragmentsTo: files, options: muxerOptions)
        case .mpegts: MPEGTSMuxer(output: files, title: title, segmentDuration: segmentDuration)
        }
        let track = try muxer.addTrack(for: format, configuration: configuration)
        renditions.append(Rendition(spec: specs[k], format: format, muxer: muxer, track: track, files: files,
                                    timescale: muxer.timescale(of: track) ?? 90000))
        firstDTS.append(nil)
        return MP4TrackID(index: k)
    }

    public func timescale(of track: MP4TrackID) -> Int64? {
        renditions.indices.contains(track.index) ? renditions[track.index].timescale : nil
    }

    /// Hands the sample to its rendition's muxer, which writes a segment whenever one is complete.
    public func append(_ sample: MP4Sample, to track: MP4TrackID) throws {
        guard isOpen else {
            throw MP4MuxerError.invalidState(operation: "append a sample", state: state)
        }
        guard renditions.indices.contains(track.index) else { throw MP4MuxerError.unknownTrack(track) }
        if state == .idle { begin() }
        if segmentType == .mpegts && !offsetFixed {
            do { try hold(sample, track: track.index) } catch { throw fail(error) }
            return
        }
        let r = renditions[track.index]
        do { try r.muxer.append(sample, to: r.track) } catch { throw fail(error) }
    }

    /// The first sample: this run's files start to replace those in the folder, so a master of
    /// an earlier run at the path, which names them, is removed (ours appears when it is true).
    func begin() {
        state = .running
        unlink(masterPath)
    }

    public func finishTrack(_ track: MP4TrackID) throws {
        guard renditions.indices.contains(track.index) else { throw MP4MuxerError.unknownTrack(track) }
        guard isOpen else { return }
        let r = renditions[track.index]
        do {
            if segmentType == .mpegts && !offsetFixed {
                firstDTS[track.index] = firstDTS[track.index] ?? .max
                try releaseHeldIfReady()
            }
            try r.muxer.finishTrack(r.track)
        } catch { throw fail(error) }
    }

    /// Fragmented muxers keep what they have queued (their cuts are already counted).
    public func dropQueued(from dts: Int64, in track: MP4TrackID) -> Int {
        guard renditions.indices.contains(track.index) else { return 0 }
        let r = renditions[track.index]
        let before = held.count
        held.removeAll { $0.track == track.index && $0.sample.dts >= dts }
        return before - held.count + r.muxer.dropQueued(from: dts, in: r.track)
    }

    /// Writes every rendition's last segment and media playlist, then the master.
    public func finish() throws {
        guard isOpen else {
            throw MP4MuxerError.invalidState(operation: "finish", state: state)
        }
        if renditions.isEmpty { throw fail(MP4MuxerError.invalidOption("no tracks were added")) }
        do {
            try releaseHeld()
            for r in renditions { try r.muxer.finish() }
            try writeMaster()
        } catch {
            throw fail(error)
        }
        state = .completed
    }

    /// Stops without completing: removes every file written (an EVENT master too).
    public func cancel() { stop(cancelled: true) }

    var muxers: [any MP4TrackWriter] { renditions.map(\.muxer) }

    /// Per rendition in track order: its port and the segments written.
    public var segmentCounts: [(port: String, segments: Int)] {
        renditions.map { ($0.spec.names.port, $0.files.playlist.segments.count) }
    }
}
