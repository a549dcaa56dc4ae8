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

    private let core: LibavAudioEncoder

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
        guard let codec = avcodec_find_encoder_by_name("libopus") else {
            throw CodecError(.openFailed, component: "opus", message: "this libavcodec was built without libopus (ffmpeg -encoders lists it as libopus)")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw CodecError(.openFailed, component: "opus", message: "out of memory allocating the codec context")
        }
        ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        ctx.pointee.sample_rate = Int32(sampleRate)
        LibavFormats.setChannelLayout(&ctx.pointee.ch_layout, layout, channels: channels)
        if let kbps = settings.bitrate { ctx.pointee.bit_rate = Int64(kbps) * 1000 }
        ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        _ = av_opt_set(ctx.pointee.priv_data, "application", settings.application, 0)
        let opened = avcodec_open2(ctx, codec, nil)
        guard opened >= 0 else {
            let what = channels > 2 ? " for \(channels) channels laid out \(layout.mask != 0 ? "\(layout)" : "by default") (Opus takes Vorbis's layouts: 3.0, quad, 5.0(back), 5.1(back), 6.1, 7.1; a 'resample' with 'layout' in front can remap)" : ""
            let message = LibraryLog.message("libopus refused to open\(what)", code: opened, context: UnsafeMutableRawPointer(ctx))
            var owned: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&owned)
            throw CodecError(.openFailed, component: "opus", message: message)
        }
        if let extra = ctx.pointee.extradata, ctx.pointee.extradata_size > 0 {
            header = Array(UnsafeBufferPointer(start: extra, count: Int(ctx.pointee.extradata_size)))
        } else {
            header = []
        }
        // 20 ms frames unless libavcodec says otherwise
        core = try LibavAudioEncoder(component: "opus", context: ctx, defaultFrameSize: sampleRate / 50, startPTS: startPTS, interleaved: true)
    }

    /// Encodes `count` samples of interleaved float (`count * channels` values at `samples`).
    public func encode(interleaved samples: UnsafePointer<Float>, count: Int) throws -> [EncodedPacket] {
        let channels = self.channels
        return try core.feedInterleaved(count: count) { target, offset, n in
            target.update(from: samples + offset * channels, count: n * channels)
        }
    }

    /// Encodes what is left (a last, shorter frame, which libopus pads) and drains the encoder.
    public func flush() throws -> [EncodedPacket] { try core.flush() }
}

extension OpusEncoder: FloatAudioEncoder {
    public var takesInterleaved: Bool { core.interleaved }
    public func encode(floats: UnsafePointer<Float>, count: Int, planeStride: Int) throws -> [EncodedPacket] {
        try core.feed(floats: floats, count: count, planeStride: planeStride)
    }
}
