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

    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var filled = 0
    private var nextPTS: Int64
    private var samplesIn: Int64 = 0
    private var flushed = false

    /// - Parameter startPTS: the pts (in samples) of the first input sample.
    public init(settings: MP3Settings, sampleRate: Int, channels: Int, startPTS: Int64 = 0) throws {
        try settings.validate(sampleRate: sampleRate, channels: channels)
        LibraryLog.install()
        self.settings = settings
        self.sampleRate = sampleRate
        self.channels = channels
        nextPTS = startPTS
        guard let codec = avcodec_find_encoder_by_name("libmp3lame") else {
            throw CodecError(.openFailed, component: "mp3", message: "this libavcodec has no libmp3lame encoder (ffmpeg -encoders lists it when built with --enable-libmp3lame)")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw CodecError(.openFailed, component: "mp3", message: "out of memory allocating the codec context")
        }
        context = ctx
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
            throw CodecError(.openFailed, component: "mp3",
                             message: LibraryLog.message("libmp3lame refused to open at \(sampleRate) Hz, \(channels) channels", code: opened, context: UnsafeMutableRawPointer(ctx)))
        }
        frameSize = Int(ctx.pointee.frame_size > 0 ? ctx.pointee.frame_size : 1152)
        primingSamples = Int(ctx.pointee.initial_padding)

        guard let f = av_frame_alloc(), let p = av_packet_alloc() else {
            throw CodecError(.openFailed, component: "mp3", message: "out of memory allocating a frame")
        }
        frame = f
        packet = p
        f.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        f.pointee.nb_samples = Int32(frameSize)
        f.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_copy(&f.pointee.ch_layout, &ctx.pointee.ch_layout)
        let allocated = av_frame_get_buffer(f, 0)
        guard allocated >= 0 else {
            throw CodecError(.openFailed, component: "mp3", message: "allocating the frame: \(LibraryLog.describe(allocated))")
        }
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        _ = LibraryLog.take(for: context.map { UnsafeMutableRawPointer($0) })
        avcodec_free_context(&context)
    }

    /// Encodes `count` samples of each channel (`planes.count == channels`).
    public func encode(_ planes: [UnsafePointer<Float>], count: Int) throws -> [EncodedPacket] {
        guard planes.count == channels, count >= 0 else {
            throw CodecError(.invalidInput, component: "mp3",
                             message: "at sample \(samplesIn): expected \(channels) channel planes, found \(planes.count)")
        }
        guard let frame else { return [] }
        guard !flushed else {
            throw CodecError(.invalidInput, component: "mp3", message: "audio at sample \(samplesIn) arrived after flush")
        }
        var out: [EncodedPacket] = []
        var done = 0
        while done < count {
            if filled == 0 {
                // The encoder has let go of the previous frame's buffer; this never copies.
                let writable = av_frame_make_writable(frame)
                guard writable >= 0 else {
                    throw CodecError(.processingFailed, component: "mp3", message: "frame buffer: \(LibraryLog.describe(writable))")
                }
            }
            let n = min(frameSize - filled, count - done)
            for c in 0..<channels {
                guard let plane = frame.pointee.extended_data[c] else { continue }
                (UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self) + filled).update(from: planes[c] + done, count: n)
            }
            filled += n
            done += n
            samplesIn += Int64(n)
            if filled == frameSize { try sendFrame(into: &out) }
        }
        return out
    }

    /// Encodes what is left (a last, shorter frame) and drains the encoder.
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
            throw CodecError(.processingFailed, component: "mp3",
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
            throw CodecError(.processingFailed, component: "mp3",
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
                throw CodecError(.processingFailed, component: "mp3",
                                 message: LibraryLog.message("encoding failed at sample \(samplesIn)", code: r, context: UnsafeMutableRawPointer(ctx)))
            }
            out.append(EncodedPacket(data: Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))),
                                     pts: packet.pointee.pts, dts: packet.pointee.dts,
                                     duration: packet.pointee.duration, isKeyFrame: true))
            av_packet_unref(packet)
        }
    }
}
