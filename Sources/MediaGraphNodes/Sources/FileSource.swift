import Foundation
import MediaGraphCodecs
import MediaGraphCore
import MediaGraphMP4

/// `filesrc`: a media file read with libavformat, one output port per video and audio stream
/// (`FileStreamPorts`). Ports carry the container's packets untouched; the graph inserts a
/// decoder where a port meets a node that takes raw media, so `in.audio → mux.audio` is a copy.
///
/// Timing (Docs/inputs.md): timestamps are rebased so that zero is the file's start time, or
/// `start` after it; with `start` the source seeks to the key frame at or before it and the
/// lead-in comes out before zero (decoders drop it, muxers hide it with an edit list). With
/// `end`/`duration` a stream stops after the last packet (in decode order) whose pts is before
/// the end, and the packet whose presentation reaches the end carries `.endOfPresentation` with
/// its duration cut there, so decoders present nothing beyond it. The discard padding a container
/// marks at the end of the last audio packet is `SampleBuffer.discardPadding` (with
/// `.endOfPresentation`); the packet keeps its duration, as in ffmpeg's stream copy.
public final class FileSource: SourceNode, RegisteredNode, DynamicOutputs {
    public static let typeInfo = NodeTypeInfo(
        name: "filesrc",
        doc: "Reads a media file with libavformat (MP4/MOV, Matroska/WebM, MPEG-TS, AVI, FLV, Ogg, MP3, WAV, ADTS, Annex B, IVF, Y4M, .srt/.vtt/.ass, …): one port per video, audio and text subtitle stream (video, video1, …, audio, audio1, …, subtitle, subtitle1, …; also streamN, audio_eng and subtitle_eng). Connected to a muxer a stream is copied; connected to a node that takes raw media it is decoded. start/end/duration trim (Docs/inputs.md).",
        category: .source,
        outputs: [PortSpec("video", .encodedVideo(Codec.known.filter { $0.kind == .video }),
                           doc: "a video stream, in its own codec (any libavcodec knows)", repeatable: true),
                  PortSpec("audio", .encodedAudio(Codec.known.filter { $0.kind == .audio }),
                           doc: "an audio stream, in its own codec (any libavcodec knows)", repeatable: true),
                  PortSpec("subtitle", .subtitle(SubtitleFormat.textCodecs),
                           doc: "a text subtitle stream (SubRip, ASS/SSA, WebVTT, mov_text): one cue per packet, its end at pts + duration", repeatable: true)],
        params: ParamSpec.list(pathParam, startParam, endParam, durationParam, segmentStartParam, segmentEndParam, errorsParam, probeSizeParam, probeDurationParam))
    static let pathParam = Param<String>.requiredPath("path", role: .input, doc: "the media file")
    static let startParam = Param<TimeValue?>.time(
        "start", doc: "time zero: seek to the key frame at or before it; what comes before is lead-in (dropped by decoders, hidden by muxers)")
    static let endParam = Param<TimeValue?>.time("end", doc: "where presentation ends (a time on the file's clock, like start)")
    static let durationParam = Param<TimeValue?>.time("duration", doc: "how long after start presentation ends (instead of end)")
    static let segmentStartParam = Param<TimeValue?>.time(
        "segment-start", doc: "a segment of a longer run (mediagraph run-segment sets it): the video is shown from this time after zero on; pictures before it are decoded only as references, and time zero stays at 'start', so the segment keeps the whole run's timestamps")
    static let segmentEndParam = Param<TimeValue?>.time(
        "segment-end", doc: "where the segment's video ends (a time after zero); the next segment starts there")
    static let errorsParam = Param<String>("errors", oneOf: ["stop", "skip"], default: "stop",
                                           doc: "damaged data: stop the run with an error naming the stream and time, or skip it and warn with a count (copied into inserted decoders)")
    static let probeSizeParam = Param<Int>("probe-size", 4096...2_000_000_000, default: 5_000_000,
                                           doc: "bytes read at most to find the streams' parameters before the first packet")
    static let probeDurationParam = Param<Double>("probe-duration", 0...3600, default: 5, doc: "seconds of media read at most for the same")

