import Foundation
import Testing

/// The `opus` node against `ffmpeg -c:a libopus` (the same libopus through the same libavcodec):
/// the packets of the same input, in MP4, are the same bytes with the same times.
@Suite struct OpusEncodeTests {
    /// A float tone made by ffmpeg, as a WAV file in `dir`.
    static func input(in dir: String, layout: String = "stereo", rate: Int = 48000, seconds: Double = 2.01) throws -> String {
        let path = dir + "/in-\(layout)-\(rate).wav"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=\(seconds):r=\(rate),aformat=channel_layouts=\(layout)",
                                       "-c:a", "pcm_f32le", "-y", path])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    /// Our MP4 of `input` through an `opus` node with `params` (JSON members).
    static func ours(_ input: String, params: String, dir: String) throws -> String {
        let out = dir + "/ours.mp4"
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "enc": { "type": "opus", "params": { \(params) } },
                     "mux": { "type": "mp4", "params": { "path": "\(out)" } } },
          "chains": [["src.audio", "enc", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        return out
    }

    /// Each packet's pts, duration, size and MD5 as ffprobe reads them.
    static func packets(_ file: String) throws -> [String] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-show_data_hash", "md5", "-show_entries", "packet=pts,duration,size,data_hash",
                                        "-of", "csv", file])
        return r.out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("packet") }
    }

    static func stream(_ file: String) throws -> String {
        try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,channels,sample_rate,duration",
                                "-of", "default=noprint_wrappers=1", file]).out
    }

    @Test(arguments: [("\"bitrate\": 96", ["-b:a", "96k"]), ("", []), ("\"application\": \"voip\", \"bitrate\": 32", ["-application", "voip", "-b:a", "32k"])])
    func packetsAreByteIdenticalToFFmpegLibopus(params: String, ffmpegArgs: [String]) throws {
        let dir = CLI.tempDir()
        let input = try Self.input(in: dir)
        let mine = try Self.packets(try Self.ours(input, params: params, dir: dir))
        let ff = dir + "/ffmpeg.mp4"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-c:a", "libopus"] + ffmpegArgs + ["-y", ff])
        #expect(r.status == 0, "\(r.stderr)")
        let theirs = try Self.packets(ff)
        #expect(mine.count == 101)   // 2.01 s and the 312-sample pre-skip in 20 ms packets
        #expect(mine == theirs)
    }

    @Test func fortyFourKilohertzIsResampledAndLastsAsLong() throws {
        let dir = CLI.tempDir()
        let out = try Self.ours(try Self.input(in: dir, layout: "mono", rate: 44100, seconds: 1.5), params: "", dir: dir)
        let s = try Self.stream(out)
        #expect(s.contains("codec_name=opus"))
        #expect(s.contains("channels=1"))
        #expect(s.contains("sample_rate=48000"))
        let duration = try #require(s.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) })
        #expect(abs(duration - 1.5) <= 0.02, "\(s)")
    }

    @Test func fiveOneIsSixChannelsInVorbisOrder() throws {
        let dir = CLI.tempDir()
        let out = try Self.ours(try Self.input(in: dir, layout: "5.1", seconds: 1), params: "\"bitrate\": 256", dir: dir)
        let s = try Self.stream(out)
        #expect(s.contains("channels=6"), "\(s)")
        #expect(s.contains("duration=1.000000"), "\(s)")
    }

    @Test func chromiumPlaysOpusBesideH264() throws {
        let dir = CLI.tempDir()
        let input = try Self.input(in: dir)
        let out = dir + "/av.mp4"
        let g = CLI.writeGraph("""
        { "nodes": { "v": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 50 } },
                     "venc": { "type": "h264", "params": { "preset": "ultrafast" } },
                     "src": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "enc": { "type": "opus" },
                     "mux": { "type": "mp4", "params": { "path": "\(out)" } } },
          "chains": [["v", "venc", "mux.video"], ["src.audio", "enc", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [out, "--min-frames", "50"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
        #expect(play.out.contains("\"ended\": true") && play.out.contains("opus"), "\(play.out)")
    }

    @Test func aBitrateAboveWhatTheChannelsTakeIsRefusedAtValidation() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "tone": { "type": "sine", "params": { "channels": 1, "seconds": 1 } },
                     "enc": { "type": "opus", "params": { "bitrate": 300 } },
                     "mux": { "type": "mp4", "params": { "path": "\(dir)/x.mp4" } } },
          "chains": [["tone", "enc", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains("bitrate") && r.stderr.contains("1...256") && r.stderr.contains("300"), "\(r.stderr)")
    }
}
