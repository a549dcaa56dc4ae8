import CAVCodec
import MediaGraphCore

/// What a video decoder did.
public struct VideoDecoderStatistics: Sendable, Equatable {
    public var packetsIn = 0
    /// Pictures libavcodec returned (including those dropped before time zero).
    public var picturesDecoded = 0
    /// Frames handed out.
    public var framesOut = 0
    /// Frames handed out in the pooled memory libavcodec decoded into (no copy).
    public var zeroCopyFrames = 0
    /// Frames copied: a decoder without direct rendering (libdav1d), cropping at the top or left,
    /// or a picture shown a second time.
    public var copiedFrames = 0
    /// Frames converted with libswscale to the declared format (a pixel format MediaGraph has no
    /// name for, or a stream that changed size or format).
    public var convertedFrames = 0
    /// Pictures before time zero (the lead-in of a trim) or flagged decode-only (of a segment), decoded and dropped.
    public var droppedBeforeZero = 0
    /// Pictures at or after the end mark, decoded and dropped.
    public var droppedAtEnd = 0
    /// Pictures whose best-effort time did not advance past the previous picture's (a packet
    /// without pts), moved to where the previous one ends.
    public var retimedPictures = 0
}

/// A video decoder over libavcodec. Packets in (`send`), frames out (`receive`) in the format
/// declared at creation — normally `EncodedVideoFormat.raw`, what the container says decoding
/// yields — with the packets' time base.
///
/// - Frame and slice threading (`threads`: 0 lets libavcodec use every core, as ffmpeg does).
/// - Pictures are decoded straight into pooled frames (`DecoderFramePool`, libavcodec's
///   `get_buffer2`), and that `SampleBuffer` is what `receive` returns: no copy. Decoders
///   without direct rendering (libdav1d) and the rare picture cropped at its top or left edge
///   are copied once into a pooled frame; pictures in a layout MediaGraph has no format for
///   (nv12, gbrp, pal8, p010 …) or of another size than declared are converted with libswscale.
///   Each case is counted in `statistics`.
/// - Timestamps are libavcodec's best-effort presentation time (as ffmpeg uses), moved to where
///   the previous picture ends when that does not advance (a packet without pts); pictures before
///   time zero (a trim's lead-in) and at or after the end mark are decoded and dropped.
public final class VideoDecoder {
    public let input: EncodedVideoFormat
    /// The format of every frame `receive` returns.
    public let output: VideoFormat
    /// The libavcodec decoder in use ("h264", "hevc", "libdav1d" …).
    public let decoderName: String
    /// Whether the decoder writes into pooled frames (libavcodec's direct rendering).
    public let decodesIntoPool: Bool
    public private(set) var statistics = VideoDecoderStatistics()
    /// How the last decoded picture described itself.
    public private(set) var lastPicture: DecodedPictureInfo?
    /// Set once pictures stop matching the declared format: when, and what they were.
    public private(set) var formatChange: (pts: Int64, description: String)?
    /// Presentation ends here (packets' time base): later pictures are decoded and dropped. Set
    /// by a packet flagged `BufferFlags.endOfPresentation` (its pts + duration).
    public var endPTS: Int64?
    /// Pictures at or before this time are decoded and dropped: the latest pts of a packet
    /// flagged `BufferFlags.decodeOnly`. Every such packet reaches the decoder before a later
    /// picture can come out (pictures leave in presentation order), so none is shown by mistake.
    public private(set) var hiddenThroughPTS: Int64?

    private let component: String
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// A packet libavcodec refused with EAGAIN, sent again once frames were received.
    private var packetPending = false
    private var draining = false
    private let pool: DecoderFramePool
    private let poolOpaque: Unmanaged<DecoderFramePool>
    private var converter: DecodedPictureConverter?
    /// The layout the container states (yuyv422, nv12, yuv420p12le…) where our nearest format is
    /// declared instead: its pictures are converted from the start, as planned, and are not a
    /// format change.
    private lazy var statedLayout: Int32? = input.storedLayout.map { av_get_pix_fmt($0).rawValue }
    private var nextPTS: Int64?
    /// The time of the last picture decoded (dropped ones too).
    private var lastPTS: Int64?
    private let nominalDuration: Int64
    /// The packets libavcodec's frame threads hold (time, whether a seek's lead-in), oldest
    /// first: with frame threading a result (a picture or an error) belongs to the packet sent
    /// `frameThreadDepth` sends ago.
    private var inFlight: [(pts: Int64, leadIn: Bool)] = []
    private var frameThreadDepth = 0

