import CAVCodec
import MediaGraphCore

/// Text subtitle cues re-encoded by libavcodec, as ffmpeg transcodes subtitles: the source
/// codec's decoder turns a cue into ASS events (avcodec_decode_subtitle2), the target codec's
/// encoder writes them (avcodec_encode_subtitle) with the decoder's ASS header. So ASS styling
/// becomes SubRip's <b>/<i>/<font> or WebVTT's tags, or is dropped, exactly where ffmpeg's
/// encoders do it.
///
/// Not thread-safe: one instance per stream, used from one thread.
public final class SubtitleTranscoder {
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private let timeBase: Rational
    private var output: [UInt8]
    private let component: String

    /// Opens a decoder for `source` and an encoder for `target` (libavcodec's codec names).
    public init(from source: SubtitleFormat, to target: Codec) throws {
        component = "\(source.codec) to \(target) subtitles"
        timeBase = source.timeBase
        output = [UInt8](repeating: 0, count: MediaLimits.maxSubtitlePacketSize)
        let decoderCodec = try DecoderContext.findDecoder(source.codec, component: component)
        let dec = try DecoderContext.allocate(decoderCodec, extradata: source.extradata, timeBase: source.timeBase, component: component)
        try DecoderContext.open(dec, decoderCodec, component: component)
        decoder = dec
        guard let descriptor = avcodec_descriptor_get_by_name(target.rawValue),
              let encoderCodec = avcodec_find_encoder(descriptor.pointee.id) else {
            throw CodecError(.openFailed, component: component, message: "this libavcodec has no \(target) encoder")
        }
        guard let enc = avcodec_alloc_context3(encoderCodec) else {
            throw CodecError(.openFailed, component: component, message: "out of memory allocating the encoder context")
        }
        encoder = enc
        // ffmpeg's subtitle encoders run on AV_TIME_BASE and get the decoder's ASS header
        enc.pointee.time_base = AVRational(num: 1, den: 1_000_000)
        if let header = dec.pointee.subtitle_header, dec.pointee.subtitle_header_size > 0 {
            let n = Int(dec.pointee.subtitle_header_size)
            guard let copy = av_mallocz(n + 1) else {
                throw CodecError(.openFailed, component: component, message: "out of memory copying the subtitle header")
            }
            copy.copyMemory(from: header, byteCount: n)
            enc.pointee.subtitle_header = copy.assumingMemoryBound(to: UInt8.self)
            enc.pointee.subtitle_header_size = Int32(n)
        }
        let opened = avcodec_open2(enc, encoderCodec, nil)
        guard opened >= 0 else {
            throw CodecError(.openFailed, component: component,
                             message: LibraryLog.message("the \(target) encoder refused to open", code: opened, context: UnsafeMutableRawPointer(enc)))
        }
    }

    deinit {
        avcodec_free_context(&decoder)
        avcodec_free_context(&encoder)
    }

    /// The cue re-encoded; nil when the decoder finds no text in it (an empty cue, which ffmpeg
    /// leaves out too). `pts` and `duration` are in the source's time base.
    public func transcode(_ bytes: PacketBytes, pts: Int64, duration: Int64) throws -> [UInt8]? {
        guard let decoder, let encoder else { return nil }
        guard bytes.count <= MediaLimits.maxSubtitlePacketSize else {
            throw CodecError(.invalidInput, component: component,
                             message: "a cue of \(bytes.count) bytes is above the limit of \(MediaLimits.maxSubtitlePacketSize)")
        }
        guard let packet = av_packet_alloc() else {
            throw CodecError(.processingFailed, component: component, message: "out of memory allocating a packet")
        }
        defer { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
        // the decoders read a padded, zero-terminated copy
        guard av_new_packet(packet, Int32(bytes.count)) >= 0 else {
            throw CodecError(.processingFailed, component: component, message: "out of memory for a cue of \(bytes.count) bytes")
        }
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress, raw.count > 0 { packet.pointee.data.update(from: base.assumingMemoryBound(to: UInt8.self), count: raw.count) }
        }
        packet.pointee.pts = pts
        packet.pointee.dts = pts
        packet.pointee.duration = duration
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        let used = avcodec_decode_subtitle2(decoder, &subtitle, &got, packet)
        defer { avsubtitle_free(&subtitle) }
        guard used >= 0 else {
            throw CodecError(.processingFailed, component: component,
                             message: LibraryLog.message("the \(String(cString: decoder.pointee.codec.pointee.name)) decoder refused the cue at \(DecoderContext.describeTime(pts, timeBase))",
                                                         code: used, context: UnsafeMutableRawPointer(decoder)))
        }
        guard got != 0, subtitle.num_rects > 0 else { return nil }
        // as ffmpeg: the cue starts at its pts, start_display_time folded in
        subtitle.end_display_time -= subtitle.start_display_time
        subtitle.start_display_time = 0
        let size = output.withUnsafeMutableBufferPointer { buf in
            avcodec_encode_subtitle(encoder, buf.baseAddress, Int32(buf.count), &subtitle)
        }
        guard size >= 0 else {
            throw CodecError(.processingFailed, component: component,
                             message: LibraryLog.message("the \(String(cString: encoder.pointee.codec.pointee.name)) encoder refused the cue at \(DecoderContext.describeTime(pts, timeBase))",
                                                         code: size, context: UnsafeMutableRawPointer(encoder)))
        }
        return Array(output[..<Int(size)])
    }
}
