import CAVCodec
import CSwscale
import MediaGraphCore

/// Encodes single frames as PNG, JPEG or WebP files with libavcodec (png, mjpeg, libwebp).
/// Created once for a source format and settings; each `encode` converts the frame with
/// libswscale (bicubic, as ffmpeg's automatic scaler) into a picture allocated once, encodes it,
/// and hands the file's bytes to the caller, who writes them through an output file (so nothing
/// half-written appears). Not thread-safe: one thread at a time.
///
/// Pixel formats written: PNG rgb24 (rgba when the source has alpha), JPEG yuvj420p or
/// yuvj444p (full range, BT.601, as JFIF says), WebP from bgra (libwebp converts to its own
/// YUV for lossy pictures, keeps alpha).
public final class StillImageEncoder {
    public let settings: StillImageSettings
    public let source: VideoFormat
    public let width: Int
    public let height: Int
    private let component: String
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private let sourcePlanes: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private let sourceStrides: UnsafeMutablePointer<Int32>
    private let qscaleLambda: Int32
    public private(set) var picturesEncoded = 0

    /// Why pictures of `source` frames with `settings` cannot be written, or nil: a WebP is at
    /// most 16383 pixels per side (libwebp refuses more, and only at the first picture), under
    /// the 16384 every frame may have. Sinks call this when the graph is validated.
    public static func sizeProblem(_ settings: StillImageSettings, source: VideoFormat) -> String? {
        let width = settings.width ?? source.width, height = settings.height ?? source.height
        let limit = WebPAnimationEncoder.maxSide
        guard settings.format == .webp, width > limit || height > limit else { return nil }
        return "a WebP is at most \(limit) pixels per side; the picture would be \(width)x\(height) (give 'width' and 'height', or add a scale node)"
    }

