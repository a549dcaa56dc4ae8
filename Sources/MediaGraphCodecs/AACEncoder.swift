import CAVCodec
import MediaGraphCore

/// Settings of the AAC encoder (libavcodec's native `aac`, profile LC).
public struct AACSettings: Hashable, Sendable {
    /// Sample rates AAC (and the ADTS header) can signal.
    public static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// The rate of `sampleRates` nearest to `rate` (the higher of two as near).
    public static func nearestSampleRate(to rate: Int) -> Int {
        sampleRates.min { (abs($0 - rate), -$0) < (abs($1 - rate), -$1) }!
    }

    /// Bitrate in kbit/s for all channels together.
    public var bitrate: Int

    public init(bitrate: Int = 128) {
        self.bitrate = bitrate
    }

    public func validate(sampleRate: Int, channels: Int) throws {
        let check = SettingChecks(component: "aac")
        try check.range("bitrate", bitrate, 8...1536)
        // the channels come from the input, not a param: say so, and how to mix them down
        guard (1...16).contains(channels) else {
            throw CodecError(.invalidSetting, component: "aac",
                             message: "the input has \(channels) channels; AAC codes 1…16 (put a 'resample' with 'layout', such as \"7.1\" or \"stereo\", in front to mix them down)")
        }
        guard Self.sampleRates.contains(sampleRate) else {
            throw CodecError.setting("aac", "sample rate",
                                     expected: "one of \(Self.sampleRates.map(String.init).joined(separator: ", "))",
                                     found: "\(sampleRate)")
        }
    }
}

/// AAC LC through libavcodec's native encoder.
///
/// Takes float planar audio in chunks of any size and re-chunks it to the 1024-sample frames AAC
/// codes. Packets carry pts/dts/duration in 1/sampleRate, as libavcodec stamps them: the first
/// packet starts at -`primingSamples` (the encoder delay a muxer hides with an edit list) and
/// the last one ends exactly at the end of the input. Every packet is a sync sample.
public final class AACEncoder {
    public let settings: AACSettings
    public let sampleRate: Int
    public let channels: Int
    public let configuration: CodecConfiguration
    /// Samples of encoder delay before the first input sample (1024 for this encoder).
    public let primingSamples: Int

    /// The open codec context, its frame and re-chunking.
    private let core: LibavAudioEncoder

    /// Whether these settings can encode audio of this rate, channel count and layout (a layout
    /// other than the channel count's default is opened once to ask libavcodec, which codes the
    /// layouts AAC has no number for in a program config element).
    public static func validate(settings: AACSettings, sampleRate: Int, channels: Int, layout: ChannelLayout = .unspecified) throws {
        try settings.validate(sampleRate: sampleRate, channels: channels)
        if (layout.mask != 0 && layout.mask.nonzeroBitCount == channels) || channels > 8 {
            _ = try AACEncoder(settings: settings, sampleRate: sampleRate, channels: channels, layout: layout)
        }
    }

