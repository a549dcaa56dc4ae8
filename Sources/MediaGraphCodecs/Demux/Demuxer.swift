import CAVCodec
import CAVFormat
import Foundation
import MediaGraphCore
#if canImport(Glibc)
import Glibc
#endif

/// Limits on how much of a file is read to describe its streams before the first packet.
public struct DemuxerOptions: Sendable {
    /// Bytes read at most to find the streams' parameters (libavformat's probesize).
    public var probeSize: Int64
    /// Media time read at most for the same, in microseconds (analyzeduration).
    public var analyzeDuration: Int64

    /// ffmpeg's defaults: 5 MB and 5 seconds.
    public init(probeSize: Int64 = 5_000_000, analyzeDuration: Int64 = 5_000_000) {
        self.probeSize = probeSize
        self.analyzeDuration = analyzeDuration
    }
}

/// Reads a media file with libavformat: describes the container and its streams, hands out
/// packets (payload held in libavformat's buffer, not copied), seeks. Only local files are opened (the `file` protocol alone
/// is allowed, so a path cannot make libavformat reach the network or a pipe). A stop flag (and
/// `cancel`) interrupts a read that stalls. Not thread-safe except `cancel`.
public final class Demuxer {
    public let path: String
    public let container: ContainerInfo
    public let streams: [StreamInfo]

    private var ctx: UnsafeMutablePointer<AVFormatContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let interrupt: InterruptState
    /// Streams `select` chose (nil: all). Packets read while probing come back whatever the
    /// discard setting, so `read` drops the others itself.
    private var selected: Set<Int>?
    /// Packets read at open to learn the palettes of paletted streams, handed out first.
    private var queued: [DemuxedPacket] = []
    /// The last palette each paletted stream's packets gave (AVI and MOV give it once, with the
    /// first packet, which a seek skips): given again with the first packet after a seek.
    private var palettes: [Int: [UInt8]] = [:]
    private var paletteDue: Set<Int> = []
    /// A read that failed while `readPalettes` read ahead: thrown by `read` after the queue.
    private var queuedError: (any Error)?

    /// Opens `path` and reads enough of it to describe every stream.
    public init(path: String, options: DemuxerOptions = DemuxerOptions(), stop: StopFlag? = nil) throws {
        LibraryLog.install()
        self.path = path
        try Demuxer.checkReadable(path)
        interrupt = InterruptState(external: stop)
        guard let c = avformat_alloc_context() else { throw DemuxError(.cannotOpen, "cannot open '\(path)': out of memory") }
        c.pointee.probesize = max(32, options.probeSize)
        c.pointee.max_analyze_duration = max(0, options.analyzeDuration)
        c.pointee.interrupt_callback.callback = { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<InterruptState>.fromOpaque(opaque).takeUnretainedValue().isSet ? 1 : 0
        }
        c.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(interrupt).toOpaque()
        var dict: OpaquePointer? = nil
        av_dict_set(&dict, "protocol_whitelist", "file", 0)
        // as ffmpeg does: every program of a transport stream, not only the first one found
        av_dict_set(&dict, "scan_all_pmts", "1", 0)
        var opened: UnsafeMutablePointer<AVFormatContext>? = c
        // "file:" keeps a name with a colon from being read as a protocol ("concat:…")
        let url = "file:" + path
        let rc = avformat_open_input(&opened, url, nil, &dict)
        av_dict_free(&dict)
        guard rc >= 0, let ctx = opened else {
            // avformat_open_input frees the context on failure
            let logged = LibraryLog.take(for: UnsafeMutableRawPointer(c))
            throw Demuxer.openError(path: path, code: rc, logged: logged)
        }
        self.ctx = ctx
        let found = avformat_find_stream_info(ctx, nil)
        if found < 0 {
            let logged = LibraryLog.take(for: UnsafeMutableRawPointer(ctx))
            avformat_close_input(&self.ctx)
            throw DemuxError(.notMedia, "cannot read the streams of '\(path)': " + Demuxer.detail(found, logged))
        }
        _ = LibraryLog.take(for: UnsafeMutableRawPointer(ctx))
        var infos: [StreamInfo] = []
        for i in 0..<Int(ctx.pointee.nb_streams) {
            // streams[i] describes container index i (callers index `streams` by it)
            guard let st = ctx.pointee.streams[i], st.pointee.codecpar != nil else {
                avformat_close_input(&self.ctx)
                throw DemuxError(.notMedia, "cannot read the streams of '\(path)': stream \(i) has no description")
            }
            infos.append(LibavStreamMapping.info(st, in: ctx))
        }
        streams = infos
        let iformat = ctx.pointee.iformat!.pointee
        container = ContainerInfo(
            formatName: String(cString: iformat.name),
            formatLongName: iformat.long_name.map { String(cString: $0) } ?? "",
            duration: ctx.pointee.duration == Int64.min || ctx.pointee.duration < 0 ? nil : ctx.pointee.duration,
            // a start beyond ±2^50 µs (35 years) is a broken header: times are read from zero
            startTime: ctx.pointee.start_time == Int64.min || Swift.abs(ctx.pointee.start_time) > 1 << 50 ? nil : ctx.pointee.start_time,
            bitRate: max(0, ctx.pointee.bit_rate),
            tags: LibavStreamMapping.tagList(ctx.pointee.metadata),
            chapters: LibavStreamMapping.chapters(ctx),
            allowsDiscontinuities: iformat.flags & AVFMT_TS_DISCONT != 0,
            seeksByPresentationTime: iformat.flags & AVFMT_SEEK_TO_PTS != 0)
        if infos.isEmpty {
            avformat_close_input(&self.ctx)
            throw DemuxError(.notMedia, "'\(path)' (\(container.formatName)) holds no streams")
        }
        packet = av_packet_alloc()
        readPalettes()
    }

