#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// Writes an MP4 (ISO base media) file from encoded samples of one or more tracks.
///
/// Samples queue per track; writing starts once every track has its first sample; each sample is
/// then written, in decode-time order across tracks, as soon as every unfinished track has one
/// queued (a chunk is a run of one track's samples, at most `chunkDuration`). Media data
/// goes to disk as it arrives, so memory stays bounded. In normal mode the file is written under
/// a hidden name beside `path` and renamed when `finish()` succeeds; on an error or `cancel()`
/// nothing is left at `path`. With `fragmented`, fragments are written to `path` as they
/// complete, so a killed process leaves a file that plays up to its last complete fragment.
///
/// Not thread-safe: call it from one thread (the sink node's).
public final class MP4Muxer {
    public let path: String
    public let options: MP4MuxerOptions
    public private(set) var state: MP4MuxerState = .idle
    /// Fragments written and flushed so far (fragmented mode).
    public var completedFragments: Int { Int(fragmentSequence) }

    var tracks: [Track] = []
    var started = false
    var queuedBytes = 0
    /// Above this many queued bytes, writing goes ahead even while a track waits for samples.
    let queueLimit = 64 << 20

    /// Normal mode: the file that appears at `path` when finished (in fast start the moov is put
    /// in front of its media at the end, see `finalizeNormal`). Fragmented mode: the
    /// output file itself, at its path from the start. All are created by MediaGraphCore's
    /// `PendingFile`: exclusively, never through a planted link, nothing left behind on error.
    var file: OutputFile?
    /// Fast start to a stream (standard output, a device): where the finished file is copied;
    /// `file` is then scratch space in the temporary directory.
    var destination: OutputFile?
    var mdatHeaderOffset: UInt64 = 0
    var mediaBase: UInt64 = 0
    var mediaBytes: UInt64 = 0
    var chunkTrack: Int?
    var chunkStartDTS: Int64 = 0
    /// Bytes in the chunk being written (a QuickTime movie's chunks are bounded by size).
    var chunkBytes = 0
    var scratch: [UInt8] = []
    /// The QuickTime chapter track of a file: its samples open the media data (normal mode) or
    /// the first fragment's (fragmented); none in pieces for a receiver (HLS, DASH), as ffmpeg's
    /// hls and dash muxers write none.
    var chapterTrack: ChapterTrack?
    // fragmented mode
    var leadTrack = 0
    /// Decode time (lead track ticks) where the current fragment began, and where the first did.
    var fragmentStart: Int64?
    var fragmentOrigin: Int64 = 0
    /// Cuts decided so far (`.grid` puts the next one at the following multiple).
    var cutsNoted: Int64 = 0
    /// Takes the pieces instead of `file` (`init(path:fragmentsTo:options:)`).
    var receiver: MP4FragmentReceiver?
    var fragmentCuts: [MediaTime] = []
    var fragmentSequence: UInt32 = 0
    var moovWritten = false
    var fragmentData: [UInt8] = []
    /// Where each track's fragments start with a sync sample, for the closing mfra box.
    var randomAccess: [[RandomAccessPoint]] = []
    /// Where the chapter track's samples are (the first fragment), for mfra.
    var chapterRandomAccess: RandomAccessPoint?

    /// Opens the output (an unnamed or hidden temporary beside `path` in normal mode): an
    /// unwritable directory fails here.
    public init(path: String, options: MP4MuxerOptions = MP4MuxerOptions()) throws {
        try Self.check(options)
        self.path = path
        self.options = options
        chapterTrack = ChapterTrack(options.chapters)
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard !path[nameStart...].isEmpty else { throw MP4MuxerError.invalidOption("output path \(path) names a directory, not a file") }
        do {
            if options.fragmented {
                file = try OutputFile(path: path, placement: .immediately)
            } else {
                let out = try OutputFile(path: path)
                file = out
                if out.writesDirectly { try openScratchForStream(out) }
            }
        } catch let e as MP4IOError {
            throw MP4MuxerError.io(e)
        }
    }

