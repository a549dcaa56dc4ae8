import Foundation
import Testing

/// Audio at a rate AAC cannot signal (192 kHz, 50 kHz …) into the `aac` encoder: the graph
/// inserts a visible `resample` to the nearest rate AAC has, the rate ffmpeg's negotiation picks
/// for its own aac encoder from the same input. Before, validation refused the graph ("param
/// 'sample rate': expected one of 96000, …, found 192000"), naming a param the node does not have.
@Suite struct AACSampleRateTests {
    static func rate(_ file: String) throws -> String {
        try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=sample_rate", "-of", "csv=p=0", file]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [192000, 50000, 40000, 100000, 44100])
    func aRateAACCannotSignalIsResampledToFFmpegsChoice(_ input: Int) throws {
        let dir = CLI.tempDir()
        let theirs = dir + "/ffmpeg.aac", ours = dir + "/ours.aac"
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(input):duration=0.5", "-ac", "2", "-c:a", "aac", theirs])
        let g = CLI.writeGraph("""
        { "nodes": { "s": { "type": "sine", "params": { "sample-rate": \(input), "seconds": 0.5 } },
                     "enc": { "type": "aac" }, "o": { "type": "adtssink", "params": { "path": "\(ours)" } } },
          "chains": [["s", "enc", "o"]] }
        """, in: dir)
        let expected = try Self.rate(theirs)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.status == 0, "\(v.stderr)")
        let inserted = "inserted 'auto_resample_enc_in' (resample): f32planar \(input)Hz 2ch → f32planar \(expected)Hz 2ch before 'enc.in'"
        #expect(v.out.contains(inserted) == (expected != "\(input)"), "ffmpeg's rate \(expected): \(v.out)")
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.rate(ours) == expected)
        // the whole half second, at the new rate (AAC frames of 1024 samples, ffmpeg's count)
        let frames = { (file: String) in
            try CLI.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file]).out
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try frames(ours) == (try frames(theirs)))
        try? FileManager.default.removeItem(atPath: dir)
    }
}