    /// Reads up to the first packet of every paletted stream (they are in libavformat's buffer
    /// already, read while describing the streams) to learn its palette, so that a seek before
    /// the first `read` — a trim's start, a thumbnail — still has it. The packets are handed out
    /// by `read` as usual.
    private func readPalettes() {
        let paletted = Set(streams.filter { $0.kind == .video && PixelFormatMapping.isPaletted($0.nativePixelFormat) }.map(\.index))
        guard !paletted.isEmpty else { return }
        var seen = Set<Int>(), bytes = 0
        while seen.count < paletted.count, queued.count < 256, bytes < 64 << 20 {
            let read: DemuxedPacket?
            do {
                read = try readAny()
            } catch {
                // ends the search; `read` throws it where it would have met it
                queuedError = error
                return
            }
            guard let p = read else { return }
            queued.append(p)
            bytes += p.bytes.count
            if paletted.contains(p.streamIndex) { seen.insert(p.streamIndex) }
            if let palette = p.palette { palettes[p.streamIndex] = palette }
        }
    }

    deinit {
        if let ctx { _ = LibraryLog.take(for: UnsafeMutableRawPointer(ctx)) }
        avformat_close_input(&ctx)
        av_packet_free(&packet)
    }

    /// Makes a stalled or future read return (from any thread); `read` then reports the end.
    public func cancel() { interrupt.own.set() }

