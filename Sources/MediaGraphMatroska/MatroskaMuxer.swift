import MediaGraphCore

/// Writes a Matroska or WebM file from encoded packets of one or more tracks.
///
/// Packets queue per track until every track has its first (the track headers need their codec
/// configurations); from then on each packet is written, in decode-time order across tracks, as
/// soon as every unfinished track has one queued, so memory stays bounded and the tracks
/// interleave. Blocks go straight to disk in clusters (`MatroskaMuxer+Clusters`); sizes,
/// duration, cues and the seek head are written at the end (`MatroskaMuxer+Layout`). The file is
/// written under a hidden name beside `path` and renamed when `finish()` succeeds; on an error or
/// `cancel()` nothing is left at `path`.
///
/// Not thread-safe: call it from one thread (the sink node's).
public final class MatroskaMuxer {
    public let path: String
    public let docType: MatroskaDocType
    /// Movie tags (Info/Title and a Tags element) and chapters, written after Tracks.
    let tags: MatroskaTags
    let chapters: [Chapter]
    public private(set) var state: MatroskaMuxerState = .idle

    var tracks: [Track] = []
    var started = false
    var queuedBytes = 0
    /// Once writing, above this many queued bytes a packet is written even while a track waits.
    let queueLimit = 64 << 20
    /// Before writing (a track has sent nothing yet), above this many queued bytes the muxer
    /// gives up: the track headers cannot be written without every track's configuration.
    let startLimit = 256 << 20
    var file: FileWriter?
    var layout = Layout()
    var cluster: OpenCluster?
    var cues: [CuePoint] = []
    /// End of the latest block (milliseconds): the segment's Duration.
    var endTime: Int64 = 0
    /// Milliseconds added to every block time so that none is before zero
    /// (`MatroskaMuxer+TimeShift`).
    var timeShift: Int64 = 0
    /// Block headers and converted payloads, reused from packet to packet.
    var header = EBMLWriter(capacity: 64)
    var payload: [UInt8] = []

    /// Opens the output (a hidden temporary beside `path`): an unwritable directory fails here.
    /// Chapters that start before 0 or end before they start are refused, as ffmpeg refuses them.
    public init(path: String, docType: MatroskaDocType, tags: MatroskaTags = MatroskaTags([:]), chapters: [Chapter] = []) throws {
        self.path = path
        self.docType = docType
        self.tags = tags
        self.chapters = chapters
        if let problem = MatroskaChapters.problem(chapters) { throw MatroskaMuxerError.invalidOption(problem) }
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard !path[nameStart...].isEmpty else { throw MatroskaMuxerError.invalidOption("output path \(path) names a directory, not a file") }
        let out: FileWriter
        do { out = try FileWriter(path: path) } catch { throw MatroskaMuxerError.io(error) }
        // cluster and segment sizes, the seek head and the duration are patched at the end
        if out.writesDirectly && !out.isSeekable {
            out.discard()
            let name = path == "-" ? "standard output" : "'\(path)'"
            throw MatroskaMuxerError.invalidOption("\(name) is a pipe or a terminal: the Matroska writer patches sizes, duration and the seek index at the end, so it needs a file")
        }
        file = out
    }

    deinit {
        if state == .idle || state == .running { cancel() }
    }

    /// Adds a track. Packets' times are in `description.timeBase`.
    public func addTrack(_ description: MatroskaTrackDescription, configuration: CodecConfiguration? = nil) throws -> MatroskaTrackID {
        guard state == .idle, !started else { throw MatroskaMuxerError.invalidState(operation: "add a track", state: state) }
        let kind = description.isSubtitle ? "subtitle" : description.isVideo ? "video" : "audio"
        let name = "track \(tracks.count + 1) (\(kind) \(description.codec))"
        guard tracks.count < 126 else { throw MatroskaMuxerError.invalidOption("\(name): at most 126 tracks") }
        guard MatroskaCodecs.codecID(description.codec) != nil,
              docType == .matroska || MatroskaCodecs.webm.contains(description.codec) else {
            throw MatroskaMuxerError.unsupportedCodec(track: name, codec: description.codec, docType: docType)
        }
        guard description.timeBase.num > 0, description.timeBase.den > 0 else {
            throw MatroskaMuxerError.invalidOption("\(name): time base \(description.timeBase) is not positive")
        }
        if description.isSubtitle {
            guard description.subtitleHeader.count <= MediaLimits.maxSubtitleHeaderSize else {
                throw MatroskaMuxerError.invalidOption("\(name): a \(description.subtitleHeader.count)-byte header is above the limit of \(MediaLimits.maxSubtitleHeaderSize)")
            }
        } else if description.isVideo {
            guard description.width > 0, description.height > 0, description.width <= 0xFFFF, description.height <= 0xFFFF else {
                throw MatroskaMuxerError.invalidOption("\(name): video size \(description.width)x\(description.height) is out of range")
            }
        } else {
            guard description.sampleRate > 0, description.channels > 0 else {
                throw MatroskaMuxerError.invalidOption("\(name): audio \(description.sampleRate) Hz \(description.channels) channels is out of range")
            }
        }
        let t = Track(description, number: tracks.count + 1, name: name)
        if description.isSubtitle {
            // the header is the stream's, known before any cue
            t.configuration = .other(description.codec, extradata: description.subtitleHeader)
            t.codecPrivate = description.subtitleHeader
        } else if let configuration {
            try t.configure(configuration)
        }
        tracks.append(t)
        return MatroskaTrackID(index: tracks.count - 1)
    }