    /// - Parameters:
    ///   - output: the format frames are delivered in (default: `input.raw` in the packets' time
    ///     base).
    ///   - threads: decoding threads, 0 for libavcodec's choice (every core).
    public init(input: EncodedVideoFormat, output: VideoFormat? = nil, threads: Int = 0) throws {
        LibraryLog.install()
        self.input = input
        var declared = output ?? input.raw
        if output == nil { declared.timeBase = input.timeBase }
        self.output = declared
        component = "\(input.codec) decoder"
        if let problem = MediaLimits.frameSizeProblem(width: declared.width, height: declared.height) {
            throw CodecError(.invalidSetting, component: component, message: "the stream's \(problem)")
        }
        guard threads >= 0 && threads <= 64 else {
            throw CodecError.setting(component, "threads", expected: "0...64", found: "\(threads)")
        }
        let rate = declared.frameRate.num > 0 && declared.frameRate.den > 0 ? declared.frameRate : Rational(25, 1)
        let tb = declared.timeBase
        nominalDuration = max(1, Int64((Double(rate.den) * Double(tb.den) / (Double(rate.num) * Double(max(1, tb.num)))).rounded()))
        let decoder = try DecoderContext.findDecoder(input.codec, component: component)
        decoderName = String(cString: decoder.pointee.name)
        decodesIntoPool = decoder.pointee.capabilities & AV_CODEC_CAP_DR1 != 0
        pool = DecoderFramePool(timeBase: tb)
        poolOpaque = Unmanaged.passRetained(pool)
        // From here every stored property is set: a throw runs deinit, which releases the pool
        // (and frees the context once `context` holds it), so nothing below releases it again.
        let ctx = try DecoderContext.allocate(decoder, extradata: input.extradata, timeBase: input.timeBase, component: component)
        ctx.pointee.width = Int32(input.raw.width)
        ctx.pointee.height = Int32(input.raw.height)
        // what the container states, as ffmpeg passes it on (avcodec_parameters_to_context):
        // uncompressed video (Y4M, AVI, NUT) says its layout only there, and QuickTime Animation
        // or MS RLE its bits per sample; their decoders refuse to open without them
        if let layout = input.storedLayout { ctx.pointee.pix_fmt = av_get_pix_fmt(layout) }
        ctx.pointee.bits_per_coded_sample = Int32(clamping: input.codedBitsPerSample)
        if let sar = DecoderContext.avRational(input.raw.sampleAspect) { ctx.pointee.sample_aspect_ratio = sar }
        if let fr = DecoderContext.avRational(input.raw.frameRate) { ctx.pointee.framerate = fr }
        // pictures beyond the limits are refused by libavcodec itself (a hostile header must not
        // make it allocate gigabytes)
        ctx.pointee.max_pixels = Int64(MediaLimits.maxPixels)
        ctx.pointee.thread_count = Int32(threads)
        ctx.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        // Cropping is applied here: bottom/right by the frame's size (no copy), top/left by a
        // copy (libavcodec would offset the data pointers, and only to an alignment).
        ctx.pointee.apply_cropping = 0
        // the pool is also what the decoder's log messages are kept under (LibraryLog)
        ctx.pointee.opaque = poolOpaque.toOpaque()
        if decodesIntoPool {
            ctx.pointee.get_buffer2 = pooledGetBuffer
            // libavcodec 59 still asks whether the callback may run on its frame threads: it may
            mg_declare_thread_safe_callbacks(ctx)
        }
        try DecoderContext.open(ctx, decoder, component: component) // frees ctx when it throws
        context = ctx
        if ctx.pointee.active_thread_type & FF_THREAD_FRAME != 0 { frameThreadDepth = max(0, Int(ctx.pointee.thread_count) - 1) }
        inFlight.reserveCapacity(frameThreadDepth + 2)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard frame != nil, packet != nil else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating a frame")
        }
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        // frees libavcodec's references to pooled pictures (their free callbacks run here or
        // when the graph lets go of the frames); the pool object lives as long as they do
        avcodec_free_context(&context)
        _ = LibraryLog.take(for: poolOpaque.toOpaque())
        poolOpaque.release()
    }

    /// Frame blocks this decoder's pools allocated (stops growing once the decoder is warm).
    public var poolBlocksAllocated: Int { pool.allocatedBlocks }
    /// Whether `pointer` is the start of a pooled block this decoder gave libavcodec.
    public func isPoolBlock(_ pointer: UnsafeRawPointer) -> Bool { pool.isPoolBlock(pointer) }

    /// Sends an encoded packet (its bytes, timestamps and key flag). Call `receive` until it
    /// returns nil before sending the next one. Throws when libavcodec rejects the packet (the
    /// message names its time); the decoder stays usable, so a caller may skip it and go on.
    public func send(_ packet: SampleBuffer) throws {
        if packet.flags.contains(.endOfPresentation), packet.pts != SampleBuffer.noTime {
            let end = packet.pts + max(0, packet.duration)
            endPTS = min(endPTS ?? end, end)
        }
        if packet.flags.contains(.decodeOnly), packet.pts != SampleBuffer.noTime {
            hiddenThroughPTS = max(hiddenThroughPTS ?? packet.pts, packet.pts)
        }
        // read in place: a demuxed packet's bytes are libavformat's buffer, not copied until here
        try packet.withUnsafeBytes {
            try send(bytes: $0, pts: packet.pts, dts: packet.dts, duration: packet.duration, keyFrame: packet.flags.contains(.keyFrame),
                     palette: packet.metadata.palette, leadIn: packet.flags.contains(.leadIn))
        }
    }

    /// - Parameters:
    ///   - palette: a paletted codec's palette from this packet on, where the container gives it
    ///     apart from the bytes (`DemuxedPacket.palette`): passed to libavcodec as the packet's
    ///     AV_PKT_DATA_PALETTE, as ffmpeg passes it. Without it pal8 raw video from AVI decodes
    ///     with an all-black palette.
    ///   - leadIn: the packet is flagged `BufferFlags.leadIn` (an error on it, before any frame
    ///     was handed out, is marked `CodecError.inSeekLeadIn`).
    public func send(bytes: UnsafeRawBufferPointer, pts: Int64, dts: Int64, duration: Int64, keyFrame: Bool,
                     palette: [UInt8]? = nil, leadIn: Bool = false) throws {
        guard let ctx = context, let pkt = packet else { return }
        guard !draining else {
            throw CodecError(.invalidInput, component: component, message: "a packet at \(DecoderContext.describeTime(pts, input.timeBase)) arrived after the end of the stream")
        }
        guard !packetPending else {
            throw CodecError(.invalidInput, component: component, message: "receive the decoded frames before sending the next packet")
        }
        // an empty packet would tell libavcodec the stream has ended
        guard !bytes.isEmpty else { return }
        try DecoderContext.fill(pkt, bytes: bytes, pts: pts, dts: dts, duration: duration, keyFrame: keyFrame, component: component)
        if let palette, !palette.isEmpty {
            guard let side = av_packet_new_side_data(pkt, AV_PKT_DATA_PALETTE, palette.count) else {
                av_packet_unref(pkt)
                throw CodecError(.invalidInput, component: component, message: "cannot allocate a packet's palette")
            }
            palette.withUnsafeBytes { side.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: palette.count) }
        }
        statistics.packetsIn += 1
        inFlight.append((pts, leadIn))
        let r = avcodec_send_packet(ctx, pkt)
        if r == mg_averror_eagain() {
            packetPending = true
            return
        }
        av_packet_unref(pkt)
        let settled = inFlight.count > frameThreadDepth ? inFlight.removeFirst() : (pts, leadIn)
        if r < 0 { throw failure(settled, code: r) }
    }

    /// Tells the decoder no more packets come; `receive` then returns the delayed frames.
    public func sendEndOfStream() throws {
        guard let ctx = context, !draining else { return }
        if packetPending {
            // the last packet still waits; frames must be received first
            throw CodecError(.invalidInput, component: component, message: "receive the decoded frames before ending the stream")
        }
        draining = true
        let r = avcodec_send_packet(ctx, nil)
        if r < 0 && r != mg_averror_eof() { throw failure("draining failed", code: r) }
    }

    /// The next decoded frame, or nil when the decoder needs another packet (or has drained).
    public func receive() throws -> SampleBuffer? {
        guard let ctx = context, let frame else { return nil }
        while true {
            let r = avcodec_receive_frame(ctx, frame)
            if r == mg_averror_eagain() {
                guard packetPending, let pkt = packet else { return nil }
                packetPending = false
                let s = avcodec_send_packet(ctx, pkt)
                av_packet_unref(pkt)
                let settled = inFlight.count > frameThreadDepth ? inFlight.removeFirst() : (inFlight.last ?? (SampleBuffer.noTime, false))
                if s < 0 { throw failure(settled, code: s) }
                continue
            }
            if r == mg_averror_eof() { return nil }
            if r < 0 {
                // while draining, the oldest packet still held is the one that failed
                let settled = draining && !inFlight.isEmpty ? inFlight.removeFirst() : (inFlight.first ?? (SampleBuffer.noTime, false))
                throw failure(settled, code: r)
            }
            if draining && !inFlight.isEmpty { inFlight.removeFirst() }
            let out: SampleBuffer?
            do {
                out = try picture(from: frame)
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
                   message: LibraryLog.message(what, code: code, context: poolOpaque.toOpaque()))
    }

    /// The packet `settled` cannot be decoded; marked when it is a seek's lead-in and nothing
    /// was handed out yet.
    private func failure(_ settled: (pts: Int64, leadIn: Bool), code: Int32) -> CodecError {
        var e = failure("the packet at \(DecoderContext.describeTime(settled.pts, input.timeBase)) cannot be decoded", code: code)
        e.inSeekLeadIn = settled.leadIn && statistics.framesOut == 0
        return e
    }

    /// The frame for a decoded picture (nil when it lies before time zero).
    private func picture(from f: UnsafeMutablePointer<AVFrame>) throws -> SampleBuffer? {
        statistics.picturesDecoded += 1
        var pts = f.pointee.best_effort_timestamp
        if pts == SampleBuffer.noTime {
            pts = nextPTS ?? 0
        } else if let last = lastPTS, pts <= last, let next = nextPTS {
            // The guess repeats an earlier time where a packet had no pts: the source gives it
            // its dts, which a decoder that holds pictures back (MPEG-2, H.264 with B-frames)
            // shows a picture late, and at the end of the stream libavcodec has no later dts
            // to guess from. Presentation order is increasing, so the picture follows on
            // where the previous one ends (ffmpeg takes the dts it predicts for the flush).
            pts = next
            statistics.retimedPictures += 1
        }
        let duration = f.pointee.pkt_duration > 0 ? f.pointee.pkt_duration : nominalDuration
        lastPTS = pts
        nextPTS = pts + duration
        let top = Int(f.pointee.crop_top), left = Int(f.pointee.crop_left)
        let width = Int(f.pointee.width) - left - Int(f.pointee.crop_right)
        let height = Int(f.pointee.height) - top - Int(f.pointee.crop_bottom)
        guard width > 0, height > 0, top >= 0, left >= 0 else {
            throw CodecError(.processingFailed, component: component,
                             message: "the picture at \(DecoderContext.describeTime(pts, output.timeBase)) has no visible area after cropping")
        }
        let info = DecodedPictureInfo(f, width: width, height: height)
        lastPicture = info
        if pts < 0 || pts <= hiddenThroughPTS ?? .min {
            statistics.droppedBeforeZero += 1
            return nil
        }
        if let end = endPTS, pts >= end {
            statistics.droppedAtEnd += 1
            return nil
        }
        let sameLayout = info.pixelFormat == output.pixelFormat && width == output.width && height == output.height
        let metadata = BufferMetadata(format: .video(output), pts: pts, dts: pts, duration: duration, timeBase: output.timeBase,
                                      flags: info.bufferFlags)
        let out: SampleBuffer
        if sameLayout, top == 0, left == 0, let pooled = pool.pooledMemory(of: f), pooled.firstShowing {
            out = SampleBuffer(metadata: metadata, payload: .video(pooled.memory))
            statistics.zeroCopyFrames += 1
        } else if sameLayout {
            var w = WritableBuffer(frame: output, timeBase: output.timeBase)
            copy(f, top: top, left: left, into: w.planes!)
            w.metadata = metadata
            out = w.freeze()
            statistics.copiedFrames += 1
        } else {
            var w = try convert(f, info: info, top: top, left: left, pts: pts)
            w.metadata = metadata
            out = w.freeze()
            statistics.convertedFrames += 1
        }
        statistics.framesOut += 1
        return out
    }

    /// Plane pointers of a picture moved to its visible top-left corner.
    private func cropped(_ f: UnsafeMutablePointer<AVFrame>, top: Int, left: Int, format: Int32) -> [UnsafeMutablePointer<UInt8>?] {
        var planes: [UnsafeMutablePointer<UInt8>?] = [f.pointee.data.0, f.pointee.data.1, f.pointee.data.2, f.pointee.data.3]
        guard top != 0 || left != 0, let desc = av_pix_fmt_desc_get(AVPixelFormat(rawValue: format)) else { return planes }
        let strides = [f.pointee.linesize.0, f.pointee.linesize.1, f.pointee.linesize.2, f.pointee.linesize.3]
        let isChroma: (Int) -> Bool = { $0 == 1 || $0 == 2 }
        let steps = [desc.pointee.comp.0, desc.pointee.comp.1, desc.pointee.comp.2, desc.pointee.comp.3]
        // bytes per pixel step of each plane (from the component that lives in it)
        var step = [1, 1, 1, 1]
        for c in steps where Int(c.plane) < 4 && c.step > 0 { step[Int(c.plane)] = Int(c.step) }
        let paletted = desc.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
        for p in 0..<4 where planes[p] != nil {
            if paletted && p == 1 { continue }  // the palette
            let sx = isChroma(p) ? Int(desc.pointee.log2_chroma_w) : 0
            let sy = isChroma(p) ? Int(desc.pointee.log2_chroma_h) : 0
            planes[p] = planes[p]! + (top >> sy) * Int(strides[p]) + (left >> sx) * step[p]
        }
        return planes
    }

    /// Copies the visible area of a picture of our layout into `out`.
    private func copy(_ f: UnsafeMutablePointer<AVFrame>, top: Int, left: Int, into out: FramePlanes) {
        let source = cropped(f, top: top, left: left, format: f.pointee.format)
        let strides = [Int(f.pointee.linesize.0), Int(f.pointee.linesize.1), Int(f.pointee.linesize.2)]
        for p in 0..<out.planeCount {
            guard let src = source[p] else { continue }
            let rows = out.planeSize(p).height, bytes = out.rowBytes(p)
            for y in 0..<rows {
                (out.data(p) + y * out.stride(p)).update(from: src + y * strides[p], count: bytes)
            }
        }
    }

    /// Converts a picture that does not match the declared format.
    private func convert(_ f: UnsafeMutablePointer<AVFrame>, info: DecodedPictureInfo, top: Int, left: Int, pts: Int64) throws -> WritableBuffer {
        let format = f.pointee.format
        let full = info.range == .full
        let planned = format == statedLayout && info.width == output.width && info.height == output.height
        if formatChange == nil && !planned {
            var what = "\(info.pixelFormatName) \(info.width)x\(info.height)"
            if full { what += " full range" }
            formatChange = (pts, what)
        }
        let visibleWidth = Int32(info.width), visibleHeight = Int32(info.height)
        if converter?.matches(format: format, width: visibleWidth, height: visibleHeight, fullRange: full) != true {
            converter = try DecodedPictureConverter(sourceFormat: format, width: visibleWidth, height: visibleHeight, sourceFullRange: full,
                                                    sourceMatrix: info.matrix == .unspecified ? output.matrix : info.matrix,
                                                    destination: output, component: component)
        }
        let out = WritableBuffer(frame: output, timeBase: output.timeBase)
        let planes = cropped(f, top: top, left: left, format: format)
        let ok = converter!.convert(data: (planes[0], planes[1], planes[2], planes[3]),
                                    strides: (f.pointee.linesize.0, f.pointee.linesize.1, f.pointee.linesize.2, f.pointee.linesize.3),
                                    into: out.planes!)
        guard ok else {
            throw CodecError(.processingFailed, component: component,
                             message: "converting the \(info.pixelFormatName) picture at \(DecoderContext.describeTime(pts, output.timeBase)) to \(output.pixelFormat) failed")
        }
        return out
    }
}
