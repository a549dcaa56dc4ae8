import CAVCodec
import MediaGraphCore

/// What an audio decoder did.
public struct AudioDecoderStatistics: Sendable, Equatable {
    public var packetsIn = 0
    /// Decoded frames libavcodec returned.
    public var framesDecoded = 0
    public var buffersOut = 0
    public var samplesOut: Int64 = 0
    /// Samples before time zero (priming, pre-skip, a trim's lead-in), decoded and cut.
    public var samplesCutBeforeZero: Int64 = 0
    /// Samples after the end mark, decoded and cut.
    public var samplesCutAtEnd: Int64 = 0
    /// Decoded frames converted with libswresample because they did not match the declared format.
    public var convertedFrames = 0
}

/// An audio decoder over libavcodec: packets in (`send`), raw audio out (`receive`) in the
/// format declared at creation (normally `EncodedAudioFormat.raw`), timestamps in samples
/// (time base 1/sample rate).
///
/// - Sample formats map one to one (libavutil's `fltp` is `f32planar`, `s16` is `s16` …); a
///   decoder whose output differs from the declared format (s64, another rate or channel count)
///   is converted with libswresample, counted in `statistics`.
/// - Time zero: samples before it (AAC priming, Opus pre-skip, a trim's lead-in) are cut to the
///   exact sample; so are samples at or after `endPTS` (set from a packet flagged
///   `BufferFlags.endOfPresentation`, see `send`).
/// - Timestamps: the first frame's pts is converted to samples; later frames follow on sample by
///   sample unless their own pts says otherwise by more than the packets' time base can express
///   (a gap: flagged `.discontinuity`).
public final class AudioDecoder {
    public let input: EncodedAudioFormat
    public let output: AudioFormat
    public let decoderName: String
    /// Time base of the output timestamps: 1/sample rate.
    public let timeBase: Rational
    /// Presentation ends here (in samples): later samples are cut.
    public var endPTS: Int64?
    public private(set) var statistics = AudioDecoderStatistics()
    /// Set once decoded audio stops matching the declared format: when, and what it was.
    public private(set) var formatChange: (pts: Int64, description: String)?
    /// The sample format the decoder gives from its first frame on where only that differs from
    /// the declared one: the container's guess of a decoder's choice (mp2 declared fltp, decoded
    /// s16p), converted without counting as a change.
    private var sampleFormatFromStart: Int32?

    private let component: String
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var packetPending = false
    private var draining = false
    private var resampler: AudioResampler?
    private var resamplerKey: (format: Int32, rate: Int32, channels: Int32)?
    private var nextPTS: Int64?
    /// Rounding slack of the packets' time base, in samples.
    private let tolerance: Int64
    private var lastPacketPTS = SampleBuffer.noTime
    private var lastPacketLeadIn = false
    private var pendingEnd: Int64?