    /// Queues a packet; writes whatever interleaving allows.
    public func append(_ packet: MatroskaPacket, to id: MatroskaTrackID) throws {
        guard state == .idle || state == .running else {
            throw MatroskaMuxerError.invalidState(operation: "append a packet", state: state)
        }
        guard id.index >= 0, id.index < tracks.count else { throw MatroskaMuxerError.unknownTrack(id) }
        let t = tracks[id.index]
        guard !t.ended else { throw fail(.invalidState(operation: "append to \(t.name) after finishTrack", state: state)) }
        let number = t.received
        if let last = t.lastDTS, packet.dts < last {
            throw fail(.decodeOrder(track: t.name, packet: number, dts: packet.dts, previousDTS: last))
        }
        guard !packet.data.isEmpty || t.description.isSubtitle else { throw fail(.invalidPacket(track: t.name, packet: number, reason: "no data")) }
        if t.description.isSubtitle {
            let size = packet.data.count + (packet.webVTT.map { $0.identifier.count + $0.settings.count + 2 } ?? 0)
            guard size <= MediaLimits.maxSubtitlePacketSize else {
                throw fail(.invalidPacket(track: t.name, packet: number, reason: "a cue of \(size) bytes is above the limit of \(MediaLimits.maxSubtitlePacketSize)"))
            }
        }
        let tb = t.description.timeBase
        guard let pts = MediaTime.rescale(packet.pts, timeBase: tb, to: 1000),
              let dts = MediaTime.rescale(packet.dts, timeBase: tb, to: 1000),
              let duration = MediaTime.rescale(packet.duration, timeBase: tb, to: 1000),
              let padding = MediaTime.rescale(packet.discardPadding, timeBase: tb, to: 1_000_000_000),
              pts.magnitude < 1 << 46, duration >= 0, duration < 1 << 40 else {
            throw fail(.invalidPacket(track: t.name, packet: number,
                                      reason: "pts \(packet.pts) / duration \(packet.duration) in time base \(tb) is out of range"))
        }
        if t.configuration == nil {
            let c = packet.configuration ?? Track.inBandConfiguration(packet.data, codec: t.description.codec)
            guard let c else { throw fail(.missingConfiguration(track: t.name)) }
            do { try t.configure(c) } catch let e as MatroskaMuxerError { throw fail(e) }
        }
        t.enqueue(QueuedPacket(data: packet.data, pts: pts, dts: dts, duration: duration,
                               isKeyFrame: packet.isKeyFrame, discardPadding: padding, number: number, webVTT: packet.webVTT))
        t.lastDTS = packet.dts
        queuedBytes += packet.data.count
        do {
            if !started {
                if tracks.allSatisfy({ $0.received > 0 || waitsNoLonger(for: $0) }) {
                    decideTimeShift()
                    try writeHeader()
                    started = true
                    state = .running
                } else if queuedBytes > startLimit {
                    let silent = tracks.filter { $0.received == 0 }.map(\.name).joined(separator: ", ")
                    throw MatroskaMuxerError.invalidOption("\(silent) sent no packet while \(startLimit >> 20) MiB of the others' queued; the track headers need every track's first packet")
                }
            }
            try drain(final: false)
        } catch let e as MatroskaMuxerError {
            throw fail(e)
        } catch let e as FileError {
            throw fail(.io(e))
        }
    }

