import CAVCodec
import CAVFormat
import MediaGraphCore

/// Turns libavformat's description of a stream (AVStream, AVCodecParameters) into `StreamInfo`.
/// The colour enums' raw numbers are H.273 code points on both sides, so they map by number.
enum LibavStreamMapping {
    static func info(_ st: UnsafeMutablePointer<AVStream>, in ctx: UnsafeMutablePointer<AVFormatContext>) -> StreamInfo {
        let par = st.pointee.codecpar!.pointee
        let kind: StreamInfo.Kind
        switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        case AVMEDIA_TYPE_DATA: kind = .data
        case AVMEDIA_TYPE_ATTACHMENT: kind = .attachment
        default: kind = .unknown
        }
        let codecKind: Codec.Kind = kind == .video ? .video : kind == .audio ? .audio : kind == .subtitle ? .subtitle : .data
        let name = String(cString: avcodec_get_name(par.codec_id))
        let tb = st.pointee.time_base
        var s = StreamInfo(index: Int(st.pointee.index), kind: kind, codec: Codec(name, kind: codecKind),
                           timeBase: tb.num > 0 && tb.den > 0 ? Rational(Int64(tb.num), Int64(tb.den)) : Rational(1, 90000))
        if let desc = avcodec_descriptor_get(par.codec_id), let long = desc.pointee.long_name { s.codecLongName = String(cString: long) }
        let tag = (0..<4).map { UInt8(truncatingIfNeeded: par.codec_tag >> (8 * $0)) }
        if tag.allSatisfy({ (0x20...0x7E).contains($0) }) { s.codecTag = String(decoding: tag, as: UTF8.self) }
        if let p = avcodec_profile_name(par.codec_id, par.profile) { s.profileName = String(cString: p) }
        s.profile = Int(par.profile)
        s.level = Int(par.level)
        s.startTime = st.pointee.start_time == Int64.min ? nil : st.pointee.start_time
        s.duration = st.pointee.duration == Int64.min ? nil : st.pointee.duration
        s.frameCount = max(0, st.pointee.nb_frames)
        s.bitRate = max(0, par.bit_rate)
        if let e = par.extradata, par.extradata_size > 0 {
            s.extradata = Array(UnsafeBufferPointer(start: e, count: Int(par.extradata_size)))
        }
        s.tags = dictionary(st.pointee.metadata)
        if let l = s.tags["language"], !l.isEmpty, l != "und" { s.language = l }
        s.title = s.tags["title"]
        s.creationTime = s.tags["creation_time"].flatMap(CreationTime.parse)
        s.isDefault = st.pointee.disposition & AV_DISPOSITION_DEFAULT != 0
        s.isForced = st.pointee.disposition & AV_DISPOSITION_FORCED != 0
        s.isAttachedPicture = st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0