    /// Opens the encoder. Fails with a `CodecError` naming the setting when a value is out of
    /// range or the library lacks the encoder (`libwebp` is optional in ffmpeg builds).
    public init(settings: StillImageSettings, source: VideoFormat) throws {
        LibraryLog.install()
        component = settings.format.rawValue
        self.settings = settings
        self.source = source
        width = settings.width ?? source.width
        height = settings.height ?? source.height
        sourcePlanes = .allocate(capacity: 4)
        sourceStrides = .allocate(capacity: 4)
        sourcePlanes.initialize(repeating: nil, count: 4)
        sourceStrides.initialize(repeating: 0, count: 4)
        qscaleLambda = Int32(StillImageSettings.jpegQScale(quality: settings.quality)) * Int32(FF_QP2LAMBDA)
        // every stored property is set: a throw below runs deinit, which frees what was made
        guard StillImageSettings.qualityRange.contains(settings.quality) else {
            throw CodecError.setting(component, "quality", expected: "1...100", found: "\(settings.quality)")
        }
        if let e = settings.effort, !StillImageSettings.effortRange.contains(e) {
            throw CodecError.setting(component, "effort", expected: "0...9", found: "\(e)")
        }
        if let problem = MediaLimits.frameSizeProblem(width: width, height: height) {
            throw CodecError(.invalidSetting, component: component, message: "picture \(problem)")
        }
        if let problem = MediaLimits.frameSizeProblem(width: source.width, height: source.height) {
            throw CodecError(.invalidInput, component: component, message: "frame \(problem)")
        }
        if let problem = Self.sizeProblem(settings, source: source) {
            throw CodecError(.invalidSetting, component: component, message: problem)
        }
        let target = Self.targetPixelFormat(settings, source: source.pixelFormat)
        guard let codec = avcodec_find_encoder_by_name(settings.format.encoderName) else {
            throw CodecError(.openFailed, component: component,
                             message: "this libavcodec has no \(settings.format.encoderName) encoder, so \(settings.format.rawValue) cannot be written")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating the codec context")
        }
        context = ctx
        ctx.pointee.width = Int32(width)
        ctx.pointee.height = Int32(height)
        ctx.pointee.pix_fmt = target
        ctx.pointee.time_base = AVRational(num: 1, den: 25)
        ctx.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        var options: [(String, String)] = []
        switch settings.format {
        case .png:
            if let e = settings.effort { ctx.pointee.compression_level = Int32(e) }
        case .jpeg:
            ctx.pointee.color_range = AVCOL_RANGE_JPEG
            ctx.pointee.colorspace = AVCOL_SPC_BT470BG
            ctx.pointee.flags |= AV_CODEC_FLAG_QSCALE
            ctx.pointee.global_quality = qscaleLambda
            ctx.pointee.qmin = 1
        case .webp:
            options.append(("lossless", settings.lossless ? "1" : "0"))
            options.append(("quality", "\(settings.quality)"))
            if let e = settings.effort { ctx.pointee.compression_level = Int32(Swift.min(e, 6)) }
        }
        var dictionary: OpaquePointer? = nil
        defer { av_dict_free(&dictionary) }
        for (k, v) in options { av_dict_set(&dictionary, k, v, 0) }
        let opened = avcodec_open2(ctx, codec, &dictionary)
        guard opened >= 0 else {
            throw CodecError(.openFailed, component: component,
                             message: LibraryLog.message("\(settings.format.encoderName) refused to open for \(width)x\(height)", code: opened, context: UnsafeMutableRawPointer(ctx)))
        }
        _ = LibraryLog.take(for: UnsafeMutableRawPointer(ctx))
        guard let f = av_frame_alloc(), let p = av_packet_alloc() else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating a picture")
        }
        picture = f
        packet = p
        f.pointee.format = target.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        if settings.format == .jpeg { f.pointee.color_range = AVCOL_RANGE_JPEG }
        guard av_frame_get_buffer(f, 64) >= 0 else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating a \(width)x\(height) picture")
        }
        scaler = try Self.makeScaler(from: source, to: target, width: width, height: height,
                                     fullRangeOut: settings.format == .jpeg, component: component)
    }

    deinit {
        if let context { _ = LibraryLog.take(for: UnsafeMutableRawPointer(context)) }
        avcodec_free_context(&context)
        av_frame_free(&picture)
        av_packet_free(&packet)
        sws_freeContext(scaler)
        sourcePlanes.deallocate()
        sourceStrides.deallocate()
    }

    /// The libavutil pixel format the picture is encoded from.
    static func targetPixelFormat(_ s: StillImageSettings, source: PixelFormat) -> AVPixelFormat {
        switch s.format {
        case .png: return source == .rgba || source == .bgra ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24
        case .jpeg: return s.fullChroma ? AV_PIX_FMT_YUVJ444P : AV_PIX_FMT_YUVJ420P
        case .webp: return AV_PIX_FMT_BGRA
        }
    }

    /// A libswscale context set up as ffmpeg's scale filter sets one up (see `PixelConverter`):
    /// the source's range and matrix; the JPEG side full range BT.601.
    private static func makeScaler(from source: VideoFormat, to target: AVPixelFormat, width: Int, height: Int,
                                   fullRangeOut: Bool, component: String) throws -> OpaquePointer {
        guard let ctx = sws_alloc_context() else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating a libswscale context")
        }
        let sourceFull: Int32 = !source.pixelFormat.isRGB && source.range == .full ? 1 : 0
        let destinationFull: Int32 = fullRangeOut ? 1 : 0
        let options: [(String, Int64)] = [
            ("srcw", Int64(source.width)), ("srch", Int64(source.height)),
            ("src_format", Int64(LibavFormats.avPixelFormat(source.pixelFormat).rawValue)),
            ("dstw", Int64(width)), ("dsth", Int64(height)), ("dst_format", Int64(target.rawValue)),
            ("sws_flags", Int64(SWS_BICUBIC)), ("threads", 1),
            ("src_range", Int64(sourceFull)), ("dst_range", Int64(destinationFull)),
        ]
        for (name, value) in options where av_opt_set_int(UnsafeMutableRawPointer(ctx), name, value, 0) < 0 {
            sws_freeContext(ctx)
            throw CodecError(.openFailed, component: component, message: "libswscale refused option \(name)=\(value)")
        }
        guard sws_init_context(ctx, nil, nil) >= 0 else {
            sws_freeContext(ctx)
            throw CodecError(.openFailed, component: component,
                             message: "libswscale cannot convert \(source) to \(LibavFormats.pixelFormatName(target.rawValue)) \(width)x\(height)")
        }
        _ = sws_setColorspaceDetails(ctx, sws_getCoefficients(PixelConverter.swsColorspace(source.matrix)), sourceFull,
                                     sws_getCoefficients(SWS_CS_ITU601), destinationFull, 0, 1 << 16, 1 << 16)
        return ctx
    }

    /// Encodes one frame (of the source format given at creation, any strides) and calls `write`
    /// with the whole file's bytes, valid only during the call.
    public func encode(_ frame: FramePlanes, write: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let ctx = context, let picture, let packet, let scaler else { return }
        try FrameCheck.check(frame, format: source.pixelFormat, width: source.width, height: source.height,
                             component: component, frame: picturesEncoded)
        guard av_frame_make_writable(picture) >= 0 else {
            throw CodecError(.processingFailed, component: component, message: "out of memory for picture \(picturesEncoded)")
        }
        for i in 0..<3 {
            let p: UnsafeMutablePointer<UInt8>? = i == 0 ? frame.data0 : i == 1 ? frame.data1 : frame.data2
            sourcePlanes[i] = i < frame.planeCount ? UnsafePointer(p) : nil
            sourceStrides[i] = i < frame.planeCount ? Int32(frame.stride(i)) : 0
        }
        let rows = withUnsafeMutablePointer(to: &picture.pointee.data) { data in
            withUnsafeMutablePointer(to: &picture.pointee.linesize) { lines in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { d in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { l in
                        sws_scale(scaler, sourcePlanes, sourceStrides, 0, Int32(source.height), d, l)
                    }
                }
            }
        }
        guard rows == Int32(height) else {
            throw CodecError(.processingFailed, component: component,
                             message: "picture \(picturesEncoded): libswscale wrote \(rows) of \(height) rows")
        }
        picture.pointee.pts = Int64(picturesEncoded)
        if settings.format == .jpeg { picture.pointee.quality = qscaleLambda }
        let sent = avcodec_send_frame(ctx, picture)
        guard sent >= 0 else {
            throw CodecError(.processingFailed, component: component,
                             message: LibraryLog.message("picture \(picturesEncoded) was refused", code: sent, context: UnsafeMutableRawPointer(ctx)))
        }
        let received = avcodec_receive_packet(ctx, packet)
        guard received >= 0 else {
            throw CodecError(.processingFailed, component: component,
                             message: LibraryLog.message("encoding picture \(picturesEncoded) failed", code: received, context: UnsafeMutableRawPointer(ctx)))
        }
        defer { av_packet_unref(packet) }
        picturesEncoded += 1
        try write(UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }

    /// Encodes one frame into a new array (tests, thumbnails).
    public func encode(_ frame: FramePlanes) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(frame) { bytes = Array($0) }
        return bytes
    }
}
