import CVPX
import Foundation
import MediaGraphCore

/// libvpx's encoder (vpx_codec_enc_*), configured the way ffmpeg's libvpx wrapper configures it
/// for the same options and input. VP8Encoder and VP9Encoder wrap it. VP9 takes yuv420p10le in
/// profile 2 (libvpx's high-bit-depth path) and writes the input's colour space and range into
/// its colour config, as ffmpeg's wrapper does.
final class VPXEncoderCore {
    let component: String
    let width: Int
    let height: Int
    let pixelFormat: PixelFormat
    /// The VP9 profile the stream is written in (0: 8-bit 4:2:0, 2: 10-bit 4:2:0).
    let profile: Int
    private var codec = vpx_codec_ctx_t()
    private var image = vpx_image_t()
    private var isOpen = false
    private let deadline: UInt
    private var durations: FrameDurations
    private var flushed = false
    private(set) var packetsOut = 0

    init(vp9: Bool, settings: VPXSettings, format: VideoFormat, timeBase: Rational) throws {
        component = vp9 ? "vp9" : "vp8"
        width = format.width
        height = format.height
        pixelFormat = format.pixelFormat
        let frameRate = format.frameRate
        try settings.validate(vp9: vp9, width: width, height: height, pixelFormat: pixelFormat)
        let highBitDepth = pixelFormat.bitDepth > 8
        profile = settings.profile ?? (highBitDepth ? 2 : 0)
        guard timeBase.num > 0, timeBase.den > 0, timeBase.num <= Int32.max, timeBase.den <= Int32.max else {
            throw CodecError.setting(component, "timeBase", expected: "a positive rational that fits 32 bits", found: "\(timeBase)")
        }
        guard frameRate.num > 0, frameRate.den > 0 else {
            throw CodecError.setting(component, "frameRate", expected: "a positive rational", found: "\(frameRate)")
        }
        durations = FrameDurations(timeBase: timeBase, frameRate: frameRate)
        switch settings.deadline {
        case "realtime": deadline = UInt(VPX_DL_REALTIME)
        case "best": deadline = UInt(VPX_DL_BEST_QUALITY)
        default: deadline = UInt(VPX_DL_GOOD_QUALITY)
        }

        let iface = vp9 ? vpx_codec_vp9_cx() : vpx_codec_vp8_cx()
        var config = vpx_codec_enc_cfg_t()
        var status = vpx_codec_enc_config_default(iface, &config, 0)
        guard status == VPX_CODEC_OK else {
            throw CodecError(.openFailed, component: component, message: "libvpx has no default configuration: \(String(cString: vpx_codec_err_to_string(status)))")
        }
        config.g_w = UInt32(width)
        config.g_h = UInt32(height)
        config.g_timebase = vpx_rational(num: Int32(timeBase.num), den: Int32(timeBase.den))
        config.g_pass = VPX_RC_ONE_PASS
        config.g_profile = UInt32(profile)
        var flags: vpx_codec_flags_t = 0
        if highBitDepth {
            guard vpx_codec_get_caps(iface) & Int(VPX_CODEC_CAP_HIGHBITDEPTH) != 0 else {
                throw CodecError(.openFailed, component: component, message: "this libvpx was built without high bit depth: it cannot encode \(pixelFormat)")
            }
            config.g_bit_depth = VPX_BITS_10
            config.g_input_bit_depth = 10
            flags |= vpx_codec_flags_t(VPX_CODEC_USE_HIGHBITDEPTH)
        }
        let cores = settings.threads > 0 ? settings.threads : ProcessInfo.processInfo.activeProcessorCount
        config.g_threads = UInt32(min(cores, 16))
        if let lag = settings.lagInFrames { config.g_lag_in_frames = UInt32(lag) }
        if let keyint = settings.keyint { config.kf_max_dist = UInt32(keyint) }
        // Rate control as ffmpeg's wrapper derives it from -b:v and -crf.
        var cqLevel = settings.cqLevel
        if let bitrate = settings.bitrate {
            config.rc_target_bitrate = UInt32(bitrate)
            if cqLevel != nil { config.rc_end_usage = VPX_CQ }
        } else if cqLevel != nil {
            config.rc_end_usage = vp9 ? VPX_Q : VPX_CQ
        } else if vp9 {
            config.rc_end_usage = VPX_Q
            cqLevel = 32
        }
        // libvpx refuses a quality level below its smallest quantizer (VP8's default is 4), and only
        // at the first frame; a cq-level asks for that quality, so the smallest quantizer moves
        // down to it (ffmpeg: -crf N -qmin N).
        if let cqLevel, UInt32(cqLevel) < config.rc_min_quantizer { config.rc_min_quantizer = UInt32(cqLevel) }

        status = mg_vpx_enc_init(&codec, iface, &config, flags)
        guard status == VPX_CODEC_OK else {
            throw CodecError(.openFailed, component: component, message: "libvpx refused to open: \(Self.describe(&codec, status))")
        }
        isOpen = true
        try control(VP8E_SET_CPUUSED.rawValue, settings.cpuUsed, "cpu-used")
        if let cqLevel { try control(VP8E_SET_CQ_LEVEL.rawValue, cqLevel, "cq-level") }
        if vp9 {
            if let tiles = settings.tileColumns { try control(VP9E_SET_TILE_COLUMNS.rawValue, tiles, "tile-columns") }
            if let rowMT = settings.rowMT { try control(VP9E_SET_ROW_MT.rawValue, rowMT ? 1 : 0, "row-mt") }
            // As ffmpeg's wrapper: the colour space when libvpx has a name for it, and the range.
            if let space = Self.colorSpace(format.matrix) { try control(VP9E_SET_COLOR_SPACE.rawValue, Int(space.rawValue), "color space") }
            try control(VP9E_SET_COLOR_RANGE.rawValue, format.range == .full ? 1 : 0, "color range")
        }
        // The image header is set once; encode() points its planes at each frame.
        vpx_img_wrap(&image, highBitDepth ? VPX_IMG_FMT_I42016 : VPX_IMG_FMT_I420, UInt32(width), UInt32(height), 1,
                     UnsafeMutablePointer<UInt8>(bitPattern: 16))
        if highBitDepth { image.bit_depth = 10 }
    }