    /// Reads only the streams in `indices`: libavformat skips the others' packets (AVDISCARD_ALL).
    public func select(_ indices: Set<Int>) {
        guard let ctx else { return }
        selected = indices
        for i in 0..<Int(ctx.pointee.nb_streams) {
            ctx.pointee.streams[i]?.pointee.discard = indices.contains(i) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// Seeks so that the next packets start at the key frame at or before `microseconds` (a time
    /// on the file's clock, start time included), in every stream, as ffmpeg's `-ss` does.
    public func seek(toMicroseconds ts: Int64) throws {
        guard let ctx else { return }
        let rc = avformat_seek_file(ctx, -1, Int64.min, ts, ts, 0)
        queued.removeAll()
        queuedError = nil
        paletteDue = Set(palettes.keys)
        if rc < 0 {
            let logged = LibraryLog.take(for: UnsafeMutableRawPointer(ctx))
            throw DemuxError(.seekFailed, "cannot seek in '\(path)' to \(Double(ts) / 1e6) s: " + Demuxer.detail(rc, logged))
        }
    }

    /// The next packet, or nil at the end of the file or when stopped. A read failure throws,
    /// with what libavformat logged; reading may continue after it (the caller chooses).
    public func read() throws -> DemuxedPacket? {
        while true {
            if interrupt.isSet { return nil }
            if queued.isEmpty, let e = queuedError {
                queuedError = nil
                throw e
            }
            guard var p = try queued.isEmpty ? readAny() : queued.removeFirst() else { return nil }
            guard selected?.contains(p.streamIndex) ?? true else { continue }
            if let palette = p.palette {
                palettes[p.streamIndex] = palette
                paletteDue.remove(p.streamIndex)
            } else if !paletteDue.isEmpty, paletteDue.remove(p.streamIndex) != nil {
                p.palette = palettes[p.streamIndex]
            }
            return p
        }
    }

    private func readAny() throws -> DemuxedPacket? {
        guard let ctx, let pkt = packet else { return nil }
        if interrupt.isSet { return nil }
        let rc = av_read_frame(ctx, pkt)
        defer { av_packet_unref(pkt) }
        if rc == averrorEOF() || rc == averrorExit() || interrupt.isSet { return nil }
        if rc < 0 {
            let logged = LibraryLog.take(for: UnsafeMutableRawPointer(ctx))
            throw DemuxError(.readFailed, Demuxer.detail(rc, logged))
        }
        let p = pkt.pointee
        var skipStart = 0, skipEnd = 0
        var size: Int = 0
        if let side = av_packet_get_side_data(pkt, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8 {
            skipStart = Int(UInt32(side[0]) | UInt32(side[1]) << 8 | UInt32(side[2]) << 16 | UInt32(side[3]) << 24)
            skipEnd = Int(UInt32(side[4]) | UInt32(side[5]) << 8 | UInt32(side[6]) << 16 | UInt32(side[7]) << 24)
        }
        var palette: [UInt8]?
        if let side = av_packet_get_side_data(pkt, AV_PKT_DATA_PALETTE, &size), size > 0 {
            palette = Array(UnsafeBufferPointer(start: side, count: min(size, Int(AVPALETTE_SIZE))))
        }
        var webVTT: WebVTTCueExtras?
        func side(_ type: AVPacketSideDataType) -> [UInt8] {
            var n: Int = 0
            guard let d = av_packet_get_side_data(pkt, type, &n), n > 0 else { return [] }
            // a cue's identifier and settings are one line each: bounded like the cue itself
            return Array(UnsafeBufferPointer(start: d, count: min(n, MediaLimits.maxSubtitlePacketSize)))
        }
        let vtt = WebVTTCueExtras(identifier: side(AV_PKT_DATA_WEBVTT_IDENTIFIER), settings: side(AV_PKT_DATA_WEBVTT_SETTINGS))
        if !vtt.isEmpty { webVTT = vtt }
        let bytes = Demuxer.takeBytes(pkt)
        var samples: Int32 = 0
        if p.stream_index >= 0, p.stream_index < ctx.pointee.nb_streams, let par = ctx.pointee.streams[Int(p.stream_index)]?.pointee.codecpar,
           par.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
            samples = av_get_audio_frame_duration2(par, p.size)
        }
        return DemuxedPacket(streamIndex: Int(p.stream_index), bytes: bytes, pts: p.pts, dts: p.dts, duration: p.duration,
                             isKeyFrame: p.flags & AV_PKT_FLAG_KEY != 0, isCorrupt: p.flags & AV_PKT_FLAG_CORRUPT != 0,
                             isDiscarded: p.flags & AV_PKT_FLAG_DISCARD != 0, skipStart: skipStart, skipEnd: skipEnd,
                             sampleCount: Int(max(0, samples)), position: p.pos, palette: palette, webVTT: webVTT)
    }

    /// The packet's payload without a copy: its reference-counted buffer is taken out of the
    /// packet (so `av_packet_unref` leaves it alone) and released when the last holder of the
    /// bytes lets go. A packet without a buffer of its own (not seen from `av_read_frame`) is copied.
    static func takeBytes(_ pkt: UnsafeMutablePointer<AVPacket>) -> PacketBytes {
        let p = pkt.pointee
        guard p.size > 0, let data = p.data else { return PacketBytes([]) }
        guard let buffer = p.buf else { return PacketBytes(Array(UnsafeBufferPointer(start: data, count: Int(p.size)))) }
        pkt.pointee.buf = nil
        // the address as an integer: a C pointer is not Sendable, the release runs on any thread
        let address = UInt(bitPattern: buffer)
        return PacketBytes(foreign: UnsafeRawPointer(data), count: Int(p.size)) {
            var ref = UnsafeMutablePointer<AVBufferRef>(bitPattern: address)
            av_buffer_unref(&ref)
        }
    }

    /// The libavformat warnings logged since the last call (e.g. "partial file"), oldest first.
    public func takeLoggedMessages() -> [String] {
        guard let ctx else { return [] }
        // av_log lines arrive in pieces at times ("…dts = 13824)" then "."): keep the words
        return LibraryLog.take(for: UnsafeMutableRawPointer(ctx)).filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }
    }

    /// `a` ticks of `from` in ticks of `to`, rounded to the nearest as libavutil's av_rescale_q
    /// (what ffmpeg uses to offset timestamps, so copies match its output to the tick).
    public static func rescale(_ a: Int64, from: Rational, to: Rational) -> Int64 {
        av_rescale_q(a, AVRational(num: Int32(clamping: from.num), den: Int32(clamping: from.den)),
                     AVRational(num: Int32(clamping: to.num), den: Int32(clamping: to.den)))
    }

    /// A timestamp of a coarse clock (Matroska's milliseconds) on a fine one (the sample clock)
    /// so that consecutive packets stay exactly `duration` apart while they agree with the coarse
    /// stamps within their rounding: libavutil's av_rescale_delta, which ffmpeg's stream copy
    /// uses for audio. `last` carries the state from packet to packet (start with nil).
    public static func rescaleDelta(_ ts: Int64, from: Rational, sampleClock: Rational, duration: Int64,
                                    last: inout Int64?, to: Rational) -> Int64 {
        func q(_ r: Rational) -> AVRational { AVRational(num: Int32(clamping: r.num), den: Int32(clamping: r.den)) }
        var state = last ?? Int64.min
        let out = av_rescale_delta(q(from), ts, q(sampleClock), Int32(clamping: duration), &state, q(to))
        last = state
        return out
    }

    // MARK: - errors

    /// A missing, unreadable or special file is refused before libavformat sees it: open(2)'s own
    /// words, and no blocking on a FIFO.
    static func checkReadable(_ path: String) throws {
        if path.isEmpty { throw DemuxError(.cannotOpen, "cannot open '': the path is empty") }
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw DemuxError(.cannotOpen, "cannot open '\(path)': \(String(cString: strerror(errno)))")
        }
        let type = st.st_mode & S_IFMT
        if type == S_IFDIR { throw DemuxError(.cannotOpen, "cannot open '\(path)': it is a directory") }
        if type != S_IFREG && type != S_IFBLK {
            throw DemuxError(.cannotOpen, "cannot open '\(path)': not a regular file (a pipe or device cannot be read as media)")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw DemuxError(.cannotOpen, "cannot open '\(path)': \(String(cString: strerror(errno)))") }
        close(fd)
        if st.st_size == 0 { throw DemuxError(.notMedia, "'\(path)' is empty (0 bytes), not a media file") }
    }

