import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// What the encoders write about the picture (H.264/HEVC VUI, VP9 colour config) and their
/// 10-bit paths, read back by ffprobe and compared byte for byte with ffmpeg given the same
/// frames and the same facts.
@Suite struct EncoderColourTests {
    /// BT.709 limited range, chroma sited left, pixels 4:3 wide.
    static func tagged(_ pixelFormat: PixelFormat, width: Int = 160, height: Int = 96) -> VideoFormat {
        VideoFormat(pixelFormat: pixelFormat, width: width, height: height, frameRate: Rational(25, 1), range: .limited,
                    matrix: .bt709, color: VideoColor(primaries: .bt709, transfer: .bt709, chromaLocation: .left),
                    sampleAspect: Rational(4, 3))
    }

    /// ffmpeg's options that tell its encoder the same as `tagged`.
    static let taggedOptions = ["-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                                "-chroma_sample_location", "left", "-vf", "setsar=4/3"]

    /// Encodes `count` frames of a moving pattern (10-bit: the low 10 bits of little-endian
    /// words) and returns the packets and the packed raw frames for ffmpeg.
    static func encode<E: VideoEncoder>(_ encoder: E, _ format: VideoFormat, count: Int) throws -> (packets: [EncodedPacket], raw: [UInt8]) {
        let frame = TestFrame(format: format.pixelFormat, width: format.width, height: format.height)
        var packets: [EncodedPacket] = [], raw: [UInt8] = []
        for i in 0..<count {
            frame.fill(index: i)
            if format.pixelFormat.bitDepth > 8 {
                for p in 0..<frame.format.planeCount {
                    for y in 0..<frame.sizes[p].height {
                        let row = frame.planes[p] + y * frame.strides[p]
                        for x in 0..<frame.sizes[p].width { row[2 * x + 1] &= 0x03 }   // 10 significant bits
                    }
                }
            }
            raw += frame.packed()
            packets += try encoder.encode(frame.framePlanes, pts: Int64(i))
        }
        packets += try encoder.flush()
        return (packets, raw)
    }

    static func expectTagged(_ probe: [String: String], _ what: String) {
        #expect(probe["color_range"] == "tv", "\(what): \(probe)")
        #expect(probe["color_space"] == "bt709" && probe["color_primaries"] == "bt709" && probe["color_transfer"] == "bt709", "\(what): \(probe)")
        #expect(probe["chroma_location"] == "left", "\(what): \(probe)")
        #expect(probe["sample_aspect_ratio"] == "4:3", "\(what): \(probe)")
    }

    /// x265 writes range, colour, chroma siting and aspect into the VUI (ffprobe reads them from
    /// the raw stream), in Main 10 from 10-bit input; the stream is byte-identical to ffmpeg's
    /// libx265 told the same.
    @Test(arguments: [PixelFormat.yuv420p, .yuv420p10])
    func hevcVUIAndBitDepth(_ pixelFormat: PixelFormat) throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let format = Self.tagged(pixelFormat)
        let settings = HEVCSettings(preset: "ultrafast", crf: 30, keyint: 8, bframes: 2, threads: 1, x265Params: "rc-lookahead=4")
        let encoder = try HEVCEncoder(settings: settings, format: format, timeBase: Rational(1, 25))
        let (packets, raw) = try Self.encode(encoder, format, count: 10)
        try writeFile(dir.path("ours.hevc"), ElementaryStream.annexB(packets))
        let probe = try probeStream(dir.path("ours.hevc"))
        Self.expectTagged(probe, "hevc \(pixelFormat)")
        #expect(probe["pix_fmt"] == pixelFormat.rawValue)
        #expect(probe["profile"] == (pixelFormat == .yuv420p ? "Main" : "Main 10"))
        #expect(probe["nb_read_frames"] == "10")
        #expect(try decodeErrors(dir.path("ours.hevc")) == "")

        try writeFile(dir.path("in.yuv"), raw)
        let r = try runTool("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", pixelFormat.rawValue, "-s", "160x96", "-framerate", "25",
                                       "-i", dir.path("in.yuv")] + Self.taggedOptions +
                                      ["-c:v", "libx265", "-preset", "ultrafast", "-crf", "30", "-g", "8", "-bf", "2",
                                       "-x265-params", "pools=1:log-level=error:rc-lookahead=4", "-f", "hevc", dir.path("ref.hevc")])
        #expect(r.status == 0, "\(r.stderr)")
        let diff = firstDifference(ElementaryStream.annexB(packets), try readFile(dir.path("ref.hevc")))
        #expect(diff == nil, "first difference at byte \(diff ?? -1)")
    }

    /// x264 writes the same VUI; 10-bit input is High 10 (this libx264 does both depths), and
    /// asking for an 8-bit profile with it is a settings error.
    @Test(arguments: [PixelFormat.yuv420p, .yuv420p10])
    func h264VUIAndBitDepth(_ pixelFormat: PixelFormat) throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let format = Self.tagged(pixelFormat)
        let encoder = try H264Encoder(settings: H264Settings(preset: "ultrafast", threads: 1), format: format, timeBase: Rational(1, 25))
        let (packets, _) = try Self.encode(encoder, format, count: 6)
        try writeFile(dir.path("ours.h264"), ElementaryStream.annexB(packets))
        let probe = try probeStream(dir.path("ours.h264"))
        Self.expectTagged(probe, "h264 \(pixelFormat)")
        #expect(probe["pix_fmt"] == pixelFormat.rawValue)
        #expect(probe["profile"] == (pixelFormat == .yuv420p ? "Constrained Baseline" : "High 10"), "\(probe)")
        #expect(try decodeErrors(dir.path("ours.h264")) == "")
        if pixelFormat == .yuv420p10 {
            expectMessage("h264: param 'profile': expected high10 (or none) for 10-bit input, found 'high'") {
                try H264Encoder.validate(settings: H264Settings(profile: "high"), format: format)
            }
        }
    }

    /// VP9: colour space and range in the bitstream (ffprobe reads them from IVF), profile 2
    /// from 10-bit input, and a vpcC with everything the format says.
    @Test(arguments: [PixelFormat.yuv420p, .yuv420p10])
    func vp9ColourAndBitDepth(_ pixelFormat: PixelFormat) throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        var format = Self.tagged(pixelFormat)
        format.range = .full
        let settings = VPXSettings(cqLevel: 40, deadline: "realtime", cpuUsed: 8, threads: 1, lagInFrames: 0)
        let encoder = try VP9Encoder(settings: settings, format: format, timeBase: Rational(1, 25))
        let (packets, raw) = try Self.encode(encoder, format, count: 6)
        try writeFile(dir.path("ours.ivf"), ElementaryStream.ivf(packets, fourcc: "VP90", width: 160, height: 96, timeBaseNum: 1, timeBaseDen: 25))
        let probe = try probeStream(dir.path("ours.ivf"))
        #expect(probe["color_space"] == "bt709" && probe["color_range"] == "pc", "\(probe)")
        #expect(probe["pix_fmt"] == (pixelFormat == .yuv420p ? "yuv420p" : "yuv420p10le"), "\(probe)")
        #expect(probe["profile"] == (pixelFormat == .yuv420p ? "Profile 0" : "Profile 2"), "\(probe)")
        #expect(try decodeErrors(dir.path("ours.ivf")) == "")
        guard case .vpx(let c) = encoder.configuration else { Issue.record("not vpx"); return }
        #expect(c.profile == (pixelFormat == .yuv420p ? 0 : 2) && Int(c.bitDepth) == pixelFormat.bitDepth)
        #expect(c.fullRange && c.colourPrimaries == 1 && c.transferCharacteristics == 1 && c.matrixCoefficients == 1 && c.chromaSubsampling == 0)

        // The same frames through ffmpeg's libvpx-vp9 told the same give the same frames.
        try writeFile(dir.path("in.yuv"), raw)
        let r = try runTool("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", pixelFormat.rawValue, "-s", "160x96", "-framerate", "25",
                                       "-i", dir.path("in.yuv"), "-color_range", "pc", "-colorspace", "bt709",
                                       "-c:v", "libvpx-vp9", "-crf", "40", "-b:v", "0", "-deadline", "realtime", "-cpu-used", "8",
                                       "-threads", "1", "-lag-in-frames", "0", "-f", "ivf", dir.path("ref.ivf")])
        #expect(r.status == 0, "\(r.stderr)")
        let ours = ElementaryStream.ivfFrames(try readFile(dir.path("ours.ivf"))), theirs = ElementaryStream.ivfFrames(try readFile(dir.path("ref.ivf")))
        #expect(ours.count == 6 && ours == theirs)
    }

    /// 10-bit input to VP8 (8-bit only) or a profile that does not fit the input: settings errors.
    @Test func bitDepthMismatches() {
        let ten = Self.tagged(.yuv420p10)
        expectMessage("vp8: param 'pixel format': expected one of yuv420p, found yuv420p10le") {
            try VP8Encoder.validate(settings: VPXSettings(), format: ten)
        }
        expectMessage("vp9: param 'profile': expected 2 for yuv420p10le input (profile 0 takes 8-bit 4:2:0, 2 takes 10-bit), found 0") {
            try VP9Encoder.validate(settings: VPXSettings(profile: 0), format: ten)
        }
        expectMessage("hevc: param 'pixel format': expected one of yuv420p, yuv420p10le, found yuv444p") {
            try HEVCEncoder.validate(settings: HEVCSettings(), format: VideoFormat(pixelFormat: .yuv444p, width: 64, height: 48))
        }
    }
}