    /// libvpx's name for a Y'CbCr matrix (ffmpeg's mapping); nil where it has none.
    static func colorSpace(_ m: YCbCrMatrix) -> vpx_color_space_t? {
        switch m {
        case .rgb: return VPX_CS_SRGB
        case .bt709: return VPX_CS_BT_709
        case .unspecified: return VPX_CS_UNKNOWN
        case .bt470bg: return VPX_CS_BT_601
        case .bt601: return VPX_CS_SMPTE_170
        case .smpte240m: return VPX_CS_SMPTE_240
        case .bt2020nc: return VPX_CS_BT_2020
        default: return nil
        }
    }

    /// The vpcC description of what this encoder writes, from its input format as ffmpeg's
    /// vpcc.c derives it: 4:2:0 chroma "vertical" when sited left, else co-located with luma.
    static func configuration(vp9: Bool, profile: Int, format f: VideoFormat) -> VPXConfiguration {
        VPXConfiguration(codec: vp9 ? .vp9 : .vp8, profile: UInt8(profile),
                         level: level(width: f.width, height: f.height, frameRate: f.frameRate),
                         bitDepth: UInt8(f.pixelFormat.bitDepth), chromaSubsampling: f.color.chromaLocation == .left ? 0 : 1,
                         fullRange: f.range == .full, colourPrimaries: UInt8(f.color.primaries.code),
                         transferCharacteristics: UInt8(f.color.transfer.code), matrixCoefficients: UInt8(f.matrix.code))
    }

    deinit {
        if isOpen { vpx_codec_destroy(&codec) }
    }

