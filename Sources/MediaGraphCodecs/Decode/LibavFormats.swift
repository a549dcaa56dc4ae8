import CAVCodec
import MediaGraphCore

/// Translations between libavutil's pixel and sample formats and MediaGraph's.
enum LibavFormats {
    /// libavutil's pixel format with the same memory layout as each of ours: the one map between
    /// the two, read in both directions.
    static let pixelFormats: [(format: PixelFormat, av: AVPixelFormat)] = [
        (.yuv420p, AV_PIX_FMT_YUV420P), (.yuv422p, AV_PIX_FMT_YUV422P), (.yuv444p, AV_PIX_FMT_YUV444P),
        (.rgba, AV_PIX_FMT_RGBA), (.bgra, AV_PIX_FMT_BGRA), (.gray, AV_PIX_FMT_GRAY8),
        (.yuv420p10, AV_PIX_FMT_YUV420P10LE), (.yuv422p10, AV_PIX_FMT_YUV422P10LE),
        (.yuv444p10, AV_PIX_FMT_YUV444P10LE),
    ]

    /// The deprecated `yuvj…` formats: the layout of `yuv…`, tagged full range.
    private static let fullRangeAliases: [(format: PixelFormat, av: AVPixelFormat)] = [
        (.yuv420p, AV_PIX_FMT_YUVJ420P), (.yuv422p, AV_PIX_FMT_YUVJ422P), (.yuv444p, AV_PIX_FMT_YUVJ444P),
    ]

    /// Our pixel format with the same memory layout as a libavutil one, and whether the libavutil
    /// format implies full range (RGB formats and the `yuvj…` ones do).
    /// nil for layouts MediaGraph has no format for (nv12, gbrp, pal8, yuva…, p010, 12-bit …).
    static func pixelFormat(_ av: Int32) -> (format: PixelFormat, fullRange: Bool)? {
        if let f = pixelFormats.first(where: { $0.av.rawValue == av })?.format {
            return (f, f == .rgba || f == .bgra)
        }
        if let f = fullRangeAliases.first(where: { $0.av.rawValue == av })?.format { return (f, true) }
        return nil
    }

    /// libavutil's format for ours.
    static func avPixelFormat(_ format: PixelFormat) -> AVPixelFormat {
        // every PixelFormat is in the table: NONE would be a programming error
        pixelFormats.first { $0.format == format }?.av ?? AV_PIX_FMT_NONE
    }

    /// libavutil's name of a pixel format ("nv12", "yuvj420p", …).
    static func pixelFormatName(_ av: Int32) -> String {
        guard let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: av)) else { return "pixel format \(av)" }
        return String(cString: name)
    }

    /// Our sample format for a libavutil one (nil for s64/s64p, which MediaGraph does not carry).
    static func sampleFormat(_ av: Int32) -> SampleFormat? {
        switch av {
        case AV_SAMPLE_FMT_U8.rawValue: return .u8
        case AV_SAMPLE_FMT_S16.rawValue: return .s16
        case AV_SAMPLE_FMT_S32.rawValue: return .s32
        case AV_SAMPLE_FMT_FLT.rawValue: return .f32
        case AV_SAMPLE_FMT_DBL.rawValue: return .f64
        case AV_SAMPLE_FMT_U8P.rawValue: return .u8planar
        case AV_SAMPLE_FMT_S16P.rawValue: return .s16planar
        case AV_SAMPLE_FMT_S32P.rawValue: return .s32planar
        case AV_SAMPLE_FMT_FLTP.rawValue: return .f32planar
        case AV_SAMPLE_FMT_DBLP.rawValue: return .f64planar
        default: return nil
        }
    }

    static func avSampleFormat(_ format: SampleFormat) -> AVSampleFormat {
        switch format {
        case .u8: return AV_SAMPLE_FMT_U8
        case .s16: return AV_SAMPLE_FMT_S16
        case .s32: return AV_SAMPLE_FMT_S32
        case .f32: return AV_SAMPLE_FMT_FLT
        case .f64: return AV_SAMPLE_FMT_DBL
        case .u8planar: return AV_SAMPLE_FMT_U8P
        case .s16planar: return AV_SAMPLE_FMT_S16P
        case .s32planar: return AV_SAMPLE_FMT_S32P
        case .f32planar: return AV_SAMPLE_FMT_FLTP
        case .f64planar: return AV_SAMPLE_FMT_DBLP
        }
    }

    static func sampleFormatName(_ av: Int32) -> String {
        guard let name = av_get_sample_fmt_name(AVSampleFormat(rawValue: av)) else { return "sample format \(av)" }
        return String(cString: name)
    }

    /// The range a frame states (libavutil: 1 limited "tv", 2 full "pc").
    static func range(_ r: AVColorRange) -> ColorRange {
        switch r {
        case AVCOL_RANGE_MPEG: return .limited
        case AVCOL_RANGE_JPEG: return .full
        default: return .unspecified
        }
    }

    /// A channel layout as a mask (0 when it is not a native-order layout, i.e. unspecified).
    static func channelLayout(_ layout: AVChannelLayout) -> ChannelLayout {
        layout.order == AV_CHANNEL_ORDER_NATIVE ? ChannelLayout(mask: layout.u.mask) : .unspecified
    }

    /// Fills `layout` with ours, or the default order for `channels` when ours is unspecified.
    static func setChannelLayout(_ layout: UnsafeMutablePointer<AVChannelLayout>, _ ours: ChannelLayout, channels: Int) {
        av_channel_layout_uninit(layout)
        if ours.mask != 0 && ours.mask.nonzeroBitCount == channels {
            _ = av_channel_layout_from_mask(layout, ours.mask)
        } else {
            av_channel_layout_default(layout, Int32(channels))
        }
    }
}
