import Foundation
import MediaGraphCodecs
import Testing

/// The `concat` node run by the CLI on clips made by ffmpeg, against a formula for the timing
/// and against ffmpeg's concat filter for the frames and samples.
@Suite struct ConcatTests {
    /// Clip k of the many-clip test: video frames at 25 fps and audio samples at 48 kHz, odd and
    /// different lengths (audio sometimes longer, sometimes shorter than video).
    static func clip(_ k: Int, of n: Int) -> (frames: Int, samples: Int) {
        if k == n - 1 { return (5, 9_601) }  // the last clip: audio ends 1 sample after video
        return (3 + (k * 7) % 4, 4_001 + (k * 1_237) % 9_000)
    }

    /// Makes clip k (64x48 ffv1 + s16 PCM in NUT) in `dir`; at another rate the audio lasts as long
    /// (filters trim both streams: `-frames:v` would end the audio with the video).
    static func makeClip(_ k: Int, of n: Int, in dir: String, size: String = "64x48", rate: Int = 48_000, layout: String = "mono") throws {
        let c = clip(k, of: n)
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=25:decimals=0,drawbox=x=\(k % 40):y=0:w=8:h=8:c=red:t=fill",
                               "-f", "lavfi", "-i", "sine=frequency=\(200 + 17 * k):sample_rate=\(rate),aformat=channel_layouts=\(layout)",
                               "-vf", "trim=end_frame=\(c.frames)", "-af", "atrim=end_sample=\(c.samples * rate / 48_000)",
                               "-c:v", "ffv1", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", dir + "/c\(k).nut"])
    }

    /// A graph of `n` file sources joined by concat into a framehash per output.
    static func graph(clips n: Int) -> String {
        var nodes = (0..<n).map { "\"s\($0)\": { \"type\": \"filesrc\", \"params\": { \"path\": \"c\($0).nut\" } }" }
        nodes += ["\"cat\": { \"type\": \"concat\" }",
                  "\"v\": { \"type\": \"framehash\", \"params\": { \"path\": \"v.txt\" } }",
                  "\"a\": { \"type\": \"framehash\", \"params\": { \"path\": \"a.txt\" } }"]
        var chains = (0..<n).flatMap { k in
            ["[\"s\(k).video\", \"cat.video\(k == 0 ? "" : String(k))\"]", "[\"s\(k).audio\", \"cat.audio\(k == 0 ? "" : String(k))\"]"]
        }
        chains += ["[\"cat.video\", \"v\"]", "[\"cat.audio\", \"a\"]"]
        return "{ \"nodes\": { " + nodes.joined(separator: ",\n") + " },\n \"chains\": [" + chains.joined(separator: ",\n") + "] }"
    }

    /// The output time base concat reports: the video output's, read from `validate`.
    static func md5(_ bytes: ArraySlice<UInt8>) -> String {
        var m = MD5()
        m.update(Array(bytes))
        return m.finalize()
    }

    /// 50 clips with audio: every frame and every audio sample lands where the formula says
    /// (clip k+1 starts where the longer of clip k's video and audio ends; silence fills a
    /// shorter audio), so the output lasts the sum of the clips and audio and video end within
    /// one audio frame of each other; the frames and the samples equal ffmpeg's concat filter's.
    @Test func fiftyClipsJoinSampleExactlyAsFFmpegsConcat() throws {
        let n = 50
        let dir = CLI.tempDir()
        for k in 0..<n { try Self.makeClip(k, of: n, in: dir) }
        let g = CLI.writeGraph(Self.graph(clips: n), in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")

        // the formula, in samples of 48 kHz (a 25 fps frame is 1920 of them)
        var starts: [Int] = [], t = 0
        for k in 0..<n {
            starts.append(t)
            let c = Self.clip(k, of: n)
            t += max(c.frames * 1920, c.samples)
        }
        let last = Self.clip(n - 1, of: n)
        let videoEnd = starts[n - 1] + last.frames * 1920, audioEnd = starts[n - 1] + last.samples

        let video = DecodeGraphTests.hashes(dir + "/v.txt")
        let expectedFrames = (0..<n).reduce(0) { $0 + Self.clip($1, of: n).frames }
        #expect(video.count == expectedFrames)
        // ours: pts in the output time base (768000 = lcm of NUT's 1/51200 and 1/48000)
        let scale: Int64 = 768_000
        var i = 0
        for k in 0..<n {
            for f in 0..<Self.clip(k, of: n).frames where i < video.count {
                #expect(video[i].pts * 48_000 == Int64(starts[k] + f * 1920) * scale, "frame \(i) (clip \(k) frame \(f))")
                i += 1
            }
        }
        let audio = DecodeGraphTests.hashes(dir + "/a.txt")
        var samples = 0
        for a in audio {
            #expect(a.pts == Int64(samples), "audio chunk at sample \(samples) stamped \(a.pts)")
            samples += a.size / 2
        }
        #expect(samples == audioEnd, "audio ends at sample \(samples), the clips sum to \(audioEnd)")
        #expect(abs(audioEnd - videoEnd) <= 1024)

        // ffmpeg's concat filter on the same clips
        let inputs = (0..<n).flatMap { ["-i", dir + "/c\($0).nut"] }
        let pads = (0..<n).map { "[\($0):v][\($0):a]" }.joined()
        let ff = try CLI.run("ffmpeg", ["-v", "error"] + inputs + ["-filter_complex", pads + "concat=n=\(n):v=1:a=1[v][a]",
                                        "-map", "[v]", "-fps_mode", "passthrough", "-enc_time_base", "1:1000000", "-f", "framemd5", dir + "/ff.txt",
                                        "-map", "[a]", "-f", "s16le", dir + "/ff.pcm"])
        #expect(ff.status == 0, "\(ff.stderr)")
        var ffVideo: [(pts: Int64, md5: String)] = []
        for line in ((try? String(contentsOfFile: dir + "/ff.txt", encoding: .utf8)) ?? "").split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if f.count == 6, let pts = Int64(f[2]) { ffVideo.append((pts, f[5])) }
        }
        #expect(ffVideo.map(\.md5) == video.map(\.md5), "decoded frames differ from ffmpeg's concat")
        // ffmpeg's concat counts in microseconds and rounds each join to one, so by clip k it may
        // be k µs off the exact time (ours is exact: checked above)
        let clipOfFrame = (0..<n).flatMap { k in Array(repeating: k, count: Self.clip(k, of: n).frames) }
        for (i, (ours, theirs)) in zip(video, ffVideo).enumerated() {
            let exact = Double(ours.pts) * 1e6 / Double(scale)
            #expect(abs(exact - Double(theirs.pts)) <= Double(clipOfFrame[i] + 1), "frame \(i): ours \(exact) µs, ffmpeg \(theirs.pts) µs")
        }
        let pcm = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/ff.pcm"))) ?? Data())
        #expect(pcm.count == samples * 2, "ffmpeg's concat gave \(pcm.count / 2) samples, ours \(samples)")
        for a in audio where Int(a.pts) * 2 + a.size <= pcm.count {
            #expect(Self.md5(pcm[(Int(a.pts) * 2)..<(Int(a.pts) * 2 + a.size)]) == a.md5, "audio samples \(a.pts)…\(Int(a.pts) + a.size / 2) differ from ffmpeg's")
        }
        try? FileManager.default.removeItem(atPath: dir)
    }
}

