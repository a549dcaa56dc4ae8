import CAVCodec
import Foundation
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

    /// fuzz-filesrc (2026-11-24): an MP4 whose stco box claims 0x0C000000 chunk offsets made
    /// libavformat's mov demuxer ask for 1.5 GiB (libFuzzer's out-of-memory at its 1 GiB malloc
    /// limit; without it the block is reserved, not touched, and the header fails later). The
    /// libraries' single allocations are now capped at 512 MiB (`av_max_alloc`): the file is a
    /// clear error naming it, and a larger request fails.
    @Test func hugeSampleTableInAnMP4IsRefused() throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Seeds/fuzz-filesrc/mp4-stco-1.5GiB.bin")
        let input = try Data(contentsOf: seed)
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = dir.path("in.mp4")
        try input.dropFirst(2).write(to: URL(fileURLWithPath: path))  // the harness's two leading bytes
        #expect {
            _ = try Demuxer(path: path)
        } throws: { error in
            "\(error)".hasPrefix("cannot open '\(path)': ")
        }
        let tooLarge = av_malloc(512 << 20 + 1)
        #expect(tooLarge == nil, "libav allocations above 512 MiB still succeed")
        av_free(tooLarge)
    }
}
