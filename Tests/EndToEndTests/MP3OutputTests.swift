import Foundation
import Testing

/// The `mp3` encoder and `mp3sink` against ffmpeg: packets byte-identical to ffmpeg's libmp3lame
/// encode of the same WAV, an .mp3 file whose Info frame and LAME tag say what ffmpeg's mp3
/// muxer says (duration, decoded sample count), mp3 in mp4 in Chromium, and the refusals.
/// Inputs are made by ffmpeg in each test.
@Suite struct MP3OutputTests {
    /// A two-tone WAV (the channels differ) made by ffmpeg.
    static func source(_ dir: String, rate: Int = 44100, channels: Int = 2, seconds: Double = 2.3) throws -> String {
        let wav = dir + "/src.wav"
        let pan = channels == 1 ? "mono|c0=c0" : "\(channels)c|" + (0..<channels).map { "c\($0)=\(1.0 / Double($0 + 1))*c0" }.joined(separator: "|")
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate):duration=\(seconds)",
                                    "-af", "pan=\(pan)", "-c:a", "pcm_s16le", wav])
        return wav
    }

    /// pts, size and MD5 of each packet, as ffmpeg's framemd5 muxer prints them.
    static func framemd5(_ args: [String]) throws -> [String] {
        let r = try FileSourceTests.ffmpeg(args + ["-f", "framemd5", "-"])
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { l in let f = l.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }; return [f[2], f[4], f[5]].joined(separator: ",") }
    }

    static func run(_ graph: String, in dir: String) throws {
        let r = try CLI.mediagraph("run", "--quiet", CLI.writeGraph(graph, in: dir))
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(arguments: [(44100, 2, "\"bitrate\": 128", ["-b:a", "128k"]), (48000, 1, "\"bitrate\": 64", ["-b:a", "64k"]),
                      (22050, 2, "\"bitrate\": 128", ["-b:a", "128k"]), (8000, 1, "\"bitrate\": 16", ["-b:a", "16k"]),
                      (44100, 2, "\"quality\": 2", ["-q:a", "2"])])
    func packetsAreFFmpegsByteForByte(_ rate: Int, _ channels: Int, _ param: String, _ ffmpegArgs: [String]) throws {
        let dir = CLI.tempDir()
        let wav = try Self.source(dir, rate: rate, channels: channels)
        // straight from the encoder (framehash: index, pts, size, MD5), no container between
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "wavsrc", "params": { "path": "\(wav)" } },
                     "enc": { "type": "mp3", "params": { \(param) } },
                     "out": { "type": "framehash" } },
          "chains": [["in", "enc", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: ",").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",") }
        let theirs = try Self.framemd5(["-i", wav, "-c:a", "libmp3lame"] + ffmpegArgs)
        #expect(!theirs.isEmpty)
        #expect(ours == theirs)
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Where ffmpeg's audio frames start: after its ID3v2 tag (10-byte header, syncsafe size).
    static func afterID3(_ d: [UInt8]) -> [UInt8] {
        guard d.count > 10, d[0] == 0x49, d[1] == 0x44, d[2] == 0x33 else { return d }
        let size = (0..<4).reduce(0) { $0 << 7 | Int(d[6 + $1] & 0x7F) }
        return Array(d[(10 + size)...])
    }

    static func decodedSamples(_ file: String) throws -> (count: Int, warnings: String) {
        let r = try CLI.run("ffmpeg", ["-v", "warning", "-i", file, "-f", "s16le", "-ac", "1", "-"])
        return (r.stdout.count / 2, r.stderr)
    }

    @Test(arguments: [(44100, 2, "\"bitrate\": 128", ["-b:a", "128k"]), (24000, 1, "\"bitrate\": 32", ["-b:a", "32k"]),
                      (22050, 2, "\"bitrate\": 128", ["-b:a", "128k"]), (48000, 2, "\"quality\": 4", ["-q:a", "4"])])
    func mp3FileSaysWhatFFmpegsMuxerSays(_ rate: Int, _ channels: Int, _ param: String, _ ffmpegArgs: [String]) throws {
        let dir = CLI.tempDir()
        let seconds = 2.3
        let wav = try Self.source(dir, rate: rate, channels: channels, seconds: seconds)
        let ours = dir + "/ours.mp3", theirs = dir + "/theirs.mp3"
        try Self.run("""
        { "nodes": { "in": { "type": "wavsrc", "params": { "path": "\(wav)" } },
                     "enc": { "type": "mp3", "params": { \(param) } },
                     "out": { "type": "mp3sink", "params": { "path": "\(ours)" } } },
          "chains": [["in", "enc", "out"]] }
        """, in: dir)
        try FileSourceTests.ffmpeg(["-i", wav, "-c:a", "libmp3lame"] + ffmpegArgs + ["-f", "mp3", theirs])
        // ffprobe reads the duration from the Info frame: ffmpeg's, and the source's once the
        // priming (start_time) is off, within one frame (ffprobe 5.1 counts frames × samples per
        // frame and leaves the padding in; below 32 kHz libmp3lame flushes one frame more, so two)
        let probe = { (file: String) throws -> (Double, Double) in
            let r = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=duration,start_time", "-of", "csv=p=0", file])
            let v = r.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Double($0) }
            return (v.count == 2 ? v[0] : -1, v.count == 2 ? v[1] : -1)
        }
        let (start, duration) = try probe(ours)
        let (theirStart, theirDuration) = try probe(theirs)
        #expect(duration == theirDuration && start == theirStart)
        let spf = rate >= 32000 ? 1152.0 : 576.0
        #expect(abs(duration - start - seconds) < (rate >= 32000 ? 1 : 2) * spf / Double(rate), "\(duration) - \(start) vs \(seconds)")
        // decoded without a warning, trimmed by the LAME tag to the samples of the source. Below
        // 32 kHz ffmpeg's own file decodes to 20 samples more: libmp3lame's last packet there
        // starts before the one ahead of it ends and says no padding, which ffmpeg's muxer takes
        // as the LAME tag's; mp3sink ends at the first packet shorter than a frame
        let decoded = try Self.decodedSamples(ours)
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
        #expect(decoded.count == Int((seconds * Double(rate)).rounded()))
        if rate >= 32000 { #expect(decoded.count == (try Self.decodedSamples(theirs)).count) }
        // ffmpeg's file less its ID3v2 tag, but for the LAME tag's encoder string ("Lavc59.37",
        // from the stream's encoder tag; ours "Lavf") and so the tag's CRC
        var a = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ours)))
        var b = Self.afterID3([UInt8](try Data(contentsOf: URL(fileURLWithPath: theirs))))
        #expect(a.count == b.count)
        if a.count == b.count, a.count > 200 {
            // and for the padding where libmp3lame's last stamps overlap (above)
            let paddingBytes = rate >= 32000 ? [Int]() : [1, 2]
            let tag = [UInt8]("Info".utf8), xing = [UInt8]("Xing".utf8)
            let at = (0..<64).first { Array(b[$0..<($0 + 4)]) == tag || Array(b[$0..<($0 + 4)]) == xing } ?? 0
            for i in Array(at + 120..<at + 129) + [at + 154, at + 155] + paddingBytes.map({ at + 141 + $0 }) { a[i] = 0; b[i] = 0 }
            #expect(a == b)
        }
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// ffmpeg's MP3 in an .mp3 (priming and padding in its LAME tag) and in an .mp4 (in its edit
    /// list), copied: the LAME tag says the same, so the copy decodes to the source's samples.
    @Test(arguments: ["mp3", "mp4"])
    func aCopiedStreamKeepsItsDelayAndPadding(_ container: String) throws {
        let dir = CLI.tempDir()
        let wav = try Self.source(dir)
        let theirs = dir + "/theirs." + container, ours = dir + "/ours.mp3"
        try FileSourceTests.ffmpeg(["-i", wav, "-c:a", "libmp3lame", "-b:a", "128k", theirs])
        try Self.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(theirs)" } },
                     "out": { "type": "mp3sink", "params": { "path": "\(ours)" } } },
          "chains": [["in.audio", "out"]] }
        """, in: dir)
        let decoded = try Self.decodedSamples(ours)
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
        #expect(decoded.count == Int((2.3 * 44100).rounded()))
        try? FileManager.default.removeItem(atPath: dir)
    }

    @Test func toStandardOutputTheFramesGoAlone() throws {
        let dir = CLI.tempDir()
        let wav = try Self.source(dir)
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "wavsrc", "params": { "path": "\(wav)" } },
                     "enc": { "type": "mp3" }, "out": { "type": "mp3sink", "params": { "path": "-" } } },
          "chains": [["in", "enc", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let theirs = dir + "/theirs.mp3"
        try FileSourceTests.ffmpeg(["-i", wav, "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", "-f", "mp3", theirs])
        #expect([UInt8](r.stdout) == [UInt8](try Data(contentsOf: URL(fileURLWithPath: theirs))))
        try? FileManager.default.removeItem(atPath: dir)
    }

    @Test func mp3InMP4PlaysInChromium() throws {
        let dir = CLI.tempDir()
        let out = dir + "/tone.mp4"
        try Self.run("""
        { "nodes": { "s": { "type": "sine", "params": { "sample-rate": 44100, "seconds": 2 } },
                     "enc": { "type": "mp3" }, "mux": { "type": "mp4", "params": { "path": "\(out)" } } },
          "chains": [["s", "enc", "mux.audio"]] }
        """, in: dir)
        let codec = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", out]).out
        #expect(codec.trimmingCharacters(in: .whitespacesAndNewlines) == "mp3")
        // browser-play calls a file without video unplayable (exit 1); what tells is that the
        // audio played to its end without a MediaError
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [out])
        let json = (try? JSONSerialization.jsonObject(with: play.stdout)) as? [String: Any] ?? [:]
        #expect(json["error"] is NSNull, "browser-play: \(play.out) \(play.stderr)")
        #expect(json["ended"] as? Bool == true, "browser-play: \(play.out)")
        #expect(json["codecs"] as? String == "mp4a.6b", "browser-play: \(play.out)")
        #expect(abs((json["currentTime"] as? Double ?? 0) - 2) < 0.05, "browser-play: \(play.out)")
        try? FileManager.default.removeItem(atPath: dir)
    }

    @Test func aRateMP3CannotCodeIsResampledToFFmpegsChoice() throws {
        let dir = CLI.tempDir()
        let theirs = dir + "/theirs.mp3", ours = dir + "/ours.mp3"
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=96000:duration=0.5", "-ac", "2", "-c:a", "libmp3lame", theirs])
        let g = CLI.writeGraph("""
        { "nodes": { "s": { "type": "sine", "params": { "sample-rate": 96000, "seconds": 0.5 } },
                     "enc": { "type": "mp3" }, "o": { "type": "mp3sink", "params": { "path": "\(ours)" } } },
          "chains": [["s", "enc", "o"]] }
        """, in: dir)
        let expected = try AACSampleRateTests.rate(theirs)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.out.contains("inserted 'auto_resample_enc_in' (resample): f32planar 96000Hz 2ch → f32planar \(expected)Hz 2ch before 'enc.in'"), "\(v.out) \(v.stderr)")
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try AACSampleRateTests.rate(ours) == expected)
        try? FileManager.default.removeItem(atPath: dir)
    }

    @Test(arguments: [("\"channels\": 6", "", "the input has 6 channels; MP3 codes mono or stereo (put a 'resample' with 'layout': \"stereo\" in front to mix them down)"),
                      ("", "\"bitrate\": 192, \"quality\": 2", "param 'bitrate': expected either 'quality' or 'bitrate', found both")])
    func refusals(_ sourceParams: String, _ encoderParams: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "s": { "type": "sine", "params": { "seconds": 0.5 \(sourceParams.isEmpty ? "" : ", " + sourceParams) } },
                     "enc": { "type": "mp3", "params": { \(encoderParams) } },
                     "o": { "type": "mp3sink", "params": { "path": "\(dir)/o.mp3" } } },
          "chains": [["s", "enc", "o"]] }
        """, in: dir)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.status != 0)
        #expect(v.stderr.contains(message), "\(v.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.mp3"))
        try? FileManager.default.removeItem(atPath: dir)
    }
}