    /// A fragmented MP4 handed out in pieces, no file of its own: the initialization segment and
    /// then each fragment go to `receiver` as they complete (`options.fragmented` is implied).
    /// Each fragment starts with a styp box (brands msdh, msix), as a DASH or HLS media segment
    /// does, and the file ends without mfra (a segment index belongs to the playlist).
    /// - Parameter path: names the output in messages (an HLS writer's playlist).
    public init(path: String, fragmentsTo receiver: MP4FragmentReceiver, options: MP4MuxerOptions = MP4MuxerOptions()) throws {
        var options = options
        options.fragmented = true
        try Self.check(options)
        self.path = path
        self.options = options
        self.receiver = receiver
    }

    static func check(_ options: MP4MuxerOptions) throws {
        if let r = options.rotation, ![0, 90, 180, 270].contains(r) {
            throw MP4MuxerError.invalidOption("rotation \(r) is not one of 0, 90, 180, 270")
        }
        guard options.fragmentDuration > 0, options.chunkDuration > 0 else {
            throw MP4MuxerError.invalidOption("fragment and chunk durations must be positive")
        }
        if options.quickTime && options.fragmented {
            throw MP4MuxerError.invalidOption("a QuickTime movie (.mov) is written whole, not fragmented: name the output .mp4 to fragment it")
        }
        if let ts = options.movieTimescale, ts <= 0 || ts > Int64(UInt32.max) {
            throw MP4MuxerError.invalidOption("movie timescale \(ts) is not in 1…\(UInt32.max)")
        }
    }

    /// A plain MP4 to standard output, a device or a FIFO: the end of the run writes where the
    /// media starts (the mdat size, and with fast start the moov in front), so a pipe or a
    /// terminal, which cannot seek, is refused before a byte is written (as ffmpeg refuses it). In
    /// fast start the media goes to a scratch file in the temporary directory and is copied out
    /// behind the moov at the end, as no file can be made beside a stream.
    private func openScratchForStream(_ out: OutputFile) throws {
        guard out.isSeekable else {
            out.discard()
            file = nil
            let name = path == "-" ? "standard output" : "'\(path)'"
            throw MP4MuxerError.invalidOption("\(name) is a pipe or a terminal, which a plain MP4 cannot be written to: its sizes and index are written at the end, in front of the media; set \"fragmented\": true to stream MP4")
        }
        guard options.fastStart else { return }
        destination = out
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        do { file = try OutputFile(path: directory + "/mediagraph-mp4-media", placement: .never) } catch {
            out.discard()
            destination = nil
            throw error
        }
    }

    deinit {
        if state == .idle || state == .running { cancel() }
    }

    /// Adds a video track. `timescale` is the unit of the samples' times (e.g. 90000, or a
    /// multiple of the frame rate).
    /// `codecTag`: the sample description type where the codec's packets do not say it (ProRes).
    public func addVideoTrack(codec: Codec, width: Int, height: Int, timescale: Int64,
                              configuration: CodecConfiguration? = nil,
                              metadata: MP4TrackMetadata = MP4TrackMetadata(), codecTag: String? = nil) throws -> MP4TrackID {
        guard codec.isVideo else { throw MP4MuxerError.invalidOption("\(codec) is not a video codec") }
        guard width > 0, height > 0, width <= 0xFFFF, height <= 0xFFFF else {
            throw MP4MuxerError.invalidOption("video size \(width)x\(height) is out of range")
        }
        var metadata = metadata
        if let r = metadata.rotation {
            // -90 and 270 are the same turn
            let turn = (r % 360 + 360) % 360
            guard turn % 90 == 0 else {
                throw MP4MuxerError.invalidOption("track \(tracks.count + 1): rotation \(r) is not a multiple of 90 degrees")
            }
            metadata.rotation = turn
        }
        var d = MP4TrackDescription(id: tracks.count + 1, codec: codec, timescale: timescale)
        d.width = width
        d.height = height
        d.metadata = metadata
        d.codecTag = codecTag
        return try add(d, configuration)
    }

