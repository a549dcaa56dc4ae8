import MediaGraphCore

/// An MPEG-2 transport stream muxer that writes what ffmpeg's `-f mpegts` writes (ffmpeg 5.1,
/// default options) for the same packets: PAT, PMT and SDT, PIDs from 0x100, the PCR on the
/// video PID, ffmpeg's 1.4 s initial delay, H.264/HEVC access units with delimiters and
/// parameter sets, AAC as ADTS, MP3 as it is. Samples of every track arrive in their own decode
/// order (times in 90 kHz ticks); the muxer interleaves them by decode time as ffmpeg's
/// `av_interleaved_write_frame` does (smallest dts first, ties to the lower track), waiting
/// until every track has a sample queued or one runs 10 s ahead. See Docs/mpegts.md.
public final class MPEGTSMuxer: MP4TrackWriter {
    public private(set) var state: MP4MuxerState = .idle
    let output: MPEGTSOutput
    /// HLS: segment length (ffmpeg's hls_time) in microseconds; nil: one file.
    let segmentMicroseconds: Int64?
    var formats: [MediaFormat] = []
    var tracks: [MPEGTSTrack] = []
    var program: MPEGTSProgram!
    /// The program's SDT, PAT and PMT sections, made once.
    var sections: (sdt: [UInt8], pat: [UInt8], pmt: [UInt8]) = ([], [], [])
    var packetizer = MPEGTSPacketizer()
    var patCounter: UInt8 = 15, pmtCounter: UInt8 = 15, sdtCounter: UInt8 = 15
    /// When the tables were last written (27 MHz), nil before the first time.
    var lastPATTime: Int64?
    var lastSDTTime: Int64?
    /// Write PAT, PMT and SDT before the next PES (a new HLS segment starts).
    var resendTables = true
    /// Added to every timestamp so that none is negative (ffmpeg's avoid_negative_ts), fixed at
    /// the first packet written.
    var offset: Int64?
    var segments = MPEGTSSegmentClock()
    let title: String?
    /// PAT and PMT at least every 100 ms, SDT every 500 ms (27 MHz); in HLS segments only at
    /// each segment's start (and a key frame after a non-key one), as ffmpeg's hls muxer sets
    /// its mpegts muxer's pat_period and sdt_period to (INT_MAX / 2 - 1) µs.
    let patPeriod: Int64
    let sdtPeriod: Int64

    /// ffmpeg's -muxdelay default, 0.7 s: the PCR runs this far behind the first dts, and every
    /// timestamp is moved by twice it (mpegtsenc.c `delay`), in 90 kHz ticks.
    static let muxDelay: Int64 = 63000
    /// A track this far ahead of another with nothing queued is written anyway
    /// (ffmpeg's max_interleave_delta, 10 s).
    static let maxInterleaveDelta: Int64 = 900_000

    /// - Parameters:
    ///   - title: the service name in the SDT (ffmpeg takes the `title` tag), default "Service01".
    ///   - segmentDuration: seconds per HLS segment (cut at the first video key frame at or after
    ///     each multiple, as ffmpeg's hls muxer cuts); nil writes one stream.
    public init(output: MPEGTSOutput, title: String? = nil, segmentDuration: Double? = nil) {
        self.output = output
        self.title = title
        segmentMicroseconds = segmentDuration.map { Int64(($0 * 1_000_000).rounded()) }
        let segmentTablePeriod = Int64(Int32.max / 2 - 1) * 27
        patPeriod = segmentDuration == nil ? 2_700_000 : segmentTablePeriod
        sdtPeriod = segmentDuration == nil ? 13_500_000 : segmentTablePeriod
    }

    public func addTrack(for format: MediaFormat, configuration: CodecConfiguration?) throws -> MP4TrackID {
        guard state == .idle, program == nil else { throw MPEGTSMuxerError.invalidState(operation: "add a track", state: state) }
        formats.append(format)
        let name = "track \(formats.count) (\(format.codec.map { "\($0)" } ?? "?"))"
        tracks.append(MPEGTSTrack(name: name, format: format, configuration: configuration))
        return MP4TrackID(index: formats.count - 1)
    }