    let id: String
    let path: String
    let demuxer: Demuxer
    let ports: FileStreamPorts
    let streams: [FileStreamState]
    let skipErrors: Bool
    let trim: FileTrim
    let stop: StopFlag
    /// Packets read while describing the streams (in-band configurations), delivered first.
    var lookahead: [DemuxedPacket]
    var lookaheadNext = 0
    var started = false
    /// Set when reading ended at the file's end or every stream's trim end (not when the run
    /// stopped first): only then does a stream that sent nothing deserve a warning.
    var readToEnd = false
    var consecutiveReadErrors = 0
    var readErrorsSkipped = 0
    /// Where the format lets timestamps jump (MPEG-TS…), the correction that keeps them going on.
    let jumps: TimestampJumps?
    public private(set) var validationWarnings: [String] = []

    public init(setup: NodeSetup) throws {
        let p = setup.params
        id = setup.id
        path = p[Self.pathParam]
        stop = setup.stop
        skipErrors = p[Self.errorsParam] == "skip"
        let options = DemuxerOptions(probeSize: Int64(p[Self.probeSizeParam]),
                                     analyzeDuration: Int64(p[Self.probeDurationParam] * 1e6))
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: path, options: options, stop: setup.stop)
        } catch let e as DemuxError {
            throw NodeFailure(e.message)
        }
        jumps = demuxer.container.allowsDiscontinuities ? TimestampJumps() : nil
        let ports = FileStreamPorts(path: path, streams: demuxer.streams)
        let firstVideo = ports.ports.first { demuxer.streams[$0.streamIndex].kind == .video }.map { demuxer.streams[$0.streamIndex] }
        let trim = try FileTrim.make(p, demuxer: demuxer, firstVideo: firstVideo)

        // in-band configurations: the first packet of each stream that needs one
        let needing = Set(ports.ports.map(\.streamIndex).filter { FileStreamDescription.needsFirstPacket(demuxer.streams[$0]) })
        var firstPackets: [Int: [UInt8]] = [:]
        var lookahead: [DemuxedPacket] = []
        if !needing.isEmpty {
            var bytes = 0
            while firstPackets.count < needing.count, lookahead.count < 5000, bytes < 64 << 20,
                  let packet = try? demuxer.read() {
                lookahead.append(packet)
                bytes += packet.bytes.count
                if needing.contains(packet.streamIndex) && firstPackets[packet.streamIndex] == nil {
                    firstPackets[packet.streamIndex] = packet.bytes.array
                }
            }
        }
        // Raw H.264/HEVC has no timestamps: presentation order comes from the picture order count
        let rawFormat = ["h264", "hevc"].contains(demuxer.container.formatName)
        if rawFormat && (trim.hasStart || trim.lengthMicros != nil || trim.isSegment) {
            throw NodeFailure("params 'start', 'end', 'duration': '\(path)' is a raw \(demuxer.container.formatName) stream without timestamps to trim by; put it in a container first (or cut it after encoding)")
        }
        let zero = (demuxer.container.startTime ?? 0) + trim.startMicros
        let micros = Rational(1, 1_000_000)
        var states: [FileStreamState] = []
        var warnings: [String] = []
        let chapters = trim.chapters(demuxer.container.chapters, zeroMicros: zero)
        for (k, port) in ports.ports.enumerated() {
            let info = demuxer.streams[port.streamIndex]
            // audio on a coarse clock is put on its sample clock, as ffmpeg's stream copy does
            let sampleClock = info.sampleRate > 0 ? Rational(1, Int64(info.sampleRate)) : info.timeBase
            var timeBase = info.kind == .audio ? sampleClock : info.timeBase
            var timer: AccessUnitTimer?
            if rawFormat && (info.codec == .h264 || info.codec == .hevc) {
                // the MP4 muxer's choice for the rate (25 fps → 1/12800), so copies need no rescaling
                let ts = MP4Muxer.timescale(for: info.frameRate.inverse ?? Rational(1, 25))
                timeBase = Rational(1, ts)
                timer = info.codec == .h264 ? H264AccessUnitTimer(frameRate: info.frameRate, timescale: ts, path: path)
                                            : HEVCAccessUnitTimer(frameRate: info.frameRate, timescale: ts, path: path)
            }
            let offset = Demuxer.rescale(zero, from: micros, to: info.timeBase)
            var end = trim.lengthMicros.map {
                Demuxer.rescale(zero + $0, from: micros, to: timeBase) - Demuxer.rescale(zero, from: micros, to: timeBase)
            }
            if let e = trim.segmentEndMicros, info.kind == .video {
                end = min(end ?? .max, FileTrim.ticks(e, in: timeBase))
            }
            let d = FileStreamDescription(info: info, timeBase: timeBase, firstPacket: firstPackets[port.streamIndex],
                                          movieTags: demuxer.container.tags, chapters: chapters)
            if let w = d.warning { warnings.append(w) }
            let state = FileStreamState(port: k, name: port.name, description: d, offset: offset, end: end)
            state.timer = timer
            if info.kind == .video { state.segmentStart = trim.segmentStartMicros.map { FileTrim.ticks($0, in: timeBase) } }
            states.append(state)
        }
        self.demuxer = demuxer
        self.ports = ports
        self.trim = trim
        self.lookahead = lookahead
        self.streams = states
        self.validationWarnings = warnings
    }

    // MARK: - DynamicOutputs

    public var outputNames: [String] { ports.ports.map(\.name) }

    public func outputIndex(named reference: String) throws -> Int { try ports.portIndex(named: reference) }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { streams.map(\.description.format) }

    /// Packets the file declares for its streams, when it declares all (progress and ETA).
    public var expectedCount: Int? { expectedCount(onPorts: Array(streams.indices)) }

    /// Packets the file declares for the streams of these ports (port k is stream state k).
    public func expectedCount(onPorts ports: [Int]) -> Int? {
        guard !trim.hasStart, trim.lengthMicros == nil, !trim.isSegment else { return nil }
        let counts = ports.filter(streams.indices.contains).map { streams[$0].description.info.frameCount }
        return counts.isEmpty || counts.contains(0) ? nil : Int(counts.reduce(0, +))
    }

    // MARK: - reading

    public func produce(output: NodeOutput) throws -> Bool {
        if !started { try begin(output) }
        if stop.isSet || !streams.contains(where: { $0.isActive }) {
            readToEnd = !stop.isSet
            return finishReading()
        }
        let packet: DemuxedPacket?
        if lookaheadNext < lookahead.count {
            packet = lookahead[lookaheadNext]
            lookaheadNext += 1
            if lookaheadNext == lookahead.count { lookahead = []; lookaheadNext = 0 }
        } else {
            do {
                packet = try demuxer.read()
                consecutiveReadErrors = 0
            } catch let e as DemuxError {
                try readFailed(e.message)
                return true
            }
        }
        guard var p = packet else {
            try checkEnding()
            for s in streams where s.isActive {
                s.timer?.finish()
                try sendTimed(s, output: output)
            }
            readToEnd = true
            return finishReading()
        }
        guard let k = streams.firstIndex(where: { $0.description.info.index == p.streamIndex }), streams[k].isActive else { return true }
        p = try countBackLeadingDTS(p, on: streams[k])
        try deliver(p, on: streams[k], output: output)
        return true
    }

    /// Reads only the connected streams and seeks to the trim start.
    func begin(_ output: NodeOutput) throws {
        started = true
        var selected = Set<Int>()
        for s in streams {
            s.isActive = output.isConnected(s.port)
            s.connected = s.isActive
            s.copyStart = FileCopyStart(kind: s.description.info.kind, copied: output.isCopied(s.port), decoded: output.isDecoded(s.port))
            if s.isActive { selected.insert(s.description.info.index) }
        }
        demuxer.select(selected)
        lookahead.removeAll { !selected.contains($0.streamIndex) }
        if trim.isSegment, let audio = streams.first(where: { $0.isActive && $0.description.info.kind != .video }) {
            throw NodeFailure("params 'segment-start', 'segment-end' split video only, but port '\(audio.name)' is connected: read the audio from a filesrc without them (mediagraph plan runs the audio whole, as a task of its own)")
        }
        startAtTheStreamsRead()
        guard trim.seekMicros > 0, !selected.isEmpty else { return }
        lookahead.removeAll()
        var target = (demuxer.container.startTime ?? 0) + trim.seekMicros
        // Formats that seek by decode time land after the wanted key frame when B-frames delay
        // presentation: seek a little earlier, as ffmpeg does (3/23 s).
        if !demuxer.container.seeksByPresentationTime && demuxer.streams.contains(where: { $0.videoDelay > 0 }) {
            target -= 3 * 1_000_000 / 23
        }
        // the first video stream read begins at a key frame at or before the start, also in
        // formats without an index (Demuxer+KeyFrameSeek)
        let start = (demuxer.container.startTime ?? 0) + trim.seekMicros
        let video = streams.first { $0.isActive && $0.description.info.kind == .video }?.description.info
        do {
            if let video {
                lookahead = try demuxer.seek(toMicroseconds: target, keyFrameAtOrBefore: start, video: video, read: readSkipping)
            } else {
                try demuxer.seek(toMicroseconds: target)
            }
        } catch let e as DemuxError { throw NodeFailure(e.message) }
    }

    /// In a file whose timestamps may jump (MPEG-TS …) and without a trim, zero is the earliest
    /// start of the streams read when that is after the file's start, as ffmpeg's "Correcting
    /// start time" does: a TS's video read alone starts at zero even where its audio starts earlier.
    /// A `start` given (even 0) keeps zero where it says.
    func startAtTheStreamsRead() {
        guard demuxer.container.allowsDiscontinuities, !trim.startGiven, trim.lengthMicros == nil,
              let fileStart = demuxer.container.startTime else { return }
        let micros = Rational(1, 1_000_000)
        let starts = streams.filter(\.isActive).compactMap { s in
            s.description.info.startTime.map { Demuxer.rescale($0, from: s.description.info.timeBase, to: micros) }
        }
        guard let start = starts.min(), start > fileStart else { return }
        for s in streams where s.isActive {
            s.offset = Demuxer.rescale(start, from: micros, to: s.description.info.timeBase)
        }
    }

    /// One packet: timestamps rebased and completed, the end rule applied, then sent.
    func deliver(_ p: DemuxedPacket, on s: FileStreamState, output: NodeOutput) throws {
        let info = s.description.info
        if let timer = s.timer {
            do {
                try timer.push(AnnexBAccessUnit(bytes: p.bytes.array, offset: p.position))
            } catch {
                if !skipErrors { throw NodeFailure("'\(path)': stream '\(s.name)' (stream \(info.index), \(info.codec)) after \(s.reachedClock): \(error)") }
                s.skipped += 1
            }
            return try sendTimed(s, output: output)
        }
        let inTB = info.timeBase, outTB = s.description.timeBase
        // Timestamps beyond ±2^60 ticks are broken: refusing them keeps every sum below from
        // overflowing (and no real file comes near: 2^60 ticks of 1/90000 s are 400,000 years).
        let limit = Int64(1) << 60
        func outOfRange(_ values: [Int64]) -> Bool {
            values.contains { $0 != DemuxedPacket.noTime && ($0 == Int64.min || Swift.abs($0) > limit) }
        }
        func refuse() throws {
            if !skipErrors {
                throw NodeFailure("'\(path)': stream '\(s.name)' (stream \(info.index), \(info.codec)) after \(s.reachedClock): timestamp pts \(p.pts) dts \(p.dts) duration \(p.duration) is out of range (±2^60 ticks of \(inTB))")
            }
            s.skipped += 1
        }
        if outOfRange([p.pts, p.dts, p.duration]) { return try refuse() }
        let shift = jumps?.shift(in: inTB) ?? 0
        var pts = p.pts == DemuxedPacket.noTime ? p.pts : p.pts - s.offset + shift
        var dts = p.dts == DemuxedPacket.noTime ? p.dts : p.dts - s.offset + shift
        var duration = p.duration
        if dts == DemuxedPacket.noTime {
            // predicted as ffmpeg does: one duration after the previous packet, or for the first
            // packet its pts less the frames the decoder holds back for reordering
            if let last = s.lastInputDTS {
                dts = last + s.lastInputDuration
            } else {
                dts = pts == DemuxedPacket.noTime ? 0 : pts - s.initialDelay
            }
        }
        if pts == DemuxedPacket.noTime { pts = dts }
        if duration <= 0 { duration = s.nominalDuration }
        if let jumps {
            let back = jumps.check(dts: dts, duration: duration, timeBase: inTB, stream: s.name, timeline: &s.timeline)
            dts -= back
            pts -= back
        }
        s.lastInputDTS = dts
        s.lastInputDuration = max(0, duration)
        if inTB != outTB {
            // audio onto its sample clock: consecutive packets exactly their samples apart
            let samples = Int64(p.sampleCount > 0 ? p.sampleCount : info.frameSize)
            let t = Demuxer.rescaleDelta(dts, from: inTB, sampleClock: outTB, duration: samples, last: &s.rescaleState, to: outTB)
            pts = t
            dts = t
            // the container's duration when it gives one (as ffmpeg's copy keeps it), else the samples
            duration = p.duration > 0 || samples == 0 ? Demuxer.rescale(max(0, duration), from: inTB, to: outTB) : samples
        }
        duration = min(max(0, duration), limit)
        if outOfRange([pts, dts]) { return try refuse() }
        let isSubtitle = info.kind == .subtitle
        if isSubtitle && p.bytes.count > MediaLimits.maxSubtitlePacketSize {
            if !skipErrors {
                throw NodeFailure("'\(path)': stream '\(s.name)' (stream \(info.index), \(info.codec)) at \(clock(pts, outTB)): a subtitle packet of \(p.bytes.count) bytes is above the limit of \(MediaLimits.maxSubtitlePacketSize); with 'errors' set to 'skip', such cues are left out")
            }
            s.skipped += 1
            return
        }
        if p.bytes.count > MediaLimits.maxAccessUnitSize {
            throw NodeFailure("'\(path)': stream '\(s.name)' (stream \(info.index), \(info.codec)) at \(clock(pts, outTB)): a packet of \(p.bytes.count) bytes is above the limit of \(MediaLimits.maxAccessUnitSize)")
        }
        if p.isCorrupt {
            let at = "stream '\(s.name)' (stream \(info.index), \(info.codec)) at \(clock(pts, outTB))"
            if !skipErrors {
                throw NodeFailure("'\(path)': \(at): the packet is damaged" + logged(demuxer.takeLoggedMessages())
                                  + "; with 'errors' set to 'skip', damaged packets are left out and the run goes on")
            }
            s.skipped += 1
            return
        }
        var flags: BufferFlags = p.isKeyFrame ? .keyFrame : []
        var padding: Int64 = 0
        if p.skipEnd > 0 && info.kind == .audio {
            // padding the container marks at the end of the last packet: the packet keeps its
            // duration (a copy is ffmpeg's copy, whose muxer ignores the padding) and decoders
            // end presentation before the padding (Ogg's demuxer has already shortened it)
            flags.insert(.endOfPresentation)
            if demuxer.container.formatName != "ogg" && duration > Int64(p.skipEnd) { padding = Int64(p.skipEnd) }
        }
        if let end = s.end, pts < end, pts + duration - padding >= end, !isSubtitle {
            // the picture or samples that reach the end: presentation stops within this packet
            duration = end - pts
            padding = 0
            flags.insert(.endOfPresentation)
        }
        jumps?.follow(dts: &dts, pts: &pts, previous: s.lastDTS)
        if let last = s.lastDTS, !isSubtitle {
            // cues are sparse: a gap between them is no discontinuity
            let gap = dts - (last + s.lastDuration)
            if dts < last || gap > s.oneSecond { flags.insert(.discontinuity) }
        }
        // after a seek, what lies wholly before zero may start inside a frame (MPEG-PS/TS audio):
        // decoders drop it quietly if it does not decode
        if trim.hasStart && pts + max(0, duration) <= 0 { flags.insert(.leadIn) }
        if let first = s.segmentStart, pts < first { flags.formUnion([.leadIn, .decodeOnly]) }
        s.lastDTS = dts
        s.lastDuration = max(0, duration)
        s.reached = max(s.reached ?? pts, pts + max(0, duration))
        if s.firstRead == nil { s.firstRead = pts }

        var metadata = BufferMetadata(format: s.description.format, pts: pts, dts: dts, duration: max(0, duration),
                                      timeBase: outTB, flags: flags, codecConfiguration: s.description.configuration,
                                      discardPadding: padding, palette: p.palette)
        metadata.webVTT = p.webVTT
        // the demuxer's buffer itself travels on: a stream copy writes it to the file uncopied
        let buffer = SampleBuffer(packet: s.description.payload(p.bytes), metadata: metadata)

        if let end = s.end {
            if dts >= end && pts >= end {
                // every later packet is at or after the end too: this stream is done
                s.pending.removeAll()
                s.isActive = false
                return
            }
            if pts >= end {
                // needed only if a later packet before the end refers to it
                s.pending.append(buffer)
                return
            }
            for b in s.pending { try emit(b, on: s, output: output) }
            s.pending.removeAll()
        }
        try emit(consume buffer, on: s, output: output)
    }

    /// The access units of a raw stream whose presentation times are known, in decode order.
    func sendTimed(_ s: FileStreamState, output: NodeOutput) throws {
        guard let timer = s.timer else { return }
        while let au = timer.pop() {
            s.reached = max(s.reached ?? au.pts, au.pts + au.duration)
            let b = SampleBuffer(bytes: au.data, format: s.description.format, pts: au.pts, dts: au.dts, duration: au.duration,
                                 timeBase: s.description.timeBase, flags: au.isKeyFrame ? .keyFrame : [],
                                 codecConfiguration: s.description.configuration)
            try emit(consume b, on: s, output: output)
        }
    }

    /// The next packet (nil at the end), reading on past read errors as `readFailed` allows.
    func readSkipping() throws -> DemuxedPacket? {
        while true {
            do {
                let packet = try demuxer.read()
                consecutiveReadErrors = 0
                return packet
            } catch let e as DemuxError {
                try readFailed(e.message)
            }
        }
    }

    /// A read error: stop, or with errors=skip count it and read on (a file that fails over and
    /// over still stops, so a broken file cannot spin forever).
    func readFailed(_ message: String) throws {
        consecutiveReadErrors += 1
        if !skipErrors || consecutiveReadErrors > 100 {
            throw NodeFailure("reading '\(path)' failed \(whereReached(message)): \(message)"
                              + (skipErrors ? "" : "; with 'errors' set to 'skip', what can be read is kept and the run goes on"))
        }
        readErrorsSkipped += 1
    }

    /// At the end of the file: libavformat's complaints (a file that ends inside a packet or
    /// element) mean the file is truncated.
    func checkEnding() throws {
        let messages = demuxer.takeLoggedMessages()
        guard !messages.isEmpty, !stop.isSet else { return }
        let text = messages.joined(separator: "; ")
        if !skipErrors {
            throw NodeFailure("'\(path)' is truncated or damaged: it ends \(whereReached(text)): \(text); with 'errors' set to 'skip', what it holds is kept and the run goes on")
        }
        readErrorsSkipped += 1
    }

    /// "after video at 1.240 s, audio at 1.216 s", or the stream libavformat's message names.
    func whereReached(_ message: String) -> String {
        if let n = FileSource.streamNumber(in: message), let s = streams.first(where: { $0.description.info.index == n }) {
            return "in stream '\(s.name)' (stream \(n), \(s.description.info.codec)) after \(s.reachedClock)"
        }
        let read = streams.filter { $0.reached != nil }
        if read.isEmpty { return "before the first packet" }
        return "after " + read.map { "\($0.name) at \($0.reachedClock)" }.joined(separator: ", ")
    }

    /// The N of "stream N, offset …" in a libavformat message.
    static func streamNumber(in message: String) -> Int? {
        guard let r = message.range(of: "stream ") else { return nil }
        let digits = message[r.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }

    func finishReading() -> Bool { false }

    /// What errors=skip left out, counted, and connected streams that sent nothing (`run` prints
    /// these at the end, before a sink's "never received a sample").
    public var runWarnings: [String] {
        var warnings = streams.compactMap { s in s.copyStart?.warning(stream: s.name, timeBase: s.description.timeBase) }
        // a stream whose every packet the copy left out has said so above
        warnings += readToEnd ? streams.filter { $0.connected && $0.sent == 0 && ($0.copyStart?.dropped ?? 0) == 0 }.map(nothingSent) : []
        if let jumped = jumps?.warning(path: path) { warnings.append(jumped) }
        let skipped = streams.filter { $0.skipped > 0 }
        guard readErrorsSkipped > 0 || !skipped.isEmpty else { return warnings }
        var parts = skipped.map { "\($0.skipped) damaged packet\($0.skipped == 1 ? "" : "s") of '\($0.name)'" }
        if readErrorsSkipped > 0 { parts.append("\(readErrorsSkipped) unreadable part\(readErrorsSkipped == 1 ? "" : "s") of the file") }
        warnings.append("skipped \(parts.joined(separator: " and ")) in '\(path)' (errors=skip)")
        return warnings
    }

    /// Why stream `s` sent nothing: the trim left none of its packets, or the file holds none.
    func nothingSent(_ s: FileStreamState) -> String {
        let tb = s.description.timeBase
        let what = "stream '\(s.name)' of '\(path)' gave nothing"
        let start = trim.hasStart ? "'start' " + TimeValue.clock(Rational(trim.startMicros, 1_000_000)) : nil
        if let first = s.firstRead, let end = s.end, first >= end {
            let counted = trim.hasStart ? " (both counted from \(start!))" : ""
            return "\(what): its first packet is at \(clock(first, tb)), not before the trim's end at \(clock(end, tb))\(counted); move 'end' or 'duration' past it"
        }
        if s.firstRead == nil {
            return "\(what): no packet of it was read" + (start.map { " from \($0) on (past the stream's end?)" } ?? " (the file holds none)")
        }
        return "\(what): every packet read was damaged or outside the trim"
    }

    func logged(_ messages: [String]) -> String { messages.isEmpty ? "" : " (" + messages.joined(separator: "; ") + ")" }
    func clock(_ ticks: Int64, _ tb: Rational) -> String { FileStreamState.clock(ticks, tb) }
}