    /// Adds an audio track; the timescale defaults to the sample rate (Opus: 48000, the rate it
    /// always decodes at, which its sample entry states).
    public func addAudioTrack(codec: Codec, sampleRate: Int, channels: Int, timescale: Int64? = nil,
                              configuration: CodecConfiguration? = nil,
                              metadata: MP4TrackMetadata = MP4TrackMetadata(),
                              channelLayout: ChannelLayout = .unspecified) throws -> MP4TrackID {
        guard !codec.isVideo else { throw MP4MuxerError.invalidOption("\(codec) is not an audio codec") }
        guard sampleRate > 0, channels > 0 else {
            throw MP4MuxerError.invalidOption("audio \(sampleRate) Hz \(channels) channels is out of range")
        }
        let rate = codec == .opus ? 48000 : sampleRate
        var d = MP4TrackDescription(id: tracks.count + 1, codec: codec, timescale: timescale ?? Int64(rate))
        d.sampleRate = rate
        d.channels = channels
        d.metadata = MP4TrackMetadata(language: metadata.language, creationTime: metadata.creationTime)
        d.channelLayout = channelLayout
        if let pcm = QuickTimePCM(codec) {
            guard options.quickTime else {
                throw MP4MuxerError.invalidOption("\(d.name): uncompressed sound (\(codec)) is written only into a QuickTime movie (name the output .mov)")
            }
            guard channels <= 0xFFFF else {
                throw MP4MuxerError.invalidOption("\(d.name): \(channels) channels; a QuickTime sound description holds at most 65535")
            }
            d.pcm = pcm
            // raw samples need no configuration
            return try add(d, configuration ?? .other(codec, extradata: []))
        }
        return try add(d, configuration)
    }

    func add(_ d: MP4TrackDescription, _ c: CodecConfiguration?) throws -> MP4TrackID {
        guard state == .idle, !started else { throw MP4MuxerError.invalidState(operation: "add a track", state: state) }
        guard d.timescale > 0, d.timescale <= Int64(UInt32.max) else {
            throw MP4MuxerError.invalidOption("\(d.name): timescale \(d.timescale) is not in 1…\(UInt32.max)")
        }
        if options.quickTime, !Self.quickTimeCodecs.contains(d.codec) && d.pcm == nil {
            throw MP4MuxerError.invalidOption("\(d.name): a QuickTime movie is written with \(Self.quickTimeCodecs.map(\.rawValue).joined(separator: ", ")) or PCM sound; for \(d.codec) name the output .mp4 (or .mkv)")
        }
        if !options.quickTime && d.codec == .prores {
            throw MP4MuxerError.invalidOption("\(d.name): ProRes is written only into a QuickTime movie (name the output .mov)")
        }
        if d.codec == .prores, !ProResTags.all.contains(d.codecTag ?? "") {
            throw MP4MuxerError.invalidOption("\(d.name): a ProRes track needs its profile's four-character code (one of \(ProResTags.all.joined(separator: ", "))), found \(d.codecTag.map { "'\($0)'" } ?? "none"); ProRes from the prores node carries it")
        }
        if let c { try check(c, for: d) }
        tracks.append(Track(d, c))
        leadTrack = tracks.firstIndex { $0.description.isVideo } ?? 0
        return MP4TrackID(index: tracks.count - 1)
    }

    /// Queues a sample; writes whatever interleaving allows.
    public func append(_ sample: MP4Sample, to id: MP4TrackID) throws {
        try append(sample, to: id, startingFragment: false)
    }

