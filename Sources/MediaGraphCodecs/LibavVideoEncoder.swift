import CAVCodec
import MediaGraphCore

/// The libavcodec encoder H264Encoder, HEVCEncoder and ProResEncoder wrap: opens a codec by name
/// with ffmpeg-style options, feeds frames of the pixel formats the caller allows (H.264/HEVC:
/// yuv420p or yuv420p10le, without copying them), and turns AVPackets into `EncodedPacket`s (for
/// H.264/HEVC in Annex B with the parameter sets in front of every key frame). The input format's colour (range, matrix, primaries, transfer, chroma siting) and
/// sample aspect ratio go on the codec context, as ffmpeg's command line sets them from the
/// decoded stream, so x264/x265 write them into the VUI.
final class LibavVideoEncoder {
    let component: String
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat
    let isHEVC: Bool
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// A reference-counted buffer that owns nothing: libavcodec copies frames that have no
    /// buffer, and the caller's planes stay valid for the whole call, so this avoids that copy.
    private var borrowedBuffer: UnsafeMutablePointer<AVBufferRef>?
    private var durations: FrameDurations
    /// Parameter sets in Annex B (the probe encoder's extradata), put in front of a key frame
    /// that arrives without them.
    private(set) var headers: [UInt8] = []
    private(set) var headerUnits: [[UInt8]] = []
    private(set) var packetsOut = 0
    private var flushed = false
    /// Whether frames go in without a copy: only for encoders that are done with a frame when
    /// `avcodec_send_frame` returns (x264, x265 copy it). A frame-threaded encoder (prores_ks)
    /// reads it later on a worker thread, after our planes have gone back to their pool, so
    /// libavcodec copies it instead.
    private let borrowsPlanes: Bool