    /// - Parameters:
    ///   - layout: which loudspeaker each channel feeds; unspecified: the default order for
    ///     `channels` (5.1 for six).
    ///   - startPTS: the pts (in samples) of the first input sample.
    public init(settings: AACSettings, sampleRate: Int, channels: Int, layout: ChannelLayout = .unspecified, startPTS: Int64 = 0) throws {
        try settings.validate(sampleRate: sampleRate, channels: channels)
        LibraryLog.install()
        self.settings = settings
        self.sampleRate = sampleRate
        self.channels = channels
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw CodecError(.openFailed, component: "aac", message: "this libavcodec has no aac encoder")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw CodecError(.openFailed, component: "aac", message: "out of memory allocating the codec context")
        }
        ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        ctx.pointee.sample_rate = Int32(sampleRate)
        LibavFormats.setChannelLayout(&ctx.pointee.ch_layout, layout, channels: channels)
        ctx.pointee.bit_rate = Int64(settings.bitrate) * 1000
        ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        ctx.pointee.profile = FF_PROFILE_AAC_LOW
        ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER  // the AudioSpecificConfig at open
        let opened = avcodec_open2(ctx, codec, nil)
        guard opened >= 0 else {
            let what = layout.mask != 0 || channels > 8
                ? " for \(channels) channels \(layout.mask != 0 ? "laid out \(layout)" : "in no named layout") (a 'resample' with 'layout', such as \"7.1\" or \"stereo\", in front can mix them down)" : ""
            let message = LibraryLog.message("aac refused to open\(what)", code: opened, context: UnsafeMutableRawPointer(ctx))
            var owned: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&owned)
            throw CodecError(.openFailed, component: "aac", message: message)
        }
        core = try LibavAudioEncoder(component: "aac", context: ctx, defaultFrameSize: 1024, startPTS: startPTS)
        primingSamples = Int(ctx.pointee.initial_padding)
        var asc: [UInt8] = []
        if let extra = ctx.pointee.extradata, ctx.pointee.extradata_size > 0 {
            asc = Array(UnsafeBufferPointer(start: extra, count: Int(ctx.pointee.extradata_size)))
        }
        configuration = .aac(AACConfiguration(audioSpecificConfig: asc, sampleRate: sampleRate, channels: channels, objectType: 2))
    }

    /// Encodes `count` samples of each channel (`channelData.count == channels`).
    public func encode(_ channelData: [UnsafePointer<Float>], count: Int) throws -> [EncodedPacket] {
        try channelData.withUnsafeBufferPointer { try encode(channels: $0, count: count) }
    }

    /// Encodes `count` samples from each of the `channels` plane pointers.
    public func encode(channels planes: UnsafeBufferPointer<UnsafePointer<Float>>, count: Int) throws -> [EncodedPacket] {
        guard planes.count == channels, count >= 0 else {
            throw CodecError(.invalidInput, component: "aac",
                             message: "at sample \(core.samplesIn): expected \(channels) channel planes, found \(planes.count)")
        }
        return try core.feed(count: count) { target, channel, offset, n in
            target.update(from: planes[channel] + offset, count: n)
        }
    }

    /// Encodes raw audio as a `SampleBuffer` holds it: `f32planar` channel after channel, `f32`
    /// or `s16` interleaved (s16 becomes x / 32768, as libswresample converts it).
    public func encode(bytes: UnsafeRawBufferPointer, format: SampleFormat, sampleCount: Int) throws -> [EncodedPacket] {
        let needed = sampleCount * channels * format.bytesPerSample
        guard sampleCount >= 0, bytes.count >= needed, let base = bytes.baseAddress else {
            if sampleCount == 0 { return [] }
            throw CodecError(.invalidInput, component: "aac",
                             message: "at sample \(core.samplesIn): \(sampleCount) samples of \(channels) channels \(format) need \(needed) bytes, found \(bytes.count)")
        }
        let channels = self.channels
        switch format {
        case .f32planar:
            let floats = base.bindMemory(to: Float.self, capacity: sampleCount * channels)
            return try core.feed(count: sampleCount) { target, channel, offset, n in
                target.update(from: floats + channel * sampleCount + offset, count: n)
            }
        case .f32:
            let floats = base.bindMemory(to: Float.self, capacity: sampleCount * channels)
            return try core.feed(count: sampleCount) { target, channel, offset, n in
                var source = floats + offset * channels + channel
                for i in 0..<n {
                    target[i] = source.pointee
                    source += channels
                }
            }
        case .s16:
            let shorts = base.bindMemory(to: Int16.self, capacity: sampleCount * channels)
            return try core.feed(count: sampleCount) { target, channel, offset, n in
                var source = shorts + offset * channels + channel
                for i in 0..<n {
                    target[i] = Float(source.pointee) * (1 / 32768)
                    source += channels
                }
            }
        default:
            // the node's input port takes only the three above; the graph converts the others
            throw CodecError(.invalidInput, component: "aac", message: "sample format \(format) is not one of f32planar, f32, s16")
        }
    }

    /// Encodes what is left (a last, shorter frame) and drains the encoder.
    public func flush() throws -> [EncodedPacket] { try core.flush() }
}

extension AACEncoder: FloatAudioEncoder {
    public var takesInterleaved: Bool { core.interleaved }
    public func encode(floats: UnsafePointer<Float>, count: Int, planeStride: Int) throws -> [EncodedPacket] {
        try core.feed(floats: floats, count: count, planeStride: planeStride)
    }
}