/// Clips that differ in size, pixel format, sample rate and channels meet through inserted
/// `scale` and `resample` nodes, which `validate` shows; a clip numbering with a gap is refused.
@Suite struct ConcatMismatchTests {
    @Test func differentClipsMeetThroughVisibleConverters() throws {
        let dir = CLI.tempDir()
        try ConcatTests.makeClip(0, of: 3, in: dir)
        try ConcatTests.makeClip(1, of: 3, in: dir, size: "96x72", rate: 44_100, layout: "stereo")
        try ConcatTests.makeClip(2, of: 3, in: dir, size: "32x24", rate: 32_000)
        let g = CLI.writeGraph(ConcatTests.graph(clips: 3), in: dir)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.status == 0, "\(v.stderr)")
        let text = v.out + v.stderr
        #expect(text.contains("inserted 'auto_scale_cat_video1' (scale): yuv420p 96x72 → yuv420p 64x48 before 'cat.video1'"), "\(text)")
        #expect(text.contains("inserted 'auto_scale_cat_video2' (scale): yuv420p 32x24 → yuv420p 64x48 before 'cat.video2'"), "\(text)")
        #expect(text.contains("inserted 'auto_resample_cat_audio1' (resample): s16 44100Hz 2ch → s16 48000Hz 1ch before 'cat.audio1'"), "\(text)")
        #expect(text.contains("inserted 'auto_resample_cat_audio2' (resample): s16 32000Hz 1ch → s16 48000Hz 1ch before 'cat.audio2'"), "\(text)")
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        let video = DecodeGraphTests.hashes(dir + "/v.txt")
        let frames = (0..<3).reduce(0) { $0 + ConcatTests.clip($1, of: 3).frames }
        #expect(video.count == frames)
        #expect(video.allSatisfy { $0.size == 64 * 48 * 3 / 2 })
        // audio: every clip's samples at 48 kHz (resampled ones within a few samples of the
        // exact count), padded to the longer of video and audio, without gaps
        let audio = DecodeGraphTests.hashes(dir + "/a.txt")
        var samples: Int64 = 0
        for a in audio {
            #expect(a.pts == samples)
            samples += Int64(a.size / 2)
        }
        var expected = 0
        for k in 0..<3 {
            let c = ConcatTests.clip(k, of: 3)
            expected += k < 2 ? max(c.frames * 1920, c.samples) : c.samples
        }
        #expect(abs(Int(samples) - expected) <= 32, "\(samples) samples, expected about \(expected)")
        try? FileManager.default.removeItem(atPath: dir)
    }

    @Test func aClipNumberingWithAGapIsRefused() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "a": { "type": "testsrc", "params": { "frames": 2 } }, "b": { "type": "testsrc", "params": { "frames": 2 } },
                     "cat": { "type": "concat" }, "out": { "type": "nullsink" } },
          "chains": [["a", "cat.video"], ["b", "cat.video2"], ["cat.video", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains("node 'cat' (concat): input 'video1' is not connected (clip 1 has video, video2): clips are numbered from 0 (video, video1, …) without gaps"), "\(r.stderr)")
    }
}