    public init(input: EncodedAudioFormat, output: AudioFormat? = nil, threads: Int = 0) throws {
        LibraryLog.install()
        self.input = input
        let declared = output ?? input.raw
        self.output = declared
        component = "\(input.codec) decoder"
        guard declared.sampleRate > 0, declared.sampleRate <= 1_536_000 else {
            throw CodecError(.invalidSetting, component: component, message: "expected a sample rate within 1...1536000, found \(declared.sampleRate)")
        }
        guard declared.channels > 0, declared.channels <= AudioResampler.maxChannels else {
            throw CodecError(.invalidSetting, component: component, message: "expected 1...\(AudioResampler.maxChannels) channels, found \(declared.channels)")
        }
        guard threads >= 0 && threads <= 64 else {
            throw CodecError.setting(component, "threads", expected: "0...64", found: "\(threads)")
        }
        timeBase = Rational(1, Int64(declared.sampleRate))
        let tb = input.timeBase
        guard tb.num > 0, tb.num <= Int64(Int32.max), tb.den <= Int64(Int32.max) else {
            throw CodecError(.invalidSetting, component: component, message: "expected a positive time base, found \(tb)")
        }
        tolerance = max(1, Int64((Double(declared.sampleRate) * tb.doubleValue).rounded(.up)))
        let decoder = try DecoderContext.findDecoder(input.codec, component: component)
        decoderName = String(cString: decoder.pointee.name)
        let ctx = try DecoderContext.allocate(decoder, extradata: input.extradata, timeBase: tb, component: component)
        ctx.pointee.sample_rate = Int32(input.raw.sampleRate)
        LibavFormats.setChannelLayout(&ctx.pointee.ch_layout, input.raw.channelLayout, channels: input.raw.channels)
        ctx.pointee.thread_count = Int32(threads)
        // what the container states, as ffmpeg passes it on (avcodec_parameters_to_context)
        ctx.pointee.block_align = Int32(clamping: input.coding.blockAlign)
        ctx.pointee.bits_per_coded_sample = Int32(clamping: input.coding.codedBitsPerSample)
        ctx.pointee.bit_rate = input.coding.bitRate
        try DecoderContext.open(ctx, decoder, component: component)
        context = ctx
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard frame != nil, packet != nil else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating a frame")
        }
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        _ = LibraryLog.take(for: context.map { UnsafeMutableRawPointer($0) })
        avcodec_free_context(&context)
    }

    /// Sends an encoded packet. A packet flagged `.endOfPresentation` sets the end mark at its
    /// pts + duration - discardPadding. Call `receive` until it returns nil before sending the
    /// next one. Throws when libavcodec rejects the packet; the decoder stays usable.
    public func send(_ packet: SampleBuffer) throws {
        if packet.flags.contains(.endOfPresentation), packet.pts != SampleBuffer.noTime {
            pendingEnd = samples(packet.pts + max(0, packet.duration - max(0, packet.discardPadding)))
        }
        try packet.withUnsafeBytes {
            try send(bytes: $0, pts: packet.pts, dts: packet.dts, duration: packet.duration, leadIn: packet.flags.contains(.leadIn))
        }
    }

    /// `leadIn`: the packet is flagged `BufferFlags.leadIn` (an error on it, before any audio was
    /// handed out, is marked `CodecError.inSeekLeadIn`).
    public func send(bytes: UnsafeRawBufferPointer, pts: Int64, dts: Int64, duration: Int64, leadIn: Bool = false) throws {
        if let e = pendingEnd {
            endPTS = min(endPTS ?? e, e)
            pendingEnd = nil
        }
        guard let ctx = context, let pkt = packet else { return }
        guard !draining else {
            throw CodecError(.invalidInput, component: component, message: "a packet at \(DecoderContext.describeTime(pts, input.timeBase)) arrived after the end of the stream")
        }
        guard !packetPending else {
            throw CodecError(.invalidInput, component: component, message: "receive the decoded audio before sending the next packet")
        }
        guard !bytes.isEmpty else { return }
        try DecoderContext.fill(pkt, bytes: bytes, pts: pts, dts: dts, duration: duration, keyFrame: true, component: component)
        statistics.packetsIn += 1
        lastPacketPTS = pts
        lastPacketLeadIn = leadIn
        let r = avcodec_send_packet(ctx, pkt)
        if r == mg_averror_eagain() {
            packetPending = true
            return
        }
        av_packet_unref(pkt)
        if r < 0 { throw packetFailure(code: r) }
    }

    /// Tells the decoder no more packets come; `receive` then returns what it still holds.
    public func sendEndOfStream() throws {
        guard let ctx = context, !draining else { return }
        if packetPending {
            throw CodecError(.invalidInput, component: component, message: "receive the decoded audio before ending the stream")
        }
        draining = true
        let r = avcodec_send_packet(ctx, nil)
        if r < 0 && r != mg_averror_eof() { throw failure("draining failed", code: r) }
    }

    /// The next buffer of decoded audio, or nil when the decoder needs another packet (or has
    /// drained; then a resampler's tail comes out too).
    public func receive() throws -> SampleBuffer? {
        guard let ctx = context, let frame else { return nil }
        while true {
            let r = avcodec_receive_frame(ctx, frame)
            if r == mg_averror_eagain() {
                guard packetPending, let pkt = packet else { return nil }
                packetPending = false
                let s = avcodec_send_packet(ctx, pkt)
                av_packet_unref(pkt)
                if s < 0 { throw packetFailure(code: s) }
                continue
            }
            if r == mg_averror_eof() {
                guard let resampler, let pts = nextPTS else { return nil }
                let tail = try resampler.flush()
                self.resampler = nil
                return try emit(tail.bytes, count: tail.sampleCount, pts: pts, discontinuity: false)
            }
            if r < 0 {
                var e = failure("decoding failed after the packet at \(DecoderContext.describeTime(lastPacketPTS, input.timeBase))", code: r)
                e.inSeekLeadIn = lastPacketLeadIn && statistics.buffersOut == 0
                throw e
            }
            let out: SampleBuffer?
            do {
                out = try audio(from: frame)
            } catch {
                av_frame_unref(frame)
                throw error
            }
            av_frame_unref(frame)
            if let out { return out }
        }
    }

    private func failure(_ what: String, code: Int32) -> CodecError {
        CodecError(.processingFailed, component: component,
                   message: LibraryLog.message(what, code: code, context: context.map { UnsafeMutableRawPointer($0) }))
    }

    /// The last packet sent cannot be decoded; marked when it is a seek's lead-in and no audio
    /// was handed out yet.
    private func packetFailure(code: Int32) -> CodecError {
        var e = failure("the packet at \(DecoderContext.describeTime(lastPacketPTS, input.timeBase)) cannot be decoded", code: code)
        e.inSeekLeadIn = lastPacketLeadIn && statistics.buffersOut == 0
        return e
    }

    /// A time in the packets' time base as a sample count.
    private func samples(_ pts: Int64) -> Int64 {
        MediaTime(value: pts, timescale: input.timeBase.den).converted(to: Int64(output.sampleRate) * input.timeBase.num).value
    }

    private func audio(from f: UnsafeMutablePointer<AVFrame>) throws -> SampleBuffer? {
        statistics.framesDecoded += 1
        let count = Int(f.pointee.nb_samples)
        guard count > 0 else { return nil }
        // timestamps in samples, following on unless the frame's own pts says there is a gap
        var pts: Int64
        var discontinuity = false
        let stated = f.pointee.best_effort_timestamp
        if stated == SampleBuffer.noTime {
            pts = nextPTS ?? 0
        } else {
            pts = samples(stated)
            if let expected = nextPTS {
                if abs(pts - expected) <= tolerance { pts = expected } else { discontinuity = true }
            }
        }
        let format = f.pointee.format, rate = f.pointee.sample_rate, channels = f.pointee.ch_layout.nb_channels
        let ours = LibavFormats.sampleFormat(format)
        let matches = ours == output.sampleFormat && Int(rate) == output.sampleRate && Int(channels) == output.channels
        if matches {
            nextPTS = pts + Int64(count)
            let bps = output.sampleFormat.bytesPerSample
            let planar = output.sampleFormat.isPlanar
            let planeBytes = count * bps * (planar ? 1 : output.channels)
            let bytes = [UInt8](unsafeUninitializedCapacity: planeBytes * (planar ? output.channels : 1)) { buffer, initialized in
                let base = buffer.baseAddress!
                for c in 0..<(planar ? output.channels : 1) {
                    if let plane = f.pointee.extended_data[c] { (base + c * planeBytes).update(from: plane, count: planeBytes) }
                }
                initialized = buffer.count
            }
            return try emit(bytes, count: count, pts: pts, discontinuity: discontinuity)
        }
        // convert to the declared format
        let sameLayout = Int(rate) == output.sampleRate && Int(channels) == output.channels
        if statistics.framesDecoded == 1 && sameLayout { sampleFormatFromStart = format }
        if formatChange == nil && !(sameLayout && format == sampleFormatFromStart) {
            formatChange = (pts, "\(LibavFormats.sampleFormatName(format)) \(rate)Hz \(channels)ch")
        }
        if resamplerKey.map({ $0.format != format || $0.rate != rate || $0.channels != channels }) ?? true {
            resampler = try AudioResampler(avFormat: format, rate: Int(rate), layout: &f.pointee.ch_layout, to: output, component: component)
            resamplerKey = (format, rate, channels)
            // the converted audio starts at this frame's time, in the output rate
        }
        statistics.convertedFrames += 1
        let start = nextPTS ?? pts
        let converted = try resampler!.convert(planes: f.pointee.extended_data, count: count)
        // the resampler holds some samples back: output time follows the output count
        let outPTS = discontinuity ? pts : start
        nextPTS = outPTS + Int64(converted.sampleCount)
        guard converted.sampleCount > 0 else { return nil }
        return try emit(converted.bytes, count: converted.sampleCount, pts: outPTS, discontinuity: discontinuity)
    }

    /// Cuts what lies before zero or after the end mark and wraps the rest in a buffer.
    private func emit(_ bytes: [UInt8], count: Int, pts: Int64, discontinuity: Bool) throws -> SampleBuffer? {
        var first = 0, last = count
        if pts < 0 { first = Int(min(Int64(count), -pts)) }
        if let end = endPTS, pts + Int64(count) > end { last = Int(max(Int64(first), min(Int64(count), end - pts))) }
        statistics.samplesCutBeforeZero += Int64(first)
        statistics.samplesCutAtEnd += Int64(count - last)
        let kept = last - first
        guard kept > 0 else { return nil }
        var payload = bytes
        if kept != count { payload = slice(bytes, count: count, from: first, to: last) }
        let out = SampleBuffer(bytes: payload, format: .audio(output), pts: pts + Int64(first), duration: Int64(kept),
                               timeBase: timeBase, flags: discontinuity ? [.keyFrame, .discontinuity] : .keyFrame, sampleCount: kept)
        statistics.buffersOut += 1
        statistics.samplesOut += Int64(kept)
        return out
    }

    /// Samples `from..<to` of every channel.
    private func slice(_ bytes: [UInt8], count: Int, from: Int, to: Int) -> [UInt8] {
        let bps = output.sampleFormat.bytesPerSample
        if output.sampleFormat.isPlanar {
            var out: [UInt8] = []
            out.reserveCapacity((to - from) * bps * output.channels)
            for c in 0..<output.channels {
                out.append(contentsOf: bytes[(c * count + from) * bps ..< (c * count + to) * bps])
            }
            return out
        }
        let frameBytes = bps * output.channels
        return Array(bytes[from * frameBytes ..< to * frameBytes])
    }
}