    /// Queues a sample; with `fragmentCut: .onRequest` and `startingFragment`, a new fragment
    /// starts with it (on the lead track; ignored for the first sample and in other modes).
    public func append(_ sample: MP4Sample, to id: MP4TrackID, startingFragment: Bool) throws {
        guard state == .idle || state == .running else {
            throw MP4MuxerError.invalidState(operation: "append a sample", state: state)
        }
        guard id.index >= 0, id.index < tracks.count else { throw MP4MuxerError.unknownTrack(id) }
        let t = tracks[id.index]
        guard !t.ended else { throw fail(.invalidState(operation: "append to \(t.description.name) after finishTrack", state: state)) }
        if let last = t.lastQueuedDTS, sample.dts <= last {
            throw fail(.decodeOrder(track: t.description.name, sample: t.received, dts: sample.dts, previousDTS: last))
        }
        if sample.data.isEmpty {
            throw fail(.invalidSample(track: t.description.name, sample: t.received, reason: "no data"))
        }
        if let pcm = t.description.pcm, sample.data.count % (pcm.bytesPerSample * t.description.channels) != 0 {
            throw fail(.invalidSample(track: t.description.name, sample: t.received,
                                      reason: "\(sample.data.count) bytes are not whole sample frames of \(pcm.bytesPerSample * t.description.channels) bytes (\(t.description.channels) channels of \(pcm.codec))"))
        }
        // About 194 days in any timescale: far beyond real media, and no arithmetic overflow.
        let limit = t.description.timescale << 24
        if sample.duration < 0 || sample.duration > min(limit, Int64(UInt32.max)) {
            throw fail(.invalidSample(track: t.description.name, sample: t.received,
                                      reason: "duration \(sample.duration) is not in 0…\(min(limit, Int64(UInt32.max)))"))
        }
        // magnitude, not abs: abs(Int64.min) traps.
        if sample.pts.magnitude > limit.magnitude || sample.dts.magnitude > limit.magnitude {
            throw fail(.invalidSample(track: t.description.name, sample: t.received,
                                      reason: "pts \(sample.pts) / dts \(sample.dts) beyond ±\(limit) ticks (2^24 s)"))
        }
        if let last = t.lastQueuedDTS, sample.dts - last > Int64(UInt32.max) {
            throw fail(.invalidSample(track: t.description.name, sample: t.received,
                                      reason: "dts jumps by \(sample.dts - last) ticks, more than a 32-bit sample duration"))
        }
        if t.configuration == nil {
            let c = sample.configuration ?? inBandConfiguration(sample.data, codec: t.description.codec)
            guard let c else { throw fail(.missingConfiguration(track: t.description.name)) }
            do { try check(c, for: t.description) } catch let e as MP4MuxerError { throw fail(e) }
            t.configuration = c
        }
        t.queue.append(sample)
        t.received += 1
        t.lastQueuedDTS = sample.dts
        queuedBytes += sample.data.count
        if !started && tracks.allSatisfy({ $0.received > 0 }) {
            started = true
            state = .running
        }
        do {
            if options.fragmented {
                noteFragmentBoundary(sample, track: id.index, requested: startingFragment)
                try writeReadyFragments(final: false)
            } else {
                try drain(final: false)
            }
        } catch let e as MP4MuxerError {
            throw fail(e)
        } catch let e as MP4IOError {
            throw fail(ioFailure(e))
        }
    }

    /// Leaves out the samples of track `id` still waiting to be written whose dts is `dts` or
    /// later (track timescale), and returns how many: a muxer ending with its shortest input cuts
    /// a track that was read ahead of the one that ended. Written samples stay, and so does all of
    /// a fragmented file's queue (its fragment boundaries are already counted).
    public func dropQueued(from dts: Int64, in id: MP4TrackID) -> Int {
        guard !options.fragmented, id.index >= 0, id.index < tracks.count else { return 0 }
        let t = tracks[id.index]
        var n = 0
        // dts rises within a track: the samples to drop are the queue's tail
        while t.hasQueued, let last = t.queue.last, last.dts >= dts {
            queuedBytes -= last.data.count
            t.queue.removeLast()
            n += 1
        }
        t.lastQueuedDTS = t.hasQueued ? t.queue.last?.dts : t.table.count > 0 ? t.table.lastDTS : nil
        return n
    }

    /// Tells the muxer that a track gets no more samples, so interleaving stops waiting for it.
    public func finishTrack(_ id: MP4TrackID) throws {
        guard id.index >= 0, id.index < tracks.count else { throw MP4MuxerError.unknownTrack(id) }
        tracks[id.index].ended = true
    }

    /// Writes everything still queued and completes the file (renamed into place in normal mode).
    public func finish() throws {
        guard state == .idle || state == .running else {
            throw MP4MuxerError.invalidState(operation: "finish", state: state)
        }
        if tracks.isEmpty { throw fail(.invalidOption("no tracks were added")) }
        if let empty = tracks.first(where: { $0.received == 0 }) {
            throw fail(.emptyTrack(track: empty.description.name))
        }
        do {
            for t in tracks { t.ended = true }
            if options.fragmented {
                try writeReadyFragments(final: true)
                try writeRandomAccessIndex()
                try file?.closeFile()
                file = nil
                try receiver?.finishFragments()
                receiver = nil
            } else {
                try drain(final: true)
                try finalizeNormal()
            }
        } catch let e as MP4MuxerError {
            throw fail(e)
        } catch let e as MP4IOError {
            throw fail(ioFailure(e))
        }
        state = .completed
    }

    /// Stops without completing: removes the temporary files (and, in fragmented mode, the output).
    public func cancel() {
        guard state == .idle || state == .running else { return }
        state = .cancelled
        cleanUp(removeOutput: true)
    }

    // MARK: - errors

