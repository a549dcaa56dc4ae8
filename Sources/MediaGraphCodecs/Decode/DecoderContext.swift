import CAVCodec
import MediaGraphCore

/// Opening a libavcodec decoder, shared by the video and audio decoders.
enum DecoderContext {
    /// The decoder libavcodec prefers for a codec name (`avcodec_find_decoder` of its id, as
    /// ffmpeg chooses: libdav1d for av1, mp3float for mp3 …).
    static func findDecoder(_ codec: Codec, component: String) throws -> UnsafePointer<AVCodec> {
        guard let descriptor = avcodec_descriptor_get_by_name(codec.rawValue) else {
            throw CodecError(.openFailed, component: component, message: "libavcodec knows no codec named '\(codec.rawValue)'")
        }
        guard let decoder = avcodec_find_decoder(descriptor.pointee.id) else {
            throw CodecError(.openFailed, component: component, message: "this libavcodec has no decoder for \(codec.rawValue)")
        }
        return decoder
    }

    /// Allocates a context for `decoder` with the codec-private data the container stored.
    static func allocate(_ decoder: UnsafePointer<AVCodec>, extradata: [UInt8], timeBase: Rational,
                         component: String) throws -> UnsafeMutablePointer<AVCodecContext> {
        guard let ctx = avcodec_alloc_context3(decoder) else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating the codec context")
        }
        if !extradata.isEmpty {
            guard extradata.count < 1 << 28, let data = av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
                var failed: UnsafeMutablePointer<AVCodecContext>? = ctx
                avcodec_free_context(&failed)
                throw CodecError(.openFailed, component: component, message: "codec private data of \(extradata.count) bytes is too large")
            }
            extradata.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: extradata.count) }
            ctx.pointee.extradata = data.assumingMemoryBound(to: UInt8.self)
            ctx.pointee.extradata_size = Int32(extradata.count)
        }
        if let tb = avRational(timeBase) { ctx.pointee.pkt_timebase = tb }
        return ctx
    }

    /// Opens `ctx`; frees it and throws the library's words when that fails.
    static func open(_ ctx: UnsafeMutablePointer<AVCodecContext>, _ decoder: UnsafePointer<AVCodec>, component: String) throws {
        let opened = avcodec_open2(ctx, decoder, nil)
        guard opened >= 0 else {
            let message = LibraryLog.message("the \(String(cString: decoder.pointee.name)) decoder refused to open", code: opened,
                                             context: ctx.pointee.opaque ?? UnsafeMutableRawPointer(ctx))
            var failed: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&failed)
            throw CodecError(.openFailed, component: component, message: message)
        }
    }

    static func avRational(_ r: Rational) -> AVRational? {
        guard r.num > 0, r.den > 0, r.num <= Int64(Int32.max), r.den <= Int64(Int32.max) else { return nil }
        return AVRational(num: Int32(r.num), den: Int32(r.den))
    }

    /// "1.234 s (pts 1234 in 1/1000)" for error messages.
    static func describeTime(_ pts: Int64, _ timeBase: Rational) -> String {
        guard pts != SampleBuffer.noTime else { return "a packet without timestamp" }
        let seconds = Double(pts) * timeBase.doubleValue
        var s = String(seconds.rounded(toPlaces: 3))
        if !s.contains(".") { s += ".0" }
        return "\(s) s (pts \(pts) in \(timeBase))"
    }

    /// A packet's bytes as libavcodec wants them: refcounted, with zeroed padding (one copy).
    static func fill(_ packet: UnsafeMutablePointer<AVPacket>, bytes: UnsafeRawBufferPointer, pts: Int64, dts: Int64, duration: Int64,
                     keyFrame: Bool, component: String) throws {
        av_packet_unref(packet)
        guard bytes.count < Int(Int32.max) - Int(AV_INPUT_BUFFER_PADDING_SIZE), av_new_packet(packet, Int32(bytes.count)) >= 0 else {
            throw CodecError(.invalidInput, component: component, message: "cannot allocate a packet of \(bytes.count) bytes")
        }
        if let base = bytes.baseAddress { UnsafeMutableRawPointer(packet.pointee.data).copyMemory(from: base, byteCount: bytes.count) }
        packet.pointee.pts = pts
        packet.pointee.dts = dts
        packet.pointee.duration = duration
        packet.pointee.flags = keyFrame ? AV_PKT_FLAG_KEY : 0
    }
}

extension Double {
    func rounded(toPlaces n: Int) -> Double {
        var scale = 1.0
        for _ in 0..<n { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