/// What the source tracks for one output port while reading.
final class FileStreamState {
    let port: Int
    let name: String
    let description: FileStreamDescription
    /// Ticks (of the container's time base) subtracted from its timestamps: time zero.
    var offset: Int64
    /// Ticks (of the port's time base) after zero where presentation ends.
    let end: Int64?
    /// A packet's duration when the container gives none (container ticks).
    let nominalDuration: Int64
    /// Container ticks the decoder holds back (B-frame reordering): the first packet without a
    /// dts decodes this much before it is shown.
    let initialDelay: Int64
    /// One second in the port's ticks (a larger gap is a discontinuity).
    let oneSecond: Int64
    var isActive = true
    /// A segment's first presented tick (port ticks after zero): earlier pictures are decode-only.
    var segmentStart: Int64?
    /// Times a raw H.264/HEVC stream from its picture order count.
    var timer: AccessUnitTimer?
    var lastInputDTS: Int64?
    var lastInputDuration: Int64 = 0
    var timeline = TimestampJumps.StreamTimeline()
    var rescaleState: Int64?
    var lastDTS: Int64?
    var lastDuration: Int64 = 0
    /// Latest presentation end reached (port ticks after zero), for messages.
    var reached: Int64?
    /// The first packet's presentation time (port ticks after zero), sent or not, for messages.
    var firstRead: Int64?
    /// Whether the port is connected (read at all), and how many buffers it sent.
    var connected = false
    var sent = 0
    var skipped = 0
    /// Packets at or after the end held until a packet before the end shows they are needed.
    var pending: [SampleBuffer] = []
    /// A copied video stream's wait for its first key frame (nil: nothing to wait for).
    var copyStart: FileCopyStart?