    static func openError(path: String, code: Int32, logged: [String]) -> DemuxError {
        if code == averrorInvalidData() {
            // an MP4/MOV whose moov never got written: say so (the usual cause of this error)
            if logged.contains(where: { $0.contains("moov atom not found") }) && startsWithISOBox(path) {
                return DemuxError(.notMedia, "'\(path)' is an MP4/MOV without its index (moov atom not found): cut short while it was written? (\(LibraryLog.describe(code)))")
            }
            return DemuxError(.notMedia, "'\(path)' is not a media file libavformat recognises (\(LibraryLog.describe(code)))")
        }
        return DemuxError(.cannotOpen, "cannot open '\(path)': " + detail(code, logged))
    }

    /// Whether the file begins as MP4 and MOV files do, with a top-level box (ffmpeg's mov reader
    /// also says "moov atom not found" of a text file named .mp4).
    static func startsWithISOBox(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 8)
        guard pread(fd, &head, 8, 0) == 8 else { return false }
        let type = String(decoding: head[4..<8], as: UTF8.self)
        return ["ftyp", "mdat", "moov", "free", "skip", "wide", "pnot"].contains(type)
    }

    /// libavformat's logged words, then the error code's text.
    static func detail(_ code: Int32, _ logged: [String]) -> String {
        let text = LibraryLog.describe(code)
        return logged.isEmpty ? text : logged.joined(separator: "; ") + " (\(text))"
    }
}

/// The state the interrupt callback reads: the run's stop flag and the demuxer's own.
final class InterruptState {
    let external: StopFlag?
    let own = StopFlag()
    init(external: StopFlag?) { self.external = external }
    var isSet: Bool { own.isSet || external?.isSet == true }
}

// Function-like error macros do not reach Swift.
@inline(__always) func averrorEOF() -> Int32 { mg_averror_eof() }
@inline(__always) func averrorExit() -> Int32 { -0x54495845 }        // FFERRTAG('E','X','I','T')
@inline(__always) func averrorInvalidData() -> Int32 { -0x41444E49 } // FFERRTAG('I','N','D','A')