    private func control(_ id: UInt32, _ value: Int, _ param: String) throws {
        let status = mg_vpx_control_int(&codec, Int32(id), Int32(value))
        guard status == VPX_CODEC_OK else {
            throw CodecError(.openFailed, component: component, param: param,
                             message: "libvpx refused \(param)=\(value): \(Self.describe(&codec, status))")
        }
    }

    private static func describe(_ codec: UnsafeMutablePointer<vpx_codec_ctx_t>, _ status: vpx_codec_err_t) -> String {
        var text = String(cString: vpx_codec_err_to_string(status))
        if let detail = vpx_codec_error_detail(codec) { text += " (\(String(cString: detail)))" }
        return text
    }

    func encode(_ planes: FramePlanes, pts: Int64, duration: Int64) throws -> [EncodedPacket] {
        guard !flushed else {
            throw CodecError(.invalidInput, component: component, message: "frame \(durations.framesIn) arrived after flush")
        }
        try FrameCheck.check(planes, format: pixelFormat, width: width, height: height, component: component, frame: durations.framesIn)
        guard let u = planes.data1, let v = planes.data2 else { return [] }
        try durations.input(pts: pts, duration: duration, component: component)
        image.planes.0 = planes.data0
        image.planes.1 = u
        image.planes.2 = v
        image.stride.0 = Int32(planes.stride0)
        image.stride.1 = Int32(planes.stride1)
        image.stride.2 = Int32(planes.stride2)
        // As ffmpeg's wrapper: the frame's duration argument is the nominal frame duration.
        let status = vpx_codec_encode(&codec, &image, pts, UInt(durations.nominal), 0, deadline)
        guard status == VPX_CODEC_OK else {
            throw CodecError(.processingFailed, component: component,
                             message: "frame \(durations.framesIn - 1) (pts \(pts)): \(Self.describe(&codec, status))")
        }
        var out: [EncodedPacket] = []
        collect(into: &out)
        return out
    }

    func flush() throws -> [EncodedPacket] {
        guard isOpen, !flushed else { return [] }
        flushed = true
        var out: [EncodedPacket] = []
        // libvpx drains one delayed frame (or a few) per call with no image.
        while true {
            let status = vpx_codec_encode(&codec, nil, -1, 0, 0, deadline)
            guard status == VPX_CODEC_OK else {
                throw CodecError(.processingFailed, component: component, message: "draining failed: \(Self.describe(&codec, status))")
            }
            let before = out.count
            collect(into: &out)
            if out.count == before { break }
        }
        return out
    }

    private func collect(into out: inout [EncodedPacket]) {
        var iterator: vpx_codec_iter_t? = nil
        while let packet = vpx_codec_get_cx_data(&codec, &iterator) {
            guard packet.pointee.kind == VPX_CODEC_CX_FRAME_PKT else { continue }
            let frame = packet.pointee.data.frame
            let bytes = UnsafeRawBufferPointer(start: frame.buf, count: frame.sz)
            let pts = frame.pts
            out.append(EncodedPacket(data: Array(bytes), pts: pts, dts: pts,
                                     duration: durations.duration(of: pts),
                                     isKeyFrame: frame.flags & UInt32(VPX_FRAME_IS_KEY) != 0))
            packetsOut += 1
        }
    }

    /// The VP9 level (as in the vpcC box) whose picture size and sample rate limits fit.
    static func level(width: Int, height: Int, frameRate: Rational) -> UInt8 {
        let pictureSize = Double(width * height)
        let sampleRate = pictureSize * frameRate.doubleValue
        let limits: [(UInt8, Double, Double)] = [
            (10, 36864, 829440), (11, 73728, 2764800), (20, 122880, 4608000), (21, 245760, 9216000),
            (30, 552960, 20736000), (31, 983040, 36864000), (40, 2228224, 83558400),
            (41, 2228224, 160432128), (50, 8912896, 311951360), (51, 8912896, 588251136),
            (52, 8912896, 1176502272), (60, 35651584, 1176502272), (61, 35651584, 2353004544),
            (62, 35651584, 4706009088),
        ]
        for (level, size, rate) in limits where pictureSize <= size && sampleRate <= rate { return level }
        return 0
    }
}