    init(port: Int, name: String, description: FileStreamDescription, offset: Int64, end: Int64?) {
        self.port = port
        self.name = name
        self.description = description
        self.offset = offset
        self.end = end
        let info = description.info
        let tb = info.timeBase
        let out = description.timeBase
        oneSecond = max(1, out.den / max(1, out.num))
        if info.kind == .audio && info.frameSize > 0 && info.sampleRate > 0 {
            nominalDuration = Demuxer.rescale(Int64(info.frameSize), from: Rational(1, Int64(info.sampleRate)), to: tb)
        } else if info.kind == .video {
            nominalDuration = max(0, Demuxer.rescale(1, from: info.frameRate.inverse ?? Rational(1, 25), to: tb))
        } else {
            nominalDuration = 0
        }
        // in microseconds first, truncated, as ffmpeg computes it
        let rate = info.frameRate.doubleValue
        let delay = Double(min(max(0, info.videoDelay), MediaLimits.maxReorderDepth))
        let delayMicros = info.kind == .video && rate > 0 ? Int64(min(delay * 1e6 / rate, 1e15)) : 0
        initialDelay = Demuxer.rescale(delayMicros, from: Rational(1, 1_000_000), to: tb)
    }

    var reachedClock: String { FileStreamState.clock(reached ?? 0, description.timeBase) }

    /// Ticks of `tb` as a clock time for messages (through Double: no overflow).
    static func clock(_ ticks: Int64, _ tb: Rational) -> String {
        let ms = Double(ticks) * Double(tb.num) / Double(tb.den) * 1000
        return TimeValue.clock(Rational(Int64(max(-9e15, min(9e15, ms.rounded()))), 1000))
    }
}
