#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// Writes an MP4 (ISO base media) file from encoded samples of one or more tracks.
///
/// Samples queue per track; writing starts once every track has its first sample; the queues
/// are then written interleaved by decode time in chunks of at most `chunkDuration`. Media data
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

    final class Track {
        var description: MP4TrackDescription
        var configuration: CodecConfiguration?
        var queue: [MP4Sample] = []
        var head = 0
        var table = SampleTable()
        var received = 0
        var lastQueuedDTS: Int64?
        var ended = false
        // fragmented mode
        var firstDTS: Int64?
        var lastDelta: Int64 = 0
        var firstFragmentMinPTS: Int64?

        init(_ d: MP4TrackDescription, _ c: CodecConfiguration?) {
            description = d
            configuration = c
        }
        var hasQueued: Bool { head < queue.count }
        var headSample: MP4Sample { queue[head] }
        func popHead() -> MP4Sample {
            let s = queue[head]
            queue[head].data = [] // written samples keep no bytes alive until compaction
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 256 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return s
        }
        func time(_ ticks: Int64) -> MediaTime { MediaTime(value: ticks, timescale: description.timescale) }
    }

    var tracks: [Track] = []
    private var started = false
    private var queuedBytes = 0
    /// Above this many queued bytes, writing goes ahead even while a track waits for samples.
    private let queueLimit = 64 << 20

    private let tempPath: String
    private let mediaTempPath: String
    /// Normal mode: the media data (the whole temp file, or the temp mdat file in fast start).
    /// Fragmented mode: the output file itself.
    private var file: OutputFile?
    private var mdatHeaderOffset: UInt64 = 0
    private var mediaBase: UInt64 = 0
    private var mediaBytes: UInt64 = 0
    private var chunkTrack: Int?
    private var chunkStartDTS: Int64 = 0
    private var scratch: [UInt8] = []
    // fragmented mode
    private var leadTrack = 0
    /// Decode time (lead track ticks) where the current fragment began.
    private var fragmentStart: Int64?
    private var fragmentCuts: [MediaTime] = []
    private var fragmentSequence: UInt32 = 0
    private var moovWritten = false
    private var fragmentData: [UInt8] = []

    /// Opens the output (a hidden temporary beside `path` in normal mode): an unwritable
    /// directory fails here.
    public init(path: String, options: MP4MuxerOptions = MP4MuxerOptions()) throws {
        guard [0, 90, 180, 270].contains(options.rotation) else {
            throw MP4MuxerError.invalidOption("rotation \(options.rotation) is not one of 0, 90, 180, 270")
        }
        guard options.fragmentDuration > 0, options.chunkDuration > 0 else {
            throw MP4MuxerError.invalidOption("fragment and chunk durations must be positive")
        }
        if let ts = options.movieTimescale, ts <= 0 || ts > Int64(UInt32.max) {
            throw MP4MuxerError.invalidOption("movie timescale \(ts) is not in 1…\(UInt32.max)")
        }
        self.path = path
        self.options = options
        // Temporary files go beside the output (same file system, so rename is atomic).
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = String(path[nameStart...])
        guard !name.isEmpty else { throw MP4MuxerError.invalidOption("output path \(path) names a directory, not a file") }
        let prefix = String(path[..<nameStart]) + "." + name + ".\(getpid())"
        tempPath = prefix + ".tmp"
        mediaTempPath = prefix + ".mdat"
        do {
            if options.fragmented {
                file = try OutputFile(path: path)
            } else if options.fastStart {
                file = try OutputFile(path: mediaTempPath)
            } else {
                file = try OutputFile(path: tempPath)
            }
        } catch let e as MP4IOError {
            throw MP4MuxerError.io(e)
        }
    }

    deinit {
        if state == .idle || state == .running { cancel() }
    }

    /// Adds a video track. `timescale` is the unit of the samples' times (e.g. 90000, or a
    /// multiple of the frame rate).
    public func addVideoTrack(codec: Codec, width: Int, height: Int, timescale: Int64,
                              configuration: CodecConfiguration? = nil) throws -> MP4TrackID {
        guard codec.isVideo else { throw MP4MuxerError.invalidOption("\(codec) is not a video codec") }
        guard width > 0, height > 0, width <= 0xFFFF, height <= 0xFFFF else {
            throw MP4MuxerError.invalidOption("video size \(width)x\(height) is out of range")
        }
        var d = MP4TrackDescription(id: tracks.count + 1, codec: codec, timescale: timescale)
        d.width = width
        d.height = height
        return try add(d, configuration)
    }

    /// Adds an audio track; the timescale defaults to the sample rate.
    public func addAudioTrack(codec: Codec, sampleRate: Int, channels: Int, timescale: Int64? = nil,
                              configuration: CodecConfiguration? = nil) throws -> MP4TrackID {
        guard !codec.isVideo else { throw MP4MuxerError.invalidOption("\(codec) is not an audio codec") }
        guard sampleRate > 0, channels > 0 else {
            throw MP4MuxerError.invalidOption("audio \(sampleRate) Hz \(channels) channels is out of range")
        }
        var d = MP4TrackDescription(id: tracks.count + 1, codec: codec, timescale: timescale ?? Int64(sampleRate))
        d.sampleRate = sampleRate
        d.channels = channels
        return try add(d, configuration)
    }

    private func add(_ d: MP4TrackDescription, _ c: CodecConfiguration?) throws -> MP4TrackID {
        guard state == .idle, !started else { throw MP4MuxerError.invalidState(operation: "add a track", state: state) }
        guard d.timescale > 0, d.timescale <= Int64(UInt32.max) else {
            throw MP4MuxerError.invalidOption("\(d.name): timescale \(d.timescale) is not in 1…\(UInt32.max)")
        }
        if let c { try check(c, for: d) }
        tracks.append(Track(d, c))
        leadTrack = tracks.firstIndex { $0.description.isVideo } ?? 0
        return MP4TrackID(index: tracks.count - 1)
    }

    /// Queues a sample; writes whatever interleaving allows.
    public func append(_ sample: MP4Sample, to id: MP4TrackID) throws {
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
        // About 194 days in any timescale: far beyond real media, and no arithmetic overflow.
        let limit = t.description.timescale << 24
        if sample.duration < 0 || sample.duration > min(limit, Int64(UInt32.max)) {
            throw fail(.invalidSample(track: t.description.name, sample: t.received,
                                      reason: "duration \(sample.duration) is not in 0…\(min(limit, Int64(UInt32.max)))"))
        }
        if abs(sample.pts) > limit || abs(sample.dts) > limit {
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
                noteFragmentBoundary(sample, track: id.index)
                try writeReadyFragments(final: false)
            } else {
                try drain(final: false)
            }
        } catch let e as MP4MuxerError {
            throw fail(e)
        } catch let e as MP4IOError {
            throw fail(.io(e))
        }
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
                try file?.closeFile()
                file = nil
            } else {
                try drain(final: true)
                try finalizeNormal()
            }
        } catch let e as MP4MuxerError {
            throw fail(e)
        } catch let e as MP4IOError {
            throw fail(.io(e))
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

    private func fail(_ e: MP4MuxerError) -> MP4MuxerError {
        if state == .idle || state == .running {
            state = .failed
            cleanUp(removeOutput: false)
        }
        return e
    }

    private func cleanUp(removeOutput: Bool) {
        try? file?.closeFile()
        file = nil
        removeFile(tempPath)
        removeFile(mediaTempPath)
        if options.fragmented && removeOutput { removeFile(path) }
        for t in tracks { t.queue.removeAll() }
    }

    private func check(_ c: CodecConfiguration, for d: MP4TrackDescription) throws {
        let ok: Bool
        switch c {
        case .h264(let h): ok = d.codec == .h264 && !h.sps.isEmpty && !h.pps.isEmpty && h.sps[0].count >= 4
        case .hevc(let h): ok = d.codec == .hevc && !h.sps.isEmpty && !h.pps.isEmpty
        case .vpx(let v): ok = v.codec == d.codec
        case .aac(let a): ok = d.codec == .aac && a.audioSpecificConfig.count >= 2
        }
        if !ok {
            throw MP4MuxerError.configurationMismatch(track: d.name, expected: "a complete \(d.codec.rawValue) configuration",
                                                      found: Self.describe(c))
        }
    }

    private static func describe(_ c: CodecConfiguration) -> String {
        switch c {
        case .h264(let h): return "h264 with \(h.sps.count) SPS, \(h.pps.count) PPS"
        case .hevc(let h): return "hevc with \(h.vps.count) VPS, \(h.sps.count) SPS, \(h.pps.count) PPS"
        case .vpx(let v): return "\(v.codec.rawValue)"
        case .aac(let a): return "aac with a \(a.audioSpecificConfig.count)-byte AudioSpecificConfig"
        }
    }

    /// Parameter sets carried inside an Annex B sample, for producers that do not pass them.
    private func inBandConfiguration(_ data: [UInt8], codec: Codec) -> CodecConfiguration? {
        guard codec == .h264 || codec == .hevc else { return nil }
        return data.withUnsafeBytes { raw -> CodecConfiguration? in
            guard NALUnits.looksLikeAnnexB(raw) else { return nil }
            var sets = ParameterSetCollector(codec: codec)
            NALUnits.forEachAnnexB(raw) { sets.add(Array(raw[$0])) }
            return sets.configuration
        }
    }

    // MARK: - normal mode

    private func within(_ t: Track, _ chunkStart: Int64, _ dts: Int64) -> Bool {
        Double(dts - chunkStart) < options.chunkDuration * Double(t.description.timescale)
    }

    private func drain(final: Bool) throws {
        guard started || final || queuedBytes > queueLimit else { return }
        if mediaBytes == 0 && mediaBase == 0 && !options.fastStart { try writeHeader() }
        while true {
            if let c = chunkTrack, tracks[c].hasQueued, within(tracks[c], chunkStartDTS, tracks[c].headSample.dts) {
                try writeSample(c, newChunk: false)
                continue
            }
            let waiting = tracks.contains { !$0.ended && !$0.hasQueued }
            if waiting && !final && queuedBytes <= queueLimit { return }
            var pick: Int?
            for (i, t) in tracks.enumerated() where t.hasQueued {
                if let p = pick, !(t.time(t.headSample.dts) < tracks[p].time(tracks[p].headSample.dts)) { continue }
                pick = i
            }
            guard let p = pick else { return }
            try writeSample(p, newChunk: true)
        }
    }

    /// ftyp, then 16 bytes for the mdat header (patched at the end), in the normal layout.
    private func writeHeader() throws {
        guard let file else { return }
        let ftyp = MovieBox.ftyp(codecs: tracks.map(\.description.codec), fragmented: false)
        try file.write(ftyp)
        mdatHeaderOffset = file.position
        try file.write([UInt8](repeating: 0, count: 16))
        mediaBase = file.position
    }

    private func writeSample(_ i: Int, newChunk: Bool) throws {
        guard let file else { return }
        let t = tracks[i]
        let s = t.popHead()
        queuedBytes -= s.data.count
        if newChunk || chunkTrack != i {
            t.table.startChunk(at: mediaBytes)
            chunkTrack = i
            chunkStartDTS = s.dts
        }
        let size = try writePayload(s, t, to: file, sampleNumber: t.table.count)
        t.table.add(size: size, pts: s.pts, dts: s.dts, duration: s.duration, isSync: s.isSync || !t.description.isVideo)
        mediaBytes += UInt64(size)
    }

    /// Writes a sample's bytes in MP4 form (NAL units length-prefixed, parameter sets dropped).
    private func writePayload(_ s: MP4Sample, _ t: Track, to file: OutputFile, sampleNumber: Int) throws -> Int {
        let codec = t.description.codec
        if codec == .h264 || codec == .hevc {
            let converted = s.data.withUnsafeBytes { raw -> Bool in
                guard NALUnits.looksLikeAnnexB(raw) else { return false }
                scratch.removeAll(keepingCapacity: true)
                NALUnits.forEachAnnexB(raw) { r in
                    if NALUnits.isOutOfBand(raw[r.lowerBound], codec: codec) { return }
                    let n = UInt32(r.count)
                    scratch.append(UInt8(n >> 24)); scratch.append(UInt8((n >> 16) & 0xFF))
                    scratch.append(UInt8((n >> 8) & 0xFF)); scratch.append(UInt8(n & 0xFF))
                    scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[r]))
                }
                return true
            }
            if converted {
                if scratch.isEmpty {
                    throw MP4MuxerError.invalidSample(track: t.description.name, sample: sampleNumber,
                                                      reason: "holds only parameter sets or delimiters, no picture")
                }
                try file.write(scratch)
                return scratch.count
            }
        }
        try file.write(s.data)
        return s.data.count
    }

    private func movieTimescale() -> Int64 {
        if let ts = options.movieTimescale { return ts }
        var l: Int64 = 1
        for t in tracks {
            let n = Rational.lcm(l, t.description.timescale)
            if n > Int64(Int32.max) { return tracks.map(\.description.timescale).max() ?? 1000 }
            l = n
        }
        return l
    }

    private func summaries(movieTimescale mts: Int64, fragmented: Bool) -> [TrackSummary] {
        let starts = tracks.map { t -> MediaTime in
            let minPTS = fragmented ? (t.firstFragmentMinPTS ?? 0) : t.table.minPTS
            return t.time(minPTS)
        }
        let movieStart = starts.min() ?? .zero
        return tracks.enumerated().map { i, t in
            let table = t.table
            let emptyEdit = starts[i].converted(to: mts).value - movieStart.converted(to: mts).value
            let firstDTS = fragmented ? (t.firstDTS ?? 0) : table.firstDTS
            let minPTS = fragmented ? (t.firstFragmentMinPTS ?? firstDTS) : table.minPTS
            let segment = fragmented ? 0 : t.time(table.maxEnd - table.minPTS).converted(to: mts).value
            let seconds = t.time(table.mediaDuration).seconds
            let bitrate = seconds > 0 ? Int(Double(table.totalBytes) * 8 / seconds) : 0
            return TrackSummary(description: t.description, configuration: t.configuration!,
                                table: table, emptyEdit: max(0, emptyEdit), mediaTime: minPTS - firstDTS,
                                segmentDuration: segment, averageBitrate: bitrate)
        }
    }

    private func finalizeNormal() throws {
        guard let media = file else { return }
        for t in tracks { t.table.close() }
        let mts = movieTimescale()
        let trackSummaries = summaries(movieTimescale: mts, fragmented: false)
        let ftyp = MovieBox.ftyp(codecs: tracks.map(\.description.codec), fragmented: false)
        let maxOffset = tracks.map(\.table.maxChunkOffset).max() ?? 0
        func moov(_ base: UInt64, _ co64: Bool) -> [UInt8] {
            MovieBox.moov(tracks: trackSummaries, movieTimescale: mts, chunkBase: base, co64: co64,
                          rotation: options.rotation, fragmented: false)
        }
        let mdatHeader = Self.mdatHeader(dataSize: mediaBytes)
        if options.fastStart {
            try media.closeFile()
            file = nil
            var co64 = options.forceCo64
            var base = UInt64(ftyp.count + moov(0, co64).count + 16)
            if !co64 && maxOffset + base > UInt64(UInt32.max) {
                co64 = true
                base = UInt64(ftyp.count + moov(0, co64).count + 16)
            }
            let out = try OutputFile(path: tempPath)
            file = out
            try out.write(ftyp)
            try out.write(moov(base, co64))
            try out.write(mdatHeader)
            try out.append(contentsOf: mediaTempPath)
            try out.closeFile()
            removeFile(mediaTempPath)
        } else {
            let co64 = options.forceCo64 || maxOffset + mediaBase > UInt64(UInt32.max)
            try media.write(moov(mediaBase, co64))
            try media.patch(mdatHeader, at: mdatHeaderOffset)
            try media.closeFile()
        }
        file = nil
        if rename(tempPath, path) != 0 {
            let e = MP4IOError(operation: "rename \(tempPath) to", path: path, offset: nil, code: errno)
            throw MP4MuxerError.io(e)
        }
    }

    /// 16 bytes: `free` + 32-bit `mdat` when the size fits, else a 64-bit `mdat` header.
    static func mdatHeader(dataSize: UInt64) -> [UInt8] {
        var w = ByteWriter()
        if dataSize + 8 <= UInt64(UInt32.max) {
            w.u32(8); w.fourCC("free")
            w.u32(UInt32(dataSize + 8)); w.fourCC("mdat")
        } else {
            w.u32(1); w.fourCC("mdat"); w.u64(dataSize + 16)
        }
        return w.bytes
    }

    // MARK: - fragmented mode

    private func noteFragmentBoundary(_ s: MP4Sample, track i: Int) {
        guard i == leadTrack else { return }
        let t = tracks[i]
        guard let start = fragmentStart else { fragmentStart = s.dts; return }
        let minimum = Int64((options.fragmentDuration * Double(t.description.timescale)).rounded())
        if (s.isSync || !t.description.isVideo) && s.dts - start >= minimum {
            fragmentCuts.append(t.time(s.dts))
            fragmentStart = s.dts
        }
    }

    private func writeReadyFragments(final: Bool) throws {
        guard started else { return }
        while let cut = fragmentCuts.first {
            let ready = tracks.allSatisfy { t in
                t.ended || (t.lastQueuedDTS.map { !(t.time($0) < cut) } ?? false)
            }
            // A track that stops delivering (or a lead track without key frames) must not grow
            // memory without bound: past the limit, cut anyway.
            if !ready && queuedBytes <= queueLimit { break }
            fragmentCuts.removeFirst()
            try writeFragment(before: cut)
        }
        if queuedBytes > queueLimit && fragmentCuts.isEmpty {
            try writeFragment(before: nil)
        }
        if final {
            fragmentCuts.removeAll()
            if tracks.contains(where: { $0.hasQueued }) { try writeFragment(before: nil) }
        }
    }

    private struct FragmentRun {
        var track: Int
        var baseDecodeTime: Int64
        var durations: [UInt32] = []
        var sizes: [UInt32] = []
        var flags: [UInt32] = []
        var offsets: [Int32] = []
        var dataStart = 0
    }

    private func writeFragment(before cut: MediaTime?) throws {
        guard let file else { return }
        var runs: [FragmentRun] = []
        fragmentData.removeAll(keepingCapacity: true)
        for (i, t) in tracks.enumerated() where t.hasQueued {
            if let cut, !(t.time(t.headSample.dts) < cut) { continue }
            if t.firstDTS == nil { t.firstDTS = t.headSample.dts }
            var run = FragmentRun(track: i, baseDecodeTime: t.headSample.dts - t.firstDTS!)
            run.dataStart = fragmentData.count
            var minPTS = Int64.max
            while t.hasQueued {
                let s = t.headSample
                if let cut, !(t.time(s.dts) < cut) { break }
                _ = t.popHead()
                queuedBytes -= s.data.count
                let duration: Int64
                if t.hasQueued {
                    duration = t.headSample.dts - s.dts
                } else {
                    duration = s.duration > 0 ? s.duration : max(t.lastDelta, 1)
                }
                t.lastDelta = duration
                let size = try writePayload(s, t, toFragment: &fragmentData, sampleNumber: t.received)
                run.durations.append(UInt32(clamping: duration))
                run.sizes.append(UInt32(size))
                let sync = s.isSync || !t.description.isVideo
                run.flags.append(sync ? 0x0200_0000 : 0x0101_0000)
                run.offsets.append(Int32(clamping: s.pts - s.dts))
                minPTS = min(minPTS, s.pts)
            }
            if t.firstFragmentMinPTS == nil { t.firstFragmentMinPTS = minPTS }
            if !run.sizes.isEmpty { runs.append(run) }
        }
        if runs.isEmpty { return }
        if !moovWritten {
            let mts = movieTimescale()
            try file.write(MovieBox.ftyp(codecs: tracks.map(\.description.codec), fragmented: true))
            try file.write(MovieBox.moov(tracks: summaries(movieTimescale: mts, fragmented: true), movieTimescale: mts,
                                         chunkBase: 0, co64: options.forceCo64, rotation: options.rotation, fragmented: true))
            moovWritten = true
        }
        var w = ByteWriter(capacity: 1024 + runs.reduce(0) { $0 + $1.sizes.count * 16 })
        var offsetFields: [(Int, Int)] = []
        w.box("moof") { w in
            w.fullBox("mfhd", version: 0, flags: 0) { $0.u32(fragmentSequence + 1) }
            for run in runs {
                w.box("traf") { w in
                    w.fullBox("tfhd", version: 0, flags: 0x02_0000) { $0.u32(UInt32(tracks[run.track].description.id)) }
                    w.fullBox("tfdt", version: 1, flags: 0) { $0.u64(UInt64(max(0, run.baseDecodeTime))) }
                    let hasOffsets = run.offsets.contains { $0 != 0 }
                    let negative = run.offsets.contains { $0 < 0 }
                    let flags: UInt32 = 0x001 | 0x100 | 0x200 | 0x400 | (hasOffsets ? 0x800 : 0)
                    w.fullBox("trun", version: negative ? 1 : 0, flags: flags) { w in
                        w.u32(UInt32(run.sizes.count))
                        offsetFields.append((w.count, run.dataStart))
                        w.u32(0) // data_offset, patched below
                        for k in 0..<run.sizes.count {
                            w.u32(run.durations[k])
                            w.u32(run.sizes[k])
                            w.u32(run.flags[k])
                            if hasOffsets { w.i32(run.offsets[k]) }
                        }
                    }
                }
            }
        }
        let moofSize = w.count
        for (field, start) in offsetFields { w.patchU32(at: field, UInt32(moofSize + 8 + start)) }
        w.u32(UInt32(fragmentData.count + 8))
        w.fourCC("mdat")
        try file.write(w.bytes)
        try file.write(fragmentData)
        try file.flush()
        fragmentSequence += 1
    }

    private func writePayload(_ s: MP4Sample, _ t: Track, toFragment out: inout [UInt8], sampleNumber: Int) throws -> Int {
        let codec = t.description.codec
        let before = out.count
        if codec == .h264 || codec == .hevc {
            let converted = s.data.withUnsafeBytes { raw -> Bool in
                guard NALUnits.looksLikeAnnexB(raw) else { return false }
                NALUnits.forEachAnnexB(raw) { r in
                    if NALUnits.isOutOfBand(raw[r.lowerBound], codec: codec) { return }
                    let n = UInt32(r.count)
                    out.append(UInt8(n >> 24)); out.append(UInt8((n >> 16) & 0xFF))
                    out.append(UInt8((n >> 8) & 0xFF)); out.append(UInt8(n & 0xFF))
                    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[r]))
                }
                return true
            }
            if converted {
                if out.count == before {
                    throw MP4MuxerError.invalidSample(track: t.description.name, sample: sampleNumber,
                                                      reason: "holds only parameter sets or delimiters, no picture")
                }
                return out.count - before
            }
        }
        out.append(contentsOf: s.data)
        return s.data.count
    }
}
