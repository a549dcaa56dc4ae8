import CAVCodec
import MediaGraphCore

/// Settings of the Opus encoder (libopus through libavcodec's `libopus`, as `ffmpeg -c:a libopus`).
public struct OpusSettings: Hashable, Sendable {
    /// The rates libopus codes; ffmpeg's negotiation gives it one of these.
    public static let sampleRates = [48000, 24000, 16000, 12000, 8000]
    /// libavcodec's `application` choices.
    public static let applications = ["audio", "voip", "lowdelay"]

    /// The rate of `sampleRates` nearest to `rate` (the higher of two as near): 44.1 kHz → 48 kHz.
    public static func nearestSampleRate(to rate: Int) -> Int {
        sampleRates.min { (abs($0 - rate), -$0) < (abs($1 - rate), -$1) }!
    }

    /// kbit/s for all channels together; nil: ffmpeg's default, 64 per stream plus 32 per
    /// coupled (stereo) stream (64 mono, 96 stereo).
    public var bitrate: Int?
    public var application: String

    public init(bitrate: Int? = nil, application: String = "audio") {
        self.bitrate = bitrate
        self.application = application
    }

    public func validate(sampleRate: Int, channels: Int) throws {
        let check = SettingChecks(component: "opus")
        // libavcodec's own bounds: 500 bit/s … 256 kbit/s per channel
        try check.range("bitrate", bitrate, 1...(256 * max(1, channels)))
        guard Self.applications.contains(application) else {
            throw CodecError.setting("opus", "application", expected: "one of \(Self.applications.joined(separator: ", "))", found: "\"\(application)\"")
        }
        guard (1...8).contains(channels) else {
            throw CodecError(.invalidSetting, component: "opus",
                             message: "the input has \(channels) channels; Opus in MP4 codes 1…8 (put a 'resample' with 'layout', such as \"5.1\" or \"stereo\", in front to mix them down)")
        }
        guard Self.sampleRates.contains(sampleRate) else {
            throw CodecError.setting("opus", "sample rate", expected: "one of \(Self.sampleRates.map(String.init).joined(separator: ", "))",
                                     found: "\(sampleRate)")
        }
    }
}

/// Opus through libavcodec's libopus wrapper, fed interleaved float as ffmpeg feeds it.
///
/// Re-chunks the input to 20 ms frames. Packets carry libavcodec's pts/dts/duration in
/// 1/sampleRate: the first starts at -`preSkip` (the lookahead a muxer hides with `dOps`'s
/// pre-skip and an edit list) and the last one ends at the end of the input.
public final class OpusEncoder {
    public let settings: OpusSettings
    public let sampleRate: Int
    public let channels: Int
    /// The Ogg "OpusHead" libavcodec makes at open (pre-skip, channel mapping).
    public let header: [UInt8]

    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let frameSize: Int
    private var filled = 0
    private var nextPTS: Int64
    private var samplesIn: Int64 = 0
    private var flushed = false

    /// Whether these settings can encode audio of this rate, channel count and layout: opened
    /// once, since libavcodec decides which layouts Opus's Vorbis channel order has.
    public static func validate(settings: OpusSettings, sampleRate: Int, channels: Int, layout: ChannelLayout = .unspecified) throws {
        try settings.validate(sampleRate: sampleRate, channels: channels)
        if channels > 2 { _ = try OpusEncoder(settings: settings, sampleRate: sampleRate, channels: channels, layout: layout) }
    }