    /// Leaves out the packets of track `id` still waiting to be written whose dts is at `seconds`
    /// or later, and returns how many: a muxer ending with its shortest input cuts a track that
    /// was read ahead of the one that ended. Written packets stay.
    /// Milliseconds a packet waits for a sparse (subtitle) track's next cue.
    static let sparseWait: Int64 = 10_000

    /// Whether the header may be written without a cue of sparse track `t`: it has ended, or
    /// the others have queued more than `sparseWait` (its header is in its format, and its
    /// first cue, when it comes, still counts for the time shift if it comes in time).
    func waitsNoLonger(for t: Track) -> Bool {
        guard t.description.isSubtitle else { return false }
        let earliest = tracks.compactMap { $0.queued.first?.dts }.min() ?? .max
        return t.ended || latestQueuedDTS() - earliest > Self.sparseWait
    }

    /// The latest dts (ms) among the queued packets.
    func latestQueuedDTS() -> Int64 {
        tracks.compactMap { $0.queued.last?.dts }.max() ?? .min
    }

    public func dropQueued(fromSeconds seconds: Double, in id: MatroskaTrackID) -> Int {
        guard id.index >= 0, id.index < tracks.count else { return 0 }
        let dropped = tracks[id.index].dropQueued(fromMilliseconds: Int64((seconds * 1000).rounded(.up)))
        queuedBytes -= dropped.bytes
        return dropped.count
    }

    /// Tells the muxer that a track gets no more packets, so interleaving stops waiting for it.
    public func finishTrack(_ id: MatroskaTrackID) throws {
        guard id.index >= 0, id.index < tracks.count else { throw MatroskaMuxerError.unknownTrack(id) }
        tracks[id.index].ended = true
        do { try drain(final: false) } catch let e as MatroskaMuxerError {
            throw fail(e)
        } catch let e as FileError {
            throw fail(.io(e))
        }
    }

    /// Writes everything still queued, the cues and the sizes, and puts the file in place.
    public func finish() throws {
        guard state == .idle || state == .running else {
            throw MatroskaMuxerError.invalidState(operation: "finish", state: state)
        }
        if tracks.isEmpty { throw fail(.invalidOption("no tracks were added")) }
        // a subtitle track without cues is written empty, as ffmpeg writes it
        if let empty = tracks.first(where: { $0.received == 0 && !$0.description.isSubtitle }) { throw fail(.emptyTrack(track: empty.name)) }
        do {
            for t in tracks { t.ended = true }
            if !started {
                decideTimeShift()
                try writeHeader()
                started = true
            }
            try drain(final: true)
            try writeTrailer()
            try file?.commit()   // fsync, then renamed to `path`
            file = nil
        } catch let e as MatroskaMuxerError {
            throw fail(e)
        } catch let e as FileError {
            throw fail(.io(e))
        }
        state = .completed
    }

    /// Stops without completing: nothing is left at the path.
    public func cancel() {
        guard state == .idle || state == .running else { return }
        state = .cancelled
        cleanUp()
    }

    func fail(_ e: MatroskaMuxerError) -> MatroskaMuxerError {
        if state == .idle || state == .running {
            state = .failed
            cleanUp()
        }
        return e
    }

    private func cleanUp() {
        file?.discard()
        file = nil
        for t in tracks { t.clear() }
    }

    /// Writes queued packets in decode-time order across tracks, each as soon as every unfinished
    /// track has one queued (nothing later can then come before it), as MP4Muxer does. A
    /// subtitle track is sparse: with no cue queued it holds back only packets less than
    /// `sparseWait` ms before the latest one queued (ffmpeg's max_interleave_delta, 10 s), so a
    /// long gap between cues does not hold the other tracks in memory.
    func drain(final: Bool) throws {
        guard started else { return }
        while true {
            var pick: Int?
            for (i, t) in tracks.enumerated() where t.hasQueued {
                if let p = pick, t.head.dts >= tracks[p].head.dts { continue }
                pick = i
            }
            guard let p = pick else { return }
            let waitsDense = tracks.contains { !$0.ended && !$0.hasQueued && !$0.description.isSubtitle }
            let waitsSparse = tracks.contains { !$0.ended && !$0.hasQueued && $0.description.isSubtitle }
                && latestQueuedDTS() - tracks[p].head.dts <= Self.sparseWait
            if (waitsDense || waitsSparse) && !final && queuedBytes <= queueLimit { return }
            let packet = tracks[p].popHead()
            queuedBytes -= packet.data.count
            try writeBlock(packet, of: tracks[p])
        }
    }
}