    func fail(_ e: MP4MuxerError) -> MP4MuxerError {
        if state == .idle || state == .running {
            state = .failed
            cleanUp(removeOutput: false)
        }
        return e
    }

    func cleanUp(removeOutput: Bool) {
        // a fragmented file that failed keeps its complete fragments (as after a crash)
        if options.fragmented && !removeOutput { try? file?.closeFile() } else { file?.discard() }
        file = nil
        receiver?.abandon(cancelled: removeOutput)
        receiver = nil
        destination?.discard()
        destination = nil
        for t in tracks { t.queue.removeAll() }
    }

    func check(_ c: CodecConfiguration, for d: MP4TrackDescription) throws {
        // avcC/hvcC store parameter set lengths in 16 bits.
        let sets: [[UInt8]]
        switch c {
        case .h264(let h): sets = h.sps + h.pps
        case .hevc(let h): sets = h.vps + h.sps + h.pps
        default: sets = []
        }
        if let long = sets.first(where: { $0.count > 0xFFFF || $0.isEmpty }) {
            throw MP4MuxerError.configurationMismatch(track: d.name, expected: "parameter sets of 1…65535 bytes",
                                                      found: "one of \(long.count) bytes")
        }
        let framing: NALFraming
        switch c {
        case .h264(let h): framing = h.framing
        case .hevc(let h): framing = h.framing
        default: framing = .annexB
        }
        if case .lengthPrefixed(let n) = framing, !(1...4).contains(n) {
            throw MP4MuxerError.configurationMismatch(track: d.name, expected: "NAL unit length prefixes of 1 to 4 bytes",
                                                      found: "\(n)-byte prefixes")
        }
        if case .opus(let o) = c, o.mappingFamily != 0 && o.channelMapping.count != o.channels {
            throw MP4MuxerError.configurationMismatch(track: d.name, expected: "an Opus channel mapping table of \(o.channels) entries",
                                                      found: "\(o.channelMapping.count) entries")
        }
        let ok: Bool
        switch c {
        case .h264(let h): ok = d.codec == .h264 && !h.sps.isEmpty && !h.pps.isEmpty && h.sps[0].count >= 4
        case .hevc(let h): ok = d.codec == .hevc && !h.sps.isEmpty && !h.pps.isEmpty
        case .vpx(let v): ok = v.codec == d.codec
        case .aac(let a): ok = d.codec == .aac && a.audioSpecificConfig.count >= 2
        case .opus(let o): ok = d.codec == .opus && (1...255).contains(o.channels) && (0...0xFFFF).contains(o.preSkip)
        case .mp3: ok = d.codec == .mp3
        case .other(let codec, _):
            // ProRes and PCM need nothing beyond their sample entry (QuickTime only, checked in `add`)
            ok = codec == d.codec && (codec == .prores || QuickTimePCM(codec) != nil)
        }
        if !ok {
            throw MP4MuxerError.configurationMismatch(track: d.name, expected: "a complete \(d.codec.rawValue) configuration",
                                                      found: Self.describe(c))
        }
    }

    static func describe(_ c: CodecConfiguration) -> String {
        switch c {
        case .h264(let h): return "h264 with \(h.sps.count) SPS, \(h.pps.count) PPS"
        case .hevc(let h): return "hevc with \(h.vps.count) VPS, \(h.sps.count) SPS, \(h.pps.count) PPS"
        case .vpx(let v): return "\(v.codec.rawValue)"
        case .aac(let a): return "aac with a \(a.audioSpecificConfig.count)-byte AudioSpecificConfig"
        case .opus(let o): return "opus with \(o.channels) channels"
        case .mp3: return "mp3"
        case .other(let codec, let extradata): return "\(codec) with \(extradata.count) bytes of codec-private data"
        }
    }

    /// Parameter sets carried inside an Annex B sample, for producers that do not pass them
    /// (MP3 needs none: every frame header describes itself).
    func inBandConfiguration(_ data: PacketBytes, codec: Codec) -> CodecConfiguration? {
        if codec == .mp3 { return .mp3 }
        guard codec == .h264 || codec == .hevc else { return nil }
        return data.withUnsafeBytes { raw -> CodecConfiguration? in
            guard NALUnits.looksLikeAnnexB(raw) else { return nil }
            var sets = ParameterSetCollector(codec: codec)
            NALUnits.forEachAnnexB(raw) { sets.add(Array(raw[$0])) }
            return sets.configuration
        }
    }
}
