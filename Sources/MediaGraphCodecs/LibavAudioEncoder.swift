import CAVCodec
import MediaGraphCore

/// What the audio encoders over libavcodec (`aac`, `libmp3lame`, `libopus`) share once their
/// codec context is open: re-chunking float samples (planar, or interleaved for libopus) of any
/// count into the encoder's frames, stamping them with sample-counted pts, and collecting
/// packets as libavcodec stamps them.
final class LibavAudioEncoder {
    /// The component errors are reported for ("aac", "mp3").
    let component: String
    let channels: Int
    /// Samples per frame the encoder takes.
    let frameSize: Int
    private(set) var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var filled = 0
    private var nextPTS: Int64
    /// Samples taken so far (for messages).
    private(set) var samplesIn: Int64 = 0
    private var flushed = false

    /// Whether frames hold interleaved float (libopus's format) instead of planar.
    let interleaved: Bool

    /// Takes over `context`, opened with float planar samples, or interleaved float when
    /// `interleaved` (freed with this object, also when this throws). `startPTS`: the pts (in
    /// samples) of the first input sample.
    init(component: String, context ctx: UnsafeMutablePointer<AVCodecContext>, defaultFrameSize: Int, startPTS: Int64,
         interleaved: Bool = false) throws {
        self.interleaved = interleaved
        self.component = component
        context = ctx
        channels = Int(ctx.pointee.ch_layout.nb_channels)
        frameSize = Int(ctx.pointee.frame_size > 0 ? ctx.pointee.frame_size : Int32(defaultFrameSize))
        nextPTS = startPTS
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let f = frame, packet != nil else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating a frame")
        }
        f.pointee.format = (interleaved ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_FLTP).rawValue
        f.pointee.nb_samples = Int32(frameSize)
        f.pointee.sample_rate = ctx.pointee.sample_rate
        av_channel_layout_copy(&f.pointee.ch_layout, &ctx.pointee.ch_layout)
        let allocated = av_frame_get_buffer(f, 0)
        guard allocated >= 0 else {
            throw CodecError(.openFailed, component: component, message: "allocating the frame: \(LibraryLog.describe(allocated))")
        }
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        _ = LibraryLog.take(for: context.map { UnsafeMutableRawPointer($0) })
        avcodec_free_context(&context)
    }

    /// `FloatAudioEncoder.encode(floats:count:planeStride:)` for either frame layout.
    func feed(floats: UnsafePointer<Float>, count: Int, planeStride: Int) throws -> [EncodedPacket] {
        if interleaved {
            let channels = self.channels
            return try feedInterleaved(count: count) { target, offset, n in target.update(from: floats + offset * channels, count: n * channels) }
        }
        return try feed(count: count) { target, channel, offset, n in target.update(from: floats + channel * planeStride + offset, count: n) }
    }

    /// Re-chunks `count` samples into the encoder's planar frames; `copy` fills `n` samples of
    /// one channel, starting at input sample `offset`, into the frame's plane.
    func feed(count: Int,
              copy: (_ target: UnsafeMutablePointer<Float>, _ channel: Int, _ offset: Int, _ n: Int) -> Void) throws -> [EncodedPacket] {
        try chunks(count: count) { frame, filled, offset, n in
            for c in 0..<channels {
                guard let plane = frame.pointee.extended_data[c] else { continue }
                copy(UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self) + filled, c, offset, n)
            }
        }
    }

    /// Re-chunks `count` samples into the encoder's interleaved frames; `copy` fills `n`
    /// samples of every channel, starting at input sample `offset`, at `target`.
    func feedInterleaved(count: Int,
                         copy: (_ target: UnsafeMutablePointer<Float>, _ offset: Int, _ n: Int) -> Void) throws -> [EncodedPacket] {
        try chunks(count: count) { frame, filled, offset, n in
            copy(UnsafeMutableRawPointer(frame.pointee.data.0!).assumingMemoryBound(to: Float.self) + filled * channels, offset, n)
        }
    }

    /// The frame loop: `fill` puts `n` samples from input sample `offset` into the frame after
    /// its first `filled`; a full frame is sent.
    private func chunks(count: Int, fill: (UnsafeMutablePointer<AVFrame>, _ filled: Int, _ offset: Int, _ n: Int) -> Void) throws -> [EncodedPacket] {
        guard let frame else { return [] }
        guard !flushed else {
            throw CodecError(.invalidInput, component: component, message: "audio at sample \(samplesIn) arrived after flush")
        }
        var out: [EncodedPacket] = []
        var done = 0
        while done < count {
            if filled == 0 {
                // The encoder has let go of the previous frame's buffer; this never copies.
                let writable = av_frame_make_writable(frame)
                guard writable >= 0 else {
                    throw CodecError(.processingFailed, component: component, message: "frame buffer: \(LibraryLog.describe(writable))")
                }
            }
            let n = min(frameSize - filled, count - done)
            fill(frame, filled, done, n)
            filled += n
            done += n
            samplesIn += Int64(n)
            if filled == frameSize { try sendFrame(into: &out) }
        }
        return out
    }

    /// Encodes what is left (a last, shorter frame) and drains the encoder.
    func flush() throws -> [EncodedPacket] {
        guard let ctx = context, !flushed else { return [] }
        var out: [EncodedPacket] = []
        if filled > 0 {
            frame?.pointee.nb_samples = Int32(filled)
            try sendFrame(into: &out)
        }
        flushed = true
        let sent = avcodec_send_frame(ctx, nil)
        guard sent >= 0 else {
            throw CodecError(.processingFailed, component: component,
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
            throw CodecError(.processingFailed, component: component,
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
                throw CodecError(.processingFailed, component: component,
                                 message: LibraryLog.message("encoding failed at sample \(samplesIn)", code: r, context: UnsafeMutableRawPointer(ctx)))
            }
            out.append(EncodedPacket(data: Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))),
                                     pts: packet.pointee.pts, dts: packet.pointee.dts,
                                     duration: packet.pointee.duration, isKeyFrame: true))
            av_packet_unref(packet)
        }
    }
}