    public func timescale(of track: MP4TrackID) -> Int64? { track.index < tracks.count ? 90000 : nil }

    public func append(_ sample: MP4Sample, to track: MP4TrackID) throws {
        guard state == .idle || state == .running else { throw MPEGTSMuxerError.invalidState(operation: "append a sample", state: state) }
        guard track.index < tracks.count else { throw MPEGTSMuxerError.unknownTrack(track) }
        do {
            if program == nil { try begin() }
            let t = tracks[track.index]
            if let last = t.lastDTS, sample.dts <= last {
                throw MPEGTSMuxerError.decodeOrder(track: t.name, sample: t.received, dts: sample.dts, previousDTS: last)
            }
            t.lastDTS = sample.dts
            t.received += 1
            t.queue.append(sample)
            try writeReady(final: false)
        } catch {
            fail()
            throw error
        }
    }

    public func finishTrack(_ track: MP4TrackID) throws {
        guard track.index < tracks.count else { throw MPEGTSMuxerError.unknownTrack(track) }
        tracks[track.index].ended = true
        guard state == .idle || state == .running, program != nil else { return }
        do { try writeReady(final: false) } catch {
            fail()
            throw error
        }
    }

    public func dropQueued(from dts: Int64, in track: MP4TrackID) -> Int {
        guard track.index < tracks.count else { return 0 }
        let t = tracks[track.index]
        let before = t.queue.count
        t.queue.removeAll { $0.dts >= dts }
        return before - t.queue.count
    }

    public func finish() throws {
        guard state == .idle || state == .running else { throw MPEGTSMuxerError.invalidState(operation: "finish", state: state) }
        do {
            if program == nil { try begin() }
            for t in tracks { t.ended = true }
            try writeReady(final: true)
            try flushAudio()
            try flushPackets()
            try output.finish(lastSegmentDuration: segments.lastDuration)
            state = .completed
        } catch {
            fail()
            throw error
        }
    }

    public func cancel() {
        guard state == .idle || state == .running else { return }
        state = .cancelled
        output.abandon(cancelled: true)
    }

    func fail() {
        guard state == .idle || state == .running else { return }
        state = .failed
        output.abandon(cancelled: false)
    }

    /// The program, once every track is known.
    private func begin() throws {
        program = try MPEGTSProgram(formats: formats, title: title)
        sections = (program.sdtSection, program.patSection, program.pmtSection)
        // ffmpeg's hls muxer gives its mpegts muxer no frame rate: a PCR on every video PES
        for (k, t) in tracks.enumerated() { t.configureTiming(isPCR: k == program.pcrIndex, usesFrameRate: segmentMicroseconds == nil) }
        segments.leadTrack = tracks.firstIndex { $0.isVideo }
        state = .running
    }

    /// Writes queued samples in decode order while every open track has one queued (or one
    /// track runs `maxInterleaveDelta` ahead); with `final`, everything.
    private func writeReady(final: Bool) throws {
        while true {
            var best: Int?
            var waiting = false
            var newest = Int64.min
            for (k, t) in tracks.enumerated() {
                guard let head = t.queue.first else {
                    if !t.ended { waiting = true }
                    continue
                }
                newest = max(newest, t.queue.last!.dts)
                if best == nil || head.dts < tracks[best!].queue.first!.dts { best = k }
            }
            guard let k = best else { return }
            let head = tracks[k].queue.first!.dts
            if waiting && !final && newest - head <= Self.maxInterleaveDelta { return }
            if offset == nil {
                // ffmpeg's avoid_negative_ts: the smallest dts of what is queued becomes 0 if negative
                offset = max(0, -head)
            }
            let sample = tracks[k].queue.removeFirst()
            try write(sample, track: k)
        }
    }

    /// Hands what the packetizer has cut to the output once it is large.
    func flushPackets(ifAbove limit: Int = 0) throws {
        guard packetizer.bytes.count > limit else { return }
        try output.write(packetizer.bytes)
        packetizer.bytes.removeAll(keepingCapacity: true)
    }
}
