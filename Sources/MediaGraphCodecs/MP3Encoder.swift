import CAVCodec
import MediaGraphCore

/// MP3 through libavcodec's `libmp3lame` wrapper, opened as ffmpeg opens it for
/// `-c:a libmp3lame -b:a N` (CBR) or `-q:a N` (VBR), so the packets are ffmpeg's byte for byte.
///
/// Takes float planar audio in chunks of any size and re-chunks it to the encoder's frames (1152
/// samples at 32…48 kHz, 576 below). Packets are one MP3 frame each, with pts/dts/duration in
/// 1/sampleRate as libavcodec stamps them: the first starts at -`primingSamples` (LAME's delay
/// plus the decoder's 529, what an MP4 edit list or the LAME tag hides), the last one's duration
/// ends at the end of the input. Every packet is a sync sample.
public final class MP3Encoder {
    public let settings: MP3Settings
    public let sampleRate: Int
    public let channels: Int
    /// Samples of delay before the first input sample (1105 at 44.1 kHz: LAME's 576 + 529).
    public let primingSamples: Int
    /// Samples per MP3 frame.
    public let frameSize: Int

    /// The open codec context, its frame and re-chunking.
    private let core: LibavAudioEncoder

    /// - Parameter startPTS: the pts (in samples) of the first input sample.
    public init(settings: MP3Settings, sampleRate: Int, channels: Int, startPTS: Int64 = 0) throws {
        try settings.validate(sampleRate: sampleRate, channels: channels)
        LibraryLog.install()
        self.settings = settings
        self.sampleRate = sampleRate
        self.channels = channels
        guard let codec = avcodec_find_encoder_by_name("libmp3lame") else {
            throw CodecError(.openFailed, component: "mp3", message: "this libavcodec has no libmp3lame encoder (ffmpeg -encoders lists it when built with --enable-libmp3lame)")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw CodecError(.openFailed, component: "mp3", message: "out of memory allocating the codec context")
        }
        ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        ctx.pointee.sample_rate = Int32(sampleRate)
        LibavFormats.setChannelLayout(&ctx.pointee.ch_layout, .unspecified, channels: channels)
        ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if let q = settings.quality {
            // what ffmpeg's -q:a sets: libmp3lame turns it into lame_set_VBR_quality
            ctx.pointee.flags |= AV_CODEC_FLAG_QSCALE
            ctx.pointee.global_quality = Int32(q) * Int32(FF_QP2LAMBDA)
        } else {
            ctx.pointee.bit_rate = Int64(settings.effectiveBitrate ?? 128) * 1000
        }
        let opened = avcodec_open2(ctx, codec, nil)
        guard opened >= 0 else {
            let message = LibraryLog.message("libmp3lame refused to open at \(sampleRate) Hz, \(channels) channels", code: opened, context: UnsafeMutableRawPointer(ctx))
            var owned: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&owned)
            throw CodecError(.openFailed, component: "mp3", message: message)
        }
        core = try LibavAudioEncoder(component: "mp3", context: ctx, defaultFrameSize: 1152, startPTS: startPTS)
        frameSize = core.frameSize
        primingSamples = Int(ctx.pointee.initial_padding)
    }

    /// Encodes `count` samples of each channel (`planes.count == channels`).
    public func encode(_ planes: [UnsafePointer<Float>], count: Int) throws -> [EncodedPacket] {
        guard planes.count == channels, count >= 0 else {
            throw CodecError(.invalidInput, component: "mp3",
                             message: "at sample \(core.samplesIn): expected \(channels) channel planes, found \(planes.count)")
        }
        return try core.feed(count: count) { target, channel, offset, n in
            target.update(from: planes[channel] + offset, count: n)
        }
    }

    /// Encodes what is left (a last, shorter frame) and drains the encoder.
    public func flush() throws -> [EncodedPacket] { try core.flush() }
}

extension MP3Encoder: FloatAudioEncoder {
    public var takesInterleaved: Bool { core.interleaved }
    public func encode(floats: UnsafePointer<Float>, count: Int, planeStride: Int) throws -> [EncodedPacket] {
        try core.feed(floats: floats, count: count, planeStride: planeStride)
    }
}
