import CAVCodec
import CAVFormat
import Foundation
import MediaGraphCore

/// Reads one stream of a file with libavformat and hands its packets over as a file source does
/// (the contract in the decoder tests; the `filesrc` node is written elsewhere):
/// - the stream's codec parameters become an `EncodedVideoFormat`/`EncodedAudioFormat`;
/// - timestamps are rebased by the file's start time, as ffmpeg does without -copyts;
/// - audio timestamps are counted in samples (time base 1/rate), so that the start skip libavformat
///   signals in side data (AAC priming, Opus pre-skip, MP3 encoder delay) becomes a first packet
///   at exactly -skip, and the end padding of the last packet its `.endOfPresentation` mark
///   (the packet's duration then ends where presentation ends).
enum TestDemuxer {
    struct Stream {
        var format: MediaFormat
        var packets: [SampleBuffer]
        var encodedVideo: EncodedVideoFormat? { if case .encodedVideo(let f) = format { return f } else { return nil } }
        var encodedAudio: EncodedAudioFormat? { if case .encodedAudio(let f) = format { return f } else { return nil } }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func read(_ path: String, video: Bool) throws -> Stream {
        var ic: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_open_input(&ic, path, nil, nil) >= 0, let ctx = ic else { throw Failure(description: "cannot open \(path)") }
        defer { avformat_close_input(&ic) }
        guard avformat_find_stream_info(ctx, nil) >= 0 else { throw Failure(description: "no stream info in \(path)") }
        let index = av_find_best_stream(ctx, video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let st = ctx.pointee.streams[Int(index)] else { throw Failure(description: "no stream in \(path)") }
        let par = st.pointee.codecpar.pointee
        let tb = Rational(Int64(st.pointee.time_base.num), Int64(st.pointee.time_base.den))
        let codecName = String(cString: avcodec_get_name(par.codec_id))
        let extradata = par.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(par.extradata_size))) } ?? []
        let startTime = ctx.pointee.start_time == Int64.min ? 0 : ctx.pointee.start_time
        let offset = av_rescale_q(startTime, AVRational(num: 1, den: 1_000_000), st.pointee.time_base)

        let format: MediaFormat
        var sampleRate: Int64 = 0
        if video {
            let mapped = pixelFormat(par.format)
            var rate = st.pointee.avg_frame_rate
            if rate.num <= 0 || rate.den <= 0 { rate = st.pointee.r_frame_rate }
            let frameRate = rate.num > 0 && rate.den > 0 ? Rational(Int64(rate.num), Int64(rate.den)) : Rational(25, 1)
            let range: ColorRange = mapped.full ? .full : (par.color_range == AVCOL_RANGE_JPEG ? .full : par.color_range == AVCOL_RANGE_MPEG ? .limited : .unspecified)
            let sar = par.sample_aspect_ratio
            let raw = VideoFormat(pixelFormat: mapped.format, width: Int(par.width), height: Int(par.height), frameRate: frameRate,
                                  range: range, matrix: YCbCrMatrix(code: Int(par.color_space.rawValue)),
                                  color: VideoColor(primaries: ColorPrimaries(code: Int(par.color_primaries.rawValue)),
                                                    transfer: TransferCharacteristic(code: Int(par.color_trc.rawValue)),
                                                    chromaLocation: ChromaLocation(code: Int(par.chroma_location.rawValue))),
                                  sampleAspect: sar.num > 0 && sar.den > 0 ? Rational(Int64(sar.num), Int64(sar.den)) : Rational(1, 1),
                                  timeBase: tb)
            format = .encodedVideo(EncodedVideoFormat(codec: Codec(codecName, kind: .video), raw: raw, timeBase: tb, extradata: extradata))
        } else {
            sampleRate = Int64(par.sample_rate)
            let layout = par.ch_layout.order == AV_CHANNEL_ORDER_NATIVE ? ChannelLayout(mask: par.ch_layout.u.mask) : .unspecified
            let raw = AudioFormat(sampleFormat: sampleFormat(par.format), sampleRate: Int(par.sample_rate),
                                  channels: Int(par.ch_layout.nb_channels), channelLayout: layout)
            format = .encodedAudio(EncodedAudioFormat(codec: Codec(codecName, kind: .audio), raw: raw,
                                                      timeBase: Rational(1, sampleRate), extradata: extradata))
        }

