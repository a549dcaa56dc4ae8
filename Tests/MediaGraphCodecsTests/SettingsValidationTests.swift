import MediaGraphCodecs
import MediaGraphCore
import Testing

/// The exact message a person reads, and that it is a `CodecError`.
func expectMessage(_ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected the error \"\(expected)\", nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as CodecError {
        #expect(error.description == expected, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a CodecError, found \(error)", sourceLocation: sourceLocation)
    }
}

@Suite struct SettingsValidationTests {
    @Test func h264() {
        expectMessage("h264: param 'preset': expected one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo, found 'superslow'") {
            try H264Encoder.validate(settings: H264Settings(preset: "superslow"), width: 64, height: 48)
        }
        expectMessage("h264: param 'crf': expected a value in 0.0...51.0, found 60.0") {
            try H264Encoder.validate(settings: H264Settings(crf: 60), width: 64, height: 48)
        }
        expectMessage("h264: param 'bitrate': expected either 'crf' or 'bitrate', found both (a quality target and a bitrate contradict each other)") {
            try H264Encoder.validate(settings: H264Settings(crf: 23, bitrate: 1000), width: 64, height: 48)
        }
        expectMessage(#"h264: the input frames are 385x288, but h264 codes 4:2:0 only at even sizes; put a scale node in front of the encoder (e.g. {"type": "scale", "params": {"width": 384, "height": 288}})"#) {
            try H264Encoder.validate(settings: H264Settings(), width: 385, height: 288)
        }
        expectMessage(#"h264: the input frames are 384x289, but h264 codes 4:2:0 only at even sizes; put a scale node in front of the encoder (e.g. {"type": "scale", "params": {"width": 384, "height": 288}})"#) {
            try H264Encoder.validate(settings: H264Settings(), width: 384, height: 289)
        }
        expectMessage("h264: the input frames are 20000x48; expected 1...16384 pixels each way") {
            try H264Encoder.validate(settings: H264Settings(), width: 20000, height: 48)
        }
        expectMessage("h264: param 'tune': expected one of film, animation, grain, stillimage, psnr, ssim, fastdecode, zerolatency, found 'movie'") {
            try H264Encoder.validate(settings: H264Settings(tune: "movie"), width: 64, height: 48)
        }
        expectMessage("h264: param 'bufsize': expected a VBV buffer size in kbit when 'maxrate' is set, found none") {
            try H264Encoder.validate(settings: H264Settings(bitrate: 1000, maxrate: 2000), width: 64, height: 48)
        }
        expectMessage("h264: param 'x264-params': expected key=value pairs separated by ':', found '=3' in 'ref=2:=3'") {
            try H264Encoder.validate(settings: H264Settings(x264Params: "ref=2:=3"), width: 64, height: 48)
        }
        #expect(throws: Never.self) {
            try H264Encoder.validate(settings: H264Settings(preset: "veryfast", crf: 23), width: 1920, height: 1080)
        }
    }

    @Test func h264OpenFailuresCarryLibraryMessage() {
        expectMessage("h264: libx264 refused its settings: Error parsing option 'nonsense-option = 1'.") {
            _ = try H264Encoder(settings: H264Settings(x264Params: "nonsense-option=1"), width: 64, height: 48,
                                timeBase: Rational(1, 25), frameRate: Rational(25, 1))
        }
        expectMessage("h264: libx264 refused its settings: Error parsing option 'bframes = many'.") {
            _ = try H264Encoder(settings: H264Settings(x264Params: "bframes=many"), width: 64, height: 48,
                                timeBase: Rational(1, 25), frameRate: Rational(25, 1))
        }
    }

    @Test func vpxOpenFailureCarriesLibraryMessage() {
        expectMessage("vp8: libvpx refused to open: Invalid parameter (g_w out of range [1..16383])") {
            _ = try VP8Encoder(settings: VPXSettings(), width: 16384, height: 64,
                               timeBase: Rational(1, 25), frameRate: Rational(25, 1))
        }
    }

    @Test func hevc() {
        expectMessage("hevc: param 'crf': expected a value in 0.0...51.0, found -1.0") {
            try HEVCEncoder.validate(settings: HEVCSettings(crf: -1), width: 64, height: 48)
        }
        expectMessage("hevc: param 'preset': expected one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo, found 'fastest'") {
            try HEVCEncoder.validate(settings: HEVCSettings(preset: "fastest"), width: 64, height: 48)
        }
    }

    @Test func vpx() {
        expectMessage("vp9: param 'deadline': expected one of realtime, good, best, found 'fast'") {
            try VP9Encoder.validate(settings: VPXSettings(deadline: "fast"), width: 64, height: 48)
        }
        expectMessage("vp9: param 'cpu-used': expected a value in -9...9, found 12") {
            try VP9Encoder.validate(settings: VPXSettings(cpuUsed: 12), width: 64, height: 48)
        }
        expectMessage("vp8: param 'row-mt': expected no row-mt (a VP9 setting), found row-mt") {
            try VP8Encoder.validate(settings: VPXSettings(rowMT: true), width: 64, height: 48)
        }
        expectMessage("vp9: param 'cq-level': expected a value in 0...63, found 70") {
            try VP9Encoder.validate(settings: VPXSettings(cqLevel: 70), width: 64, height: 48)
        }
        expectMessage("vp9: param 'profile': expected 0 for yuv420p input (profile 0 takes 8-bit 4:2:0, 2 takes 10-bit), found 2") {
            try VP9Encoder.validate(settings: VPXSettings(profile: 2), width: 64, height: 48)
        }
        expectMessage("vp8: the input frames are 33x16385; expected 1...16384 pixels each way") {
            try VP8Encoder.validate(settings: VPXSettings(), width: 33, height: 16385)
        }
        // libvpx codes odd sizes (chroma rounded up, as ffmpeg's libvpx wrapper passes them)
        #expect((try? VP8Encoder.validate(settings: VPXSettings(), width: 33, height: 47)) != nil)
        #expect((try? VP9Encoder.validate(settings: VPXSettings(), width: 321, height: 241)) != nil)
    }

    /// Library options that read or write files of their own are refused: a graph from a
    /// stranger must not write where its sinks do not say (QA wrote x264 stats over a file).
    @Test func encoderParamsThatNameFilesAreRefused() throws {
        let refusal = "a graph writes only the outputs its sinks name, so options that name files (and two-pass encoding, whose stats go to one) are refused"
        expectMessage("h264: param 'x264-params': 'stats' makes the library read or write a file of its own ('stats=/tmp/victim'); " + refusal) {
            try H264Encoder.validate(settings: H264Settings(x264Params: "ref=2:stats=/tmp/victim"), width: 64, height: 48)
        }
        expectMessage("h264: param 'x264-params': 'pass' makes the library read or write a file of its own ('pass=1'); " + refusal) {
            try H264Encoder.validate(settings: H264Settings(x264Params: "pass=1"), width: 64, height: 48)
        }
        expectMessage("hevc: param 'x265-params': 'csv' makes the library read or write a file of its own ('csv=/tmp/x.csv'); " + refusal) {
            try HEVCEncoder.validate(settings: HEVCSettings(x265Params: "csv=/tmp/x.csv"), width: 64, height: 48)
        }
        expectMessage("hevc: param 'x265-params': 'scaling-list' makes the library read or write a file of its own ('scaling-list=/etc/passwd'); " + refusal) {
            try HEVCEncoder.validate(settings: HEVCSettings(x265Params: "scaling-list=/etc/passwd"), width: 64, height: 48)
        }
        // the same keys' harmless values, and other options, pass
        try HEVCEncoder.validate(settings: HEVCSettings(x265Params: "scaling-list=default:bframes=2"), width: 64, height: 48)
        try H264Encoder.validate(settings: H264Settings(x264Params: "ref=2:keyint=50"), width: 64, height: 48)
    }

    @Test func aac() {
        expectMessage("aac: param 'sample rate': expected one of 96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350, found 44000") {
            try AACEncoder.validate(settings: AACSettings(), sampleRate: 44000, channels: 2)
        }
        expectMessage("aac: param 'bitrate': expected a value in 8...1536, found 4") {
            try AACEncoder.validate(settings: AACSettings(bitrate: 4), sampleRate: 48000, channels: 2)
        }
        expectMessage("aac: the input has 17 channels; AAC codes 1…16 (put a 'resample' with 'layout', such as \"7.1\" or \"stereo\", in front to mix them down)") {
            try AACEncoder.validate(settings: AACSettings(), sampleRate: 48000, channels: 17)
        }
        // 9 channels in no named layout: libavcodec has no program config for them
        expectMessage("aac: aac refused to open for 9 channels in no named layout (a 'resample' with 'layout', such as \"7.1\" or \"stereo\", in front can mix them down): Unsupported channel layout \"9 channels\" (Invalid argument)") {
            try AACEncoder.validate(settings: AACSettings(), sampleRate: 48000, channels: 9)
        }
    }

    @Test func badFramesAreErrorsNotCrashes() throws {
        let encoder = try H264Encoder(settings: H264Settings(preset: "ultrafast"), width: 64, height: 48,
                                      timeBase: Rational(1, 25), frameRate: Rational(25, 1))
        let wrong = TestFrame(width: 32, height: 48)
        expectMessage("h264: frame 0: expected yuv420p 64x48, found yuv420p 32x48") {
            _ = try encoder.encode(wrong.framePlanes, pts: 0)
        }
        var short = TestFrame(width: 64, height: 48).framePlanes
        short.stride1 = 16
        expectMessage("h264: frame 0: plane 1 stride 16 is shorter than its row of 32 bytes") {
            _ = try encoder.encode(short, pts: 0)
        }
        let right = TestFrame(width: 64, height: 48)
        right.fill(index: 0)
        _ = try encoder.encode(right.framePlanes, pts: 5)
        expectMessage("h264: frame 1: pts 5 is not after the previous pts 5 (pts must increase)") {
            _ = try encoder.encode(right.framePlanes, pts: 5)
        }
    }
}