    /// - Parameters:
    ///   - layout: which loudspeaker each channel feeds; unspecified: the default for `channels`.
    ///   - startPTS: the pts (in samples) of the first input sample.
    public init(settings: OpusSettings, sampleRate: Int, channels: Int, layout: ChannelLayout = .unspecified, startPTS: Int64 = 0) throws {
        try settings.validate(sampleRate: sampleRate, channels: channels)
        LibraryLog.install()
        self.settings = settings
        self.sampleRate = sampleRate
        self.channels = channels
        nextPTS = startPTS
        guard let codec = avcodec_find_encoder_by_name("libopus") else {
            throw CodecError(.openFailed, component: "opus", message: "this libavcodec was built without libopus (ffmpeg -encoders lists it as libopus)")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw CodecError(.openFailed, component: "opus", message: "out of memory allocating the codec context")
        }
        context = ctx
        ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        ctx.pointee.sample_rate = Int32(sampleRate)
        LibavFormats.setChannelLayout(&ctx.pointee.ch_layout, layout, channels: channels)
        if let kbps = settings.bitrate { ctx.pointee.bit_rate = Int64(kbps) * 1000 }
        ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        _ = av_opt_set(ctx.pointee.priv_data, "application", settings.application, 0)
        let opened = avcodec_open2(ctx, codec, nil)
        guard opened >= 0 else {
            let what = channels > 2 ? " for \(channels) channels laid out \(layout.mask != 0 ? "\(layout)" : "by default") (Opus takes Vorbis's layouts: 3.0, quad, 5.0(back), 5.1(back), 6.1, 7.1; a 'resample' with 'layout' in front can remap)" : ""
            throw CodecError(.openFailed, component: "opus",
                             message: LibraryLog.message("libopus refused to open\(what)", code: opened, context: UnsafeMutableRawPointer(ctx)))
        }
        frameSize = Int(ctx.pointee.frame_size > 0 ? ctx.pointee.frame_size : Int32(sampleRate / 50))
        if let extra = ctx.pointee.extradata, ctx.pointee.extradata_size > 0 {
            header = Array(UnsafeBufferPointer(start: extra, count: Int(ctx.pointee.extradata_size)))
        } else {
            header = []
        }
        guard let f = av_frame_alloc(), let p = av_packet_alloc() else {
            throw CodecError(.openFailed, component: "opus", message: "out of memory allocating a frame")
        }
        frame = f
        packet = p
        f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        f.pointee.nb_samples = Int32(frameSize)
        f.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_copy(&f.pointee.ch_layout, &ctx.pointee.ch_layout)
        let allocated = av_frame_get_buffer(f, 0)
        guard allocated >= 0 else {
            throw CodecError(.openFailed, component: "opus", message: "allocating the frame: \(LibraryLog.describe(allocated))")
        }
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        _ = LibraryLog.take(for: context.map { UnsafeMutableRawPointer($0) })
        avcodec_free_context(&context)
    }

    /// Encodes `count` samples of interleaved float (`count * channels` values at `samples`).
    public func encode(interleaved samples: UnsafePointer<Float>, count: Int) throws -> [EncodedPacket] {
        guard let frame else { return [] }
        guard !flushed else {
            throw CodecError(.invalidInput, component: "opus", message: "audio at sample \(samplesIn) arrived after flush")
        }
        var out: [EncodedPacket] = []
        var done = 0
        while done < count {
            if filled == 0 {
                // the encoder has let go of the previous frame's buffer; this never copies
                let writable = av_frame_make_writable(frame)
                guard writable >= 0 else {
                    throw CodecError(.processingFailed, component: "opus", message: "frame buffer: \(LibraryLog.describe(writable))")
                }
            }
            let n = min(frameSize - filled, count - done)
            let target = UnsafeMutableRawPointer(frame.pointee.data.0!).assumingMemoryBound(to: Float.self)
            (target + filled * channels).update(from: samples + done * channels, count: n * channels)
            filled += n
            done += n
            samplesIn += Int64(n)
            if filled == frameSize { try sendFrame(into: &out) }
        }
        return out
    }

    /// Encodes what is left (a last, shorter frame, which libopus pads) and drains the encoder.
    public func flush() throws -> [EncodedPacket] {
        guard let ctx = context, !flushed else { return [] }
        var out: [EncodedPacket] = []
        if filled > 0 {
            frame?.pointee.nb_samples = Int32(filled)
            try sendFrame(into: &out)
        }
        flushed = true
        let sent = avcodec_send_frame(ctx, nil)
        guard sent >= 0 else {
            throw CodecError(.processingFailed, component: "opus",
                             message: LibraryLog.message("draining failed", code: sent, context: UnsafeMutableRawPointer(ctx)))
        }
        try receive(into: &out)
        return out
    }

    private func sendFrame(into out: inout [EncodedPacket]) throws {
        guard let ctx = context, let frame else { return }
        frame.pointee.pts = nextPTS
        let sent = avcodec_send_frame(ctx, frame)
        guard sent >= 0 else {
            throw CodecError(.processingFailed, component: "opus",
                             message: LibraryLog.message("samples up to \(samplesIn) were refused", code: sent, context: UnsafeMutableRawPointer(ctx)))
        }
        nextPTS += Int64(filled)
        filled = 0
        try receive(into: &out)
    }

    private func receive(into out: inout [EncodedPacket]) throws {
        guard let ctx = context, let packet else { return }
        while true {
            let r = avcodec_receive_packet(ctx, packet)
            if r == mg_averror_eagain() || r == mg_averror_eof() { break }
            guard r >= 0 else {
                throw CodecError(.processingFailed, component: "opus",
                                 message: LibraryLog.message("encoding failed at sample \(samplesIn)", code: r, context: UnsafeMutableRawPointer(ctx)))
            }
            out.append(EncodedPacket(data: Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))),
                                     pts: packet.pointee.pts, dts: packet.pointee.dts,
                                     duration: packet.pointee.duration, isKeyFrame: true))
            av_packet_unref(packet)
        }
    }
}