        switch kind {
        case .video: video(&s, st, par, ctx)
        case .audio: audio(&s, par)
        default: break
        }
        return s
    }

    private static func video(_ s: inout StreamInfo, _ st: UnsafeMutablePointer<AVStream>, _ par: AVCodecParameters,
                              _ ctx: UnsafeMutablePointer<AVFormatContext>) {
        s.width = Int(par.width)
        s.height = Int(par.height)
        let pf = PixelFormatMapping.map(par.format)
        s.pixelFormat = pf.format
        s.nativePixelFormat = pf.nativeName
        s.codedBitsPerSample = Int(max(0, par.bits_per_coded_sample))
        s.bitDepth = par.bits_per_raw_sample > 0 ? Int(par.bits_per_raw_sample) : pf.depth
        s.averageFrameRate = rational(st.pointee.avg_frame_rate)
        s.realFrameRate = rational(st.pointee.r_frame_rate)
        switch par.color_range {
        case AVCOL_RANGE_MPEG: s.range = .limited
        case AVCOL_RANGE_JPEG: s.range = .full
        default: s.range = pf.impliesFullRange ? .full : .unspecified
        }
        s.matrixCode = Int(par.color_space.rawValue)
        s.primariesCode = Int(par.color_primaries.rawValue)
        s.transferCode = Int(par.color_trc.rawValue)
        s.matrix = YCbCrMatrix(code: s.matrixCode)
        s.color = VideoColor(primaries: ColorPrimaries(code: s.primariesCode), transfer: TransferCharacteristic(code: s.transferCode),
                             chromaLocation: ChromaLocation(code: Int(par.chroma_location.rawValue)))
        func named(_ p: UnsafePointer<CChar>?, unless unspecified: Bool) -> String? {
            unspecified ? nil : p.map { String(cString: $0) }
        }
        s.colorNames.range = named(av_color_range_name(par.color_range), unless: par.color_range == AVCOL_RANGE_UNSPECIFIED)
        s.colorNames.space = named(av_color_space_name(par.color_space), unless: par.color_space == AVCOL_SPC_UNSPECIFIED)
        s.colorNames.primaries = named(av_color_primaries_name(par.color_primaries), unless: par.color_primaries == AVCOL_PRI_UNSPECIFIED)
        s.colorNames.transfer = named(av_color_transfer_name(par.color_trc), unless: par.color_trc == AVCOL_TRC_UNSPECIFIED)
        s.colorNames.chromaLocation = named(av_chroma_location_name(par.chroma_location), unless: par.chroma_location == AVCHROMA_LOC_UNSPECIFIED)
        let sar = av_guess_sample_aspect_ratio(ctx, st, nil)
        if sar.num > 0 && sar.den > 0 { s.sampleAspect = Rational(Int64(sar.num), Int64(sar.den)) }
        s.videoDelay = Int(par.video_delay)
        switch par.field_order {
        case AV_FIELD_PROGRESSIVE: s.fieldOrder = "progressive"
        case AV_FIELD_TT: s.fieldOrder = "tt"
        case AV_FIELD_BB: s.fieldOrder = "bb"
        case AV_FIELD_TB: s.fieldOrder = "tb"
        case AV_FIELD_BT: s.fieldOrder = "bt"
        default: s.fieldOrder = nil
        }
        var size: Int = 0
        if let m = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 {
            m.withMemoryRebound(to: Int32.self, capacity: 9) { matrix in
                let r = rotation(matrix)
                s.rotation = r.degrees
                s.isMirrored = r.mirrored
            }
        } else if let tag = s.tags["rotate"], let d = Int(tag) {
            // some demuxers keep only the tag
            s.rotation = ((d % 360) + 360) % 360
        }
    }

    /// The display matrix's rotation in MediaGraph's convention, snapped to a quarter turn: the
    /// angle the mp4 sink's `rotation` param and ffmpeg 5.1's `rotate` tag write, which is
    /// libavutil's av_display_rotation_get (so a file made with `-metadata:s:v rotate=90` reads
    /// as 90, and a copy through the mp4 sink keeps its matrix).
    static func rotation(_ matrix: UnsafePointer<Int32>) -> (degrees: Int, mirrored: Bool) {
        let angle = av_display_rotation_get(matrix)
        guard angle.isFinite else { return (0, false) }
        var d = Int(angle.rounded())
        d = ((d % 360) + 360) % 360
        let quarter = ((d + 45) / 90 * 90) % 360
        // determinant < 0: the matrix mirrors
        let det = Int64(matrix[0]) * Int64(matrix[4]) - Int64(matrix[1]) * Int64(matrix[3])
        return (quarter, det < 0)
    }

    private static func audio(_ s: inout StreamInfo, _ par: AVCodecParameters) {
        s.sampleRate = Int(par.sample_rate)
        s.channels = Int(par.ch_layout.nb_channels)
        if par.ch_layout.order == AV_CHANNEL_ORDER_NATIVE {
            s.channelLayout = ChannelLayout(mask: par.ch_layout.u.mask)
        }
        if par.ch_layout.order != AV_CHANNEL_ORDER_UNSPEC {
            var text = [CChar](repeating: 0, count: 128)
            var layout = par.ch_layout
            if av_channel_layout_describe(&layout, &text, text.count) > 0 { s.channelLayoutName = LibraryLog.text(text) }
        }
        if par.format >= 0, let n = av_get_sample_fmt_name(AVSampleFormat(rawValue: par.format)) {
            let name = String(cString: n)
            s.nativeSampleFormat = name
            s.sampleFormat = SampleFormat.allCases.first { $0.ffmpegName == name } ?? (name == "s64p" ? .s32planar : name == "s64" ? .s32 : .f32planar)
        }
        s.frameSize = Int(par.frame_size)
        s.blockAlign = Int(max(0, par.block_align))
        s.codedBitsPerSample = Int(max(0, par.bits_per_coded_sample))
        s.initialPadding = Int(par.initial_padding)
        s.bitDepth = Int(par.bits_per_raw_sample)
    }

    static func rational(_ r: AVRational) -> Rational? {
        r.num > 0 && r.den > 0 ? Rational(Int64(r.num), Int64(r.den)) : nil
    }

    /// The entries of an AVDictionary, in its order.
    static func tagList(_ d: OpaquePointer?) -> TagList {
        var out = TagList()
        var e: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(d, "", e, AV_DICT_IGNORE_SUFFIX) {
            if let k = next.pointee.key, let v = next.pointee.value { out.set(String(cString: k), String(cString: v)) }
            e = next
        }
        return out
    }

    /// The chapters of a format context (a time base that is not positive leaves a chapter out).
    static func chapters(_ ctx: UnsafeMutablePointer<AVFormatContext>) -> [Chapter] {
        guard let list = ctx.pointee.chapters else { return [] }
        return (0..<Int(ctx.pointee.nb_chapters)).compactMap { i -> Chapter? in
            guard let c = list[i]?.pointee, c.time_base.num > 0, c.time_base.den > 0 else { return nil }
            let title = av_dict_get(c.metadata, "title", nil, 0).flatMap { $0.pointee.value.map { String(cString: $0) } }
            return Chapter(id: c.id, start: c.start, end: c.end,
                           timeBase: Rational(Int64(c.time_base.num), Int64(c.time_base.den)), title: title)
        }
    }

    /// The entries of an AVDictionary.
    static func dictionary(_ d: OpaquePointer?) -> [String: String] {
        var out: [String: String] = [:]
        var e: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(d, "", e, AV_DICT_IGNORE_SUFFIX) {
            if let k = next.pointee.key, let v = next.pointee.value { out[String(cString: k)] = String(cString: v) }
            e = next
        }
        return out
    }
}

