import MediaGraphCodecs
import MediaGraphCore
import Testing

/// Inputs `make fuzz` found that crashed the decoders (README, "Fuzzing and sanitizers"), each
/// kept with what must happen now.
@Suite struct DecoderFuzzFindingsTests {
    /// fuzz-filesrc: a Y4M file read by `filesrc` and decoded. libavcodec's rawvideo decoder
    /// refuses to open without a pixel format; `VideoDecoder.init` then released its frame pool
    /// in its catch and again in `deinit` (a class whose init throws once every property is set
    /// runs its deinit): SIGSEGV in swift_release. Now it is an error naming the decoder, and
    /// trying again releases nothing twice.
    @Test func decoderThatRefusesToOpenIsAnError() {
        let raw = VideoFormat(pixelFormat: .yuv420p, width: 16, height: 16, frameRate: Rational(25, 1))
        let input = EncodedVideoFormat(codec: Codec("rawvideo", kind: .video), raw: raw, timeBase: Rational(1, 25))
        for _ in 0..<3 {
            #expect {
                _ = try VideoDecoder(input: input, threads: 1)
            } throws: { error in
                "\(error)" == "rawvideo decoder: the rawvideo decoder refused to open: Invalid pixel format. (Invalid argument)"
            }
        }
    }
}