        var packets: [SampleBuffer] = []
        guard let pkt = av_packet_alloc() else { throw Failure(description: "out of memory") }
        var p: UnsafeMutablePointer<AVPacket>? = pkt
        defer { av_packet_free(&p) }
        var audioShift: Int64?
        var clock: Int64?
        let precision = max(1, Int64((Double(sampleRate) * tb.doubleValue).rounded(.up)))
        let isOgg = String(cString: ctx.pointee.iformat.pointee.name) == "ogg"
        while av_read_frame(ctx, pkt) >= 0 {
            defer { av_packet_unref(pkt) }
            guard pkt.pointee.stream_index == index else { continue }
            let bytes = Array(UnsafeBufferPointer(start: pkt.pointee.data, count: Int(pkt.pointee.size)))
            var pts = pkt.pointee.pts == Int64.min ? Int64.min : pkt.pointee.pts - offset
            var dts = pkt.pointee.dts == Int64.min ? Int64.min : pkt.pointee.dts - offset
            var duration = pkt.pointee.duration
            var flags: BufferFlags = pkt.pointee.flags & AV_PKT_FLAG_KEY != 0 ? .keyFrame : []
            var packetTimeBase = tb
            if !video {
                // samples, exactly
                let toSamples = { (t: Int64) -> Int64 in t == Int64.min ? t : av_rescale_q(t, st.pointee.time_base, AVRational(num: 1, den: Int32(sampleRate))) }
                // A sample clock that follows the packets' durations and re-anchors only where
                // a packet's own time differs by more than the time base can express (WebM's
                // milliseconds would otherwise put packets up to half a millisecond off).
                let stated = toSamples(pts == Int64.min ? dts : pts)
                duration = toSamples(duration)
                if stated != Int64.min {
                    if let c = clock, abs(stated - c) <= precision { pts = c } else { pts = stated }
                    clock = pts + duration
                } else {
                    pts = clock ?? 0
                    clock = pts + duration
                }
                dts = pts
                packetTimeBase = Rational(1, sampleRate)
                var size: Int = 0
                var skipStart: Int64 = 0, discardEnd: Int64 = 0
                if let side = av_packet_get_side_data(pkt, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 10 {
                    skipStart = Int64(side[0]) | Int64(side[1]) << 8 | Int64(side[2]) << 16 | Int64(side[3]) << 24
                    discardEnd = Int64(side[4]) | Int64(side[5]) << 8 | Int64(side[6]) << 16 | Int64(side[7]) << 24
                }
                if audioShift == nil { audioShift = skipStart > 0 && pts != Int64.min ? -skipStart - pts : 0 }
                if pts != Int64.min { pts += audioShift!; dts = pts }
                if discardEnd > 0 {
                    // The padding is cut from what the packet decodes to. Ogg's demuxer has
                    // already shortened the packet's duration by it (granule positions); other
                    // containers (Matroska's DiscardPadding) give the whole packet's duration.
                    if !isOgg && duration > discardEnd { duration -= discardEnd }
                    flags.insert(.endOfPresentation)
                }
            }
            packets.append(SampleBuffer(bytes: bytes, format: format, pts: pts, dts: dts, duration: duration,
                                        timeBase: packetTimeBase, flags: flags))
        }
        return Stream(format: format, packets: packets)
    }

    /// The layouts the decoders deliver natively; others are declared as the nearest of ours
    /// (the decoder converts to it).
    static func pixelFormat(_ av: Int32) -> (format: PixelFormat, full: Bool) {
        switch av {
        case AV_PIX_FMT_YUVJ420P.rawValue: return (.yuv420p, true)
        case AV_PIX_FMT_YUVJ422P.rawValue: return (.yuv422p, true)
        case AV_PIX_FMT_YUVJ444P.rawValue: return (.yuv444p, true)
        case AV_PIX_FMT_YUV422P.rawValue: return (.yuv422p, false)
        case AV_PIX_FMT_YUV444P.rawValue: return (.yuv444p, false)
        case AV_PIX_FMT_YUV420P10LE.rawValue: return (.yuv420p10, false)
        case AV_PIX_FMT_YUV422P10LE.rawValue: return (.yuv422p10, false)
        case AV_PIX_FMT_YUV444P10LE.rawValue: return (.yuv444p10, false)
        case AV_PIX_FMT_GRAY8.rawValue: return (.gray, false)
        case AV_PIX_FMT_RGBA.rawValue: return (.rgba, false)
        case AV_PIX_FMT_BGRA.rawValue: return (.bgra, false)
        default: return (.yuv420p, false)
        }
    }

    static func sampleFormat(_ av: Int32) -> SampleFormat {
        switch av {
        case AV_SAMPLE_FMT_U8.rawValue: return .u8
        case AV_SAMPLE_FMT_S16.rawValue: return .s16
        case AV_SAMPLE_FMT_S32.rawValue: return .s32
        case AV_SAMPLE_FMT_FLT.rawValue: return .f32
        case AV_SAMPLE_FMT_DBL.rawValue: return .f64
        case AV_SAMPLE_FMT_U8P.rawValue: return .u8planar
        case AV_SAMPLE_FMT_S16P.rawValue: return .s16planar
        case AV_SAMPLE_FMT_S32P.rawValue: return .s32planar
        case AV_SAMPLE_FMT_DBLP.rawValue: return .f64planar
        default: return .f32planar
        }
    }
}