    /// - Parameters:
    ///   - pixelFormats: the formats the encoder takes (yuv420p, yuv420p10le by default).
    ///   - parameterSets: whether the codec has H.264/HEVC parameter sets: they are then read
    ///     from a probe encoder opened with global headers, and put in front of key frames.
    ///   - borrowsPlanes: see `borrowsPlanes`.
    init(encoderName: String, component: String, options: [(String, String)], format: VideoFormat,
         timeBase: Rational, frameRate: Rational, pixelFormats: [PixelFormat] = [.yuv420p, .yuv420p10],
         parameterSets: Bool = true, borrowsPlanes: Bool = true) throws {
        LibraryLog.install()
        self.component = component
        self.width = format.width
        self.height = format.height
        self.pixelFormat = format.pixelFormat
        self.isHEVC = component == "hevc"
        self.borrowsPlanes = borrowsPlanes
        guard pixelFormats.contains(format.pixelFormat) else {
            throw CodecError.setting(component, "pixel format", expected: pixelFormats.map(\.rawValue).joined(separator: " or "),
                                     found: format.pixelFormat.rawValue)
        }
        let avFormat = LibavFormats.avPixelFormat(format.pixelFormat)
        durations = FrameDurations(timeBase: timeBase, frameRate: frameRate)
        guard timeBase.num > 0, timeBase.den > 0, timeBase.num <= Int32.max, timeBase.den <= Int32.max else {
            throw CodecError.setting(component, "timeBase", expected: "a positive rational that fits 32 bits", found: "\(timeBase)")
        }
        guard frameRate.num > 0, frameRate.den > 0, frameRate.num <= Int32.max, frameRate.den <= Int32.max else {
            throw CodecError.setting(component, "frameRate", expected: "a positive rational that fits 32 bits", found: "\(frameRate)")
        }
        guard let codec = avcodec_find_encoder_by_name(encoderName) else {
            throw CodecError(.openFailed, component: component, message: "this libavcodec has no \(encoderName) encoder")
        }
        let open = { (globalHeader: Bool) in
            try Self.openContext(codec: codec, encoderName: encoderName, component: component, options: options,
                                 format: format, pixelFormat: avFormat, timeBase: timeBase, frameRate: frameRate,
                                 globalHeader: globalHeader)
        }
        // The parameter sets at open come from a second encoder opened with global headers and
        // closed again. The encoder that runs has none: x264/x265 then write the parameter sets
        // in front of every key frame themselves, and count their bits in rate control and
        // name repeat-headers in their SEI, exactly as in `ffmpeg -c:v libx264 -f h264`.
        var probe: UnsafeMutablePointer<AVCodecContext>? = parameterSets ? try open(true) : nil
        if let probe, let extra = probe.pointee.extradata, probe.pointee.extradata_size > 0 {
            let bytes = UnsafeBufferPointer(start: extra, count: Int(probe.pointee.extradata_size))
            headers = Array(bytes)
            headerUnits = AnnexB.nalUnits(bytes).map { Array($0) }
        }
        _ = LibraryLog.take(for: probe.map { UnsafeMutableRawPointer($0) })
        avcodec_free_context(&probe)
        context = try open(false)
        guard let f = av_frame_alloc(), let p = av_packet_alloc() else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating a frame")
        }
        frame = f
        packet = p
        f.pointee.format = avFormat.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        borrowedBuffer = av_buffer_create(UnsafeMutablePointer<UInt8>(bitPattern: 1), 1, { _, _ in }, nil, 0)
        guard borrowedBuffer != nil else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating a buffer reference")
        }
    }

    /// Sets what the VUI says about the picture: libavutil's colour enums take the H.273 code
    /// points MediaGraph keeps (chroma siting: AVChromaLocation's); an unknown aspect is 0/1.
    static func describe(_ ctx: UnsafeMutablePointer<AVCodecContext>, as f: VideoFormat) {
        switch f.range {
        case .limited: ctx.pointee.color_range = AVCOL_RANGE_MPEG
        case .full: ctx.pointee.color_range = AVCOL_RANGE_JPEG
        case .unspecified: ctx.pointee.color_range = AVCOL_RANGE_UNSPECIFIED
        }
        ctx.pointee.colorspace = AVColorSpace(rawValue: UInt32(f.matrix.code))
        ctx.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(f.color.primaries.code))
        ctx.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(f.color.transfer.code))
        ctx.pointee.chroma_sample_location = AVChromaLocation(rawValue: UInt32(f.color.chromaLocation.code))
        let sar = f.sampleAspect
        if sar.num > 0, sar.den > 0, sar.num <= Int32.max, sar.den <= Int32.max {
            ctx.pointee.sample_aspect_ratio = AVRational(num: Int32(sar.num), den: Int32(sar.den))
        } else {
            ctx.pointee.sample_aspect_ratio = AVRational(num: 0, den: 1)
        }
    }

    /// Allocates and opens one codec context; frees it again when opening fails.
    private static func openContext(codec: UnsafePointer<AVCodec>, encoderName: String, component: String,
                                    options: [(String, String)], format: VideoFormat, pixelFormat: AVPixelFormat,
                                    timeBase: Rational, frameRate: Rational,
                                    globalHeader: Bool) throws -> UnsafeMutablePointer<AVCodecContext> {
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating the codec context")
        }
        var ok = false
        defer {
            if !ok {
                var failed: UnsafeMutablePointer<AVCodecContext>? = ctx
                avcodec_free_context(&failed)
            }
        }
        ctx.pointee.width = Int32(format.width)
        ctx.pointee.height = Int32(format.height)
        ctx.pointee.pix_fmt = pixelFormat
        describe(ctx, as: format)
        ctx.pointee.time_base = AVRational(num: Int32(timeBase.num), den: Int32(timeBase.den))
        ctx.pointee.framerate = AVRational(num: Int32(frameRate.num), den: Int32(frameRate.den))
        if globalHeader { ctx.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }

        var dictionary: OpaquePointer? = nil
        defer { av_dict_free(&dictionary) }
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        let opened = avcodec_open2(ctx, codec, &dictionary)
        let logContext = UnsafeMutableRawPointer(ctx)
        guard opened >= 0 else {
            throw CodecError(.openFailed, component: component,
                             message: LibraryLog.message("\(encoderName) refused to open", code: opened, context: logContext))
        }
        // libx264 only logs a bad x264-params entry and opens anyway: treat it as the failure it is.
        let errors = LibraryLog.takeErrors(for: logContext)
        if !errors.isEmpty {
            throw CodecError(.openFailed, component: component, message: "\(encoderName) refused its settings: \(errors.joined(separator: "; "))")
        }
        if let unused = av_dict_get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX) {
            let key = String(cString: unused.pointee.key)
            throw CodecError(.openFailed, component: component, param: key,
                             message: "\(encoderName) does not know the option '\(key)'")
        }
        ok = true
        return ctx
    }

    deinit {
        if let frame { frame.pointee.buf.0 = nil }
        av_frame_free(&frame)
        av_packet_free(&packet)
        av_buffer_unref(&borrowedBuffer)
        _ = LibraryLog.take(for: context.map { UnsafeMutableRawPointer($0) })
        avcodec_free_context(&context)
    }

    func encode(_ planes: FramePlanes, pts: Int64, duration: Int64) throws -> [EncodedPacket] {
        guard let ctx = context, let frame else { return [] }
        guard !flushed else {
            throw CodecError(.invalidInput, component: component, message: "frame \(durations.framesIn) arrived after flush")
        }
        try FrameCheck.check(planes, format: pixelFormat, width: width, height: height, component: component, frame: durations.framesIn)
        guard let u = planes.data1, let v = planes.data2 else { return [] }
        try durations.input(pts: pts, duration: duration, component: component)
        frame.pointee.data.0 = planes.data0
        frame.pointee.data.1 = u
        frame.pointee.data.2 = v
        frame.pointee.linesize.0 = Int32(planes.stride0)
        frame.pointee.linesize.1 = Int32(planes.stride1)
        frame.pointee.linesize.2 = Int32(planes.stride2)
        frame.pointee.pts = pts
        frame.pointee.pict_type = AV_PICTURE_TYPE_NONE
        frame.pointee.buf.0 = borrowsPlanes ? borrowedBuffer : nil
        let sent = avcodec_send_frame(ctx, frame)
        frame.pointee.buf.0 = nil
        guard sent >= 0 else {
            throw CodecError(.processingFailed, component: component,
                             message: LibraryLog.message("frame \(durations.framesIn - 1) (pts \(pts)) was refused", code: sent, context: UnsafeMutableRawPointer(ctx)))
        }
        return try receive()
    }

    func flush() throws -> [EncodedPacket] {
        guard let ctx = context else { return [] }
        if flushed { return [] }
        flushed = true
        let sent = avcodec_send_frame(ctx, nil)
        guard sent >= 0 else {
            throw CodecError(.processingFailed, component: component,
                             message: LibraryLog.message("draining failed", code: sent, context: UnsafeMutableRawPointer(ctx)))
        }
        return try receive()
    }

    private func receive() throws -> [EncodedPacket] {
        guard let ctx = context, let packet else { return [] }
        var out: [EncodedPacket] = []
        while true {
            let r = avcodec_receive_packet(ctx, packet)
            if r == mg_averror_eagain() || r == mg_averror_eof() { break }
            guard r >= 0 else {
                throw CodecError(.processingFailed, component: component,
                                 message: LibraryLog.message("encoding failed after \(packetsOut) packets", code: r, context: UnsafeMutableRawPointer(ctx)))
            }
            defer { av_packet_unref(packet) }
            let isKey = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
            let payload = UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))
            var data: [UInt8]
            if isKey && !headers.isEmpty && !AnnexB.hasSPS(payload, hevc: isHEVC) {
                data = headers
                if isHEVC {
                    data.append(contentsOf: payload)
                } else {
                    AnnexB.appendAfterHeaders(payload, to: &data)
                }
            } else {
                data = Array(payload)
            }
            let pts = packet.pointee.pts
            out.append(EncodedPacket(data: data, pts: pts, dts: packet.pointee.dts,
                                     duration: durations.duration(of: pts), isKeyFrame: isKey))
            packetsOut += 1
        }
        return out
    }
}