/// MediaGraph's pixel format for a libavutil one: the same when MediaGraph has it, else the
/// nearest of the same chroma layout (8 or 10 bits), which the decoder converts to. Paletted
/// formats (pal8: one byte of index, the palette of 256 ARGB words in data[1]) are colour with
/// alpha, whatever their one component says: they decode to rgba, the palette expanded.
enum PixelFormatMapping {
    struct Result {
        var format: PixelFormat
        var nativeName: String?
        var depth: Int
        /// The JPEG `yuvj…` formats are full-range by definition.
        var impliesFullRange: Bool
    }

    /// Whether libavutil's format of this name keeps a palette in data[1] (pal8).
    static func isPaletted(_ name: String?) -> Bool {
        guard let name else { return false }
        let av = av_get_pix_fmt(name)
        guard av != AV_PIX_FMT_NONE, let desc = av_pix_fmt_desc_get(av) else { return false }
        return desc.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
    }

    static func map(_ raw: Int32) -> Result {
        guard raw >= 0, let namePtr = av_get_pix_fmt_name(AVPixelFormat(rawValue: raw)),
              let desc = av_pix_fmt_desc_get(AVPixelFormat(rawValue: raw)) else {
            return Result(format: .yuv420p, nativeName: nil, depth: 0, impliesFullRange: false)
        }
        let name = String(cString: namePtr)
        let depth = Int(desc.pointee.comp.0.depth)
        if let exact = PixelFormat(rawValue: name) { return Result(format: exact, nativeName: name, depth: depth, impliesFullRange: false) }
        let jpeg = name.hasPrefix("yuvj")
        let flags = desc.pointee.flags
        let components = Int(desc.pointee.nb_components)
        let format: PixelFormat
        if flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 || flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0 {
            format = .rgba
        } else if components <= 2 {
            format = .gray
        } else {
            // the most subsampled of ours that still holds every chroma sample: 4:1:1 (DV NTSC)
            // into 4:2:2, 4:4:0 into 4:4:4, 4:1:0 into 4:2:0
            let w = Int(desc.pointee.log2_chroma_w), h = Int(desc.pointee.log2_chroma_h)
            let high = depth > 8
            switch (w, h) {
            case (0, _): format = high ? .yuv444p10 : .yuv444p
            case (_, 0): format = high ? .yuv422p10 : .yuv422p
            default: format = high ? .yuv420p10 : .yuv420p
            }
        }
        return Result(format: format, nativeName: name, depth: depth, impliesFullRange: jpeg)
    }
}

/// The `creation_time` tag as libavformat writes it ("2024-05-01T12:34:56.000000Z"; also with a
/// space instead of "T"), as seconds since 1970 UTC.
public enum CreationTime {
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 19 else { return nil }
        func num(_ r: Range<Int>) -> Int64? {
            var v: Int64 = 0
            for i in r { guard b[i] >= 48 && b[i] <= 57 else { return nil }; v = v * 10 + Int64(b[i] - 48) }
            return v
        }
        guard b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 32, b[13] == 58, b[16] == 58,
              let y = num(0..<4), let mo = num(5..<7), let d = num(8..<10),
              let h = num(11..<13), let mi = num(14..<16), let s = num(17..<19),
              (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        // days from the civil date (proleptic Gregorian), Howard Hinnant's algorithm
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (mo + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return days * 86400 + h * 3600 + mi * 60 + s
    }

    /// The ISO form of seconds since 1970 ("2024-05-01T12:34:56Z").
    public static func format(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rem = seconds - days * 86400
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d))T\(two(rem / 3600)):\(two(rem / 60 % 60)):\(two(rem % 60))Z"
    }
}
