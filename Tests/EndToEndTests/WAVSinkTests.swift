import Foundation
import MediaGraphCore
import MediaGraphNodes
import Testing

/// `wavsink` against ffmpeg 5.1's wav muxer (`-f wav -bitexact`) fed the same file: byte for byte.
@Suite struct WAVSinkTests {
    /// A half-second float tone made by ffmpeg in `layout`, as a WAV file in `dir`.
    static func input(_ layout: String, in dir: String, rate: Int = 44100) throws -> String {
        let path = dir + "/in-\(layout).wav"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=0.5:r=\(rate),aformat=channel_layouts=\(layout)",
                                       "-c:a", "pcm_f32le", "-y", path])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    /// Our file (or standard output for "-") for `input` in `format`.
    static func ours(_ input: String, format: String, to path: String, dir: String) throws -> Data {
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "out": { "type": "wavsink", "params": { "path": "\(path)", "format": "\(format)" } } },
          "chains": [["src.audio", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        return path == "-" ? r.stdout : (FileManager.default.contents(atPath: path) ?? Data())
    }

    /// ffmpeg's WAV of `input` in `format` (to standard output, a pipe, for "-").
    static func ffmpegs(_ input: String, format: String, to path: String) throws -> Data {
        let codec = format == "u8" ? "pcm_u8" : "pcm_\(format)le"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-c:a", codec, "-f", "wav", "-bitexact", "-y", path])
        #expect(r.status == 0, "\(r.stderr)")
        return path == "-" ? r.stdout : (FileManager.default.contents(atPath: path) ?? Data())
    }

    @Test(arguments: [("mono", "s16"), ("stereo", "s16"), ("5.1(side)", "s16"), ("stereo", "f32"), ("stereo", "s32"),
                      ("5.1(side)", "f32"), ("mono", "u8")])
    func fileIsByteIdenticalToFFmpegs(layout: String, format: String) throws {
        let dir = CLI.tempDir()
        let input = try Self.input(layout, in: dir)
        let mine = try Self.ours(input, format: format, to: dir + "/ours.wav", dir: dir)
        let theirs = try Self.ffmpegs(input, format: format, to: dir + "/ffmpeg.wav")
        #expect(mine.count > 1000)
        #expect(mine == theirs, "\(layout) \(format): \(mine.count) bytes against ffmpeg's \(theirs.count)")
    }

    @Test func aboveFortyEightKilohertzIsExtensibleAsFFmpegWritesIt() throws {
        let dir = CLI.tempDir()
        let input = try Self.input("stereo", in: dir, rate: 96000)
        let mine = try Self.ours(input, format: "s16", to: dir + "/ours.wav", dir: dir)
        #expect(mine == (try Self.ffmpegs(input, format: "s16", to: dir + "/ffmpeg.wav")))
        #expect(mine[20] == 0xFE && mine[21] == 0xFF)
    }

    @Test(arguments: ["s16", "f32"])
    func pipeKeepsTheUnknownSizesFFmpegWrites(format: String) throws {
        let dir = CLI.tempDir()
        let input = try Self.input("5.1(side)", in: dir)
        let mine = try Self.ours(input, format: format, to: "-", dir: dir)
        let theirs = try Self.ffmpegs(input, format: format, to: "-")
        #expect(mine == theirs)
        #expect(Array(mine[4..<8]) == [0xFF, 0xFF, 0xFF, 0xFF])
    }

    @Test func ffprobeReadsTheDurationOfAPlanarSine() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "tone": { "type": "sine", "params": { "seconds": 1.5, "channels": 2 } },
                     "out": { "type": "wavsink", "params": { "path": "\(dir)/t.wav" } } },
          "chains": [["tone", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let p = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,channels,sample_rate,duration",
                                        "-of", "default=noprint_wrappers=1", dir + "/t.wav"]).out
        #expect(p.contains("codec_name=pcm_s16le"))
        #expect(p.contains("channels=2"))
        #expect(p.contains("sample_rate=48000"))
        #expect(p.contains("duration=1.500000"), "\(p)")
    }

    /// The 4 GiB limit, checked where it is computed: writing 4 GiB to reach it would take minutes.
    @Test func outgrowingFourGibibytesIsRefusedWithTheTimeItHappens() throws {
        let format = AudioFormat(sampleFormat: .s32, sampleRate: 48000, channels: 8, channelLayout: ChannelLayout(mask: 0x63F))
        let header = WAVHeader(format: format, seekable: true)
        #expect(header.size == 68)
        #expect(header.maximumDataBytes == (1 << 32) - 64)   // 0xFFFFFFFF - 60 header bytes - 1 pad, in whole 32-byte blocks
        #expect(header.overflow(dataBytes: header.maximumDataBytes) == nil)
        let message = try #require(header.overflow(dataBytes: header.maximumDataBytes + 32))
        #expect(message.contains("after 134217726 samples (0:46:36 of 8 channels s32 at 48000 Hz)"), "\(message)")
        #expect(message.contains("RF64"))
    }
}
