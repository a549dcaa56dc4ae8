import Foundation
import Testing

/// `concat` with `overlap`: each join is a transition. Against ffmpeg's `xfade` (fade) +
/// `acrossfade` on the same two clips, a formula for a wipe shader and for the timing of many
/// joins, and the errors for clips too short for their overlaps.
@Suite struct ConcatTransitionTests {
    /// A 25 fps yuv420p ffv1 + 48 kHz stereo s16 clip of `frames` frames and `samples` samples.
    static func makeClip(_ name: String, frames: Int, samples: Int, tone: Int, pattern: String = "testsrc2", pixfmt: String = "yuv420p", in dir: String) throws {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "\(pattern)=size=96x64:rate=25",
                                       "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000,aformat=channel_layouts=stereo",
                                       "-vf", "trim=end_frame=\(frames)", "-af", "atrim=end_sample=\(samples)",
                                       "-c:v", "ffv1", "-pix_fmt", pixfmt, "-c:a", "pcm_s16le", dir + "/\(name).nut"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    static func graph(clips: [String], params: String, video: String = "rawsink", in dir: String) -> String {
        var nodes = clips.enumerated().map { "\"s\($0.offset)\": { \"type\": \"filesrc\", \"params\": { \"path\": \"\($0.element).nut\" } }" }
        nodes += ["\"cat\": { \"type\": \"concat\", \"params\": { \(params) } }",
                  "\"v\": { \"type\": \"\(video)\", \"params\": { \"path\": \"v.out\" } }",
                  "\"a\": { \"type\": \"\(video == "rawsink" ? "pcmsink" : video)\", \"params\": { \"path\": \"a.out\" } }"]
        var chains = clips.indices.flatMap { k in
            ["[\"s\(k).video\", \"cat.video\(k == 0 ? "" : String(k))\"]", "[\"s\(k).audio\", \"cat.audio\(k == 0 ? "" : String(k))\"]"]
        }
        chains += ["[\"cat.video\", \"v\"]", "[\"cat.audio\", \"a\"]"]
        return CLI.writeGraph("{ \"nodes\": { " + nodes.joined(separator: ",\n") + " },\n \"chains\": [" + chains.joined(separator: ",\n") + "] }", in: dir)
    }

    /// Two clips with a 0.4 s cross-fade: the frames equal ffmpeg's
    /// `xfade=transition=fade:duration=0.4:offset=1.6` (same single-precision formula), the
    /// samples its `acrossfade=d=0.4`; 2.0 + 1.6 − 0.4 = 3.2 s out. yuv444p: ffmpeg 5.1's xfade
    /// has no yuv420p and would convert there and back (ours blends any format as it is).
    @Test func crossFadeIsFFmpegsXfadeAndAcrossfade() throws {
        let dir = CLI.tempDir()
        try Self.makeClip("a", frames: 50, samples: 96_000, tone: 440, pixfmt: "yuv444p", in: dir)
        try Self.makeClip("b", frames: 40, samples: 76_800, tone: 660, pattern: "smptebars", pixfmt: "yuv444p", in: dir)
        let r = try CLI.mediagraph("run", "--quiet", Self.graph(clips: ["a", "b"], params: "\"overlap\": 0.4", in: dir))
        #expect(r.status == 0, "\(r.stderr)")
        let frame = 96 * 64 * 3
        let ours = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/v.out"))) ?? Data())
        let oursAudio = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/a.out"))) ?? Data())
        #expect(ours.count == 80 * frame)
        #expect(oursAudio.count == 153_600 * 4)

        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/a.nut", "-i", dir + "/b.nut", "-filter_complex",
                                       "[0:v][1:v]xfade=transition=fade:duration=0.4:offset=1.6[v];[0:a][1:a]acrossfade=d=0.4[a]",
                                       "-map", "[v]", "-f", "rawvideo", "-pix_fmt", "yuv444p", dir + "/ff.yuv",
                                       "-map", "[a]", "-f", "s16le", dir + "/ff.pcm"])
        #expect(f.status == 0, "\(f.stderr)")
        let theirs = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/ff.yuv"))) ?? Data())
        let theirsAudio = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/ff.pcm"))) ?? Data())
        #expect(theirs.count == ours.count)
        var worst = 0, differing = 0
        for i in 0..<min(ours.count, theirs.count) where ours[i] != theirs[i] {
            differing += 1
            worst = max(worst, abs(Int(ours[i]) - Int(theirs[i])))
        }
        #expect(worst == 0, "\(differing) bytes differ, by up to \(worst)")
        // the blended frames really are blends: frame 45 (progress 0.5) is neither clip
        #expect(ours[45 * frame..<46 * frame] != theirs[0..<frame])
        #expect(theirsAudio.count == oursAudio.count)
        var worstSample = 0
        oursAudio.withUnsafeBytes { a in
            theirsAudio.withUnsafeBytes { b in
                let x = a.bindMemory(to: Int16.self), y = b.bindMemory(to: Int16.self)
                for i in 0..<min(x.count, y.count) { worstSample = max(worstSample, abs(Int(x[i]) - Int(y[i]))) }
            }
        }
        #expect(worstSample == 0, "audio differs from acrossfade by up to \(worstSample)")
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The crossfade's curves, as acrossfade's c1 (the ending clip) and c2 (the next): the same
    /// samples as ffmpeg's for pairs of ffmpeg's curves.
    @Test(arguments: [("qsin", "exp"), ("losi", "cbr"), ("nofade", "par"), ("tri", "hsin")])
    func crossfadeCurvesAreFFmpegs(_ out: String, _ into: String) throws {
        let dir = CLI.tempDir()
        try Self.makeClip("a", frames: 50, samples: 96_000, tone: 440, in: dir)
        try Self.makeClip("b", frames: 40, samples: 76_800, tone: 660, in: dir)
        let params = #""overlap": 0.4, "fade-out-curve": "\#(out)", "fade-in-curve": "\#(into)""#
        let r = try CLI.mediagraph("run", "--quiet", Self.graph(clips: ["a", "b"], params: params, in: dir))
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/a.nut", "-i", dir + "/b.nut", "-filter_complex",
                                       "[0:a][1:a]acrossfade=d=0.4:c1=\(out):c2=\(into)[a]", "-map", "[a]", "-f", "s16le", dir + "/ff.pcm"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/a.out"))) ?? Data())
        let theirs = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/ff.pcm"))) ?? Data())
        #expect(ours.count == 153_600 * 4 && ours == theirs, "\(out)/\(into): \(ours.count) bytes vs ffmpeg's \(theirs.count), first difference at \(zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A clip whose audio ends inside its overlap with the previous clip (0.1 s of audio, 1.6 s of
    /// video, 0.4 s overlap) was refused as "lasts 1.6 s, shorter than the 'overlap' of 0.4 s".
    /// Its audio is now padded with silence as far as the crossfade needs (to the clip's end when
    /// it is not the last, as without overlap): the samples are ffmpeg's acrossfade of the clips
    /// with that clip's audio padded by apad.
    @Test(arguments: [false, true])
    func audioEndingInsideTheOverlapFadesOverSilence(middle: Bool) throws {
        let dir = CLI.tempDir()
        try Self.makeClip("a", frames: 50, samples: 96_000, tone: 440, in: dir)
        try Self.makeClip("b", frames: 40, samples: 4_800, tone: 660, in: dir)
        try Self.makeClip("c", frames: 25, samples: 48_000, tone: 550, in: dir)
        let clips = middle ? ["a", "b", "c"] : ["a", "b"]
        let r = try CLI.mediagraph("run", "--quiet", Self.graph(clips: clips, params: "\"overlap\": 0.4", in: dir))
        #expect(r.status == 0, "\(r.stderr)")
        let mix = middle ? "[1:a]apad=whole_len=76800[b];[0:a][b]acrossfade=d=0.4[ab];[ab][2:a]acrossfade=d=0.4[a]"
                         : "[1:a]apad=whole_len=19200[b];[0:a][b]acrossfade=d=0.4[a]"
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/a.nut", "-i", dir + "/b.nut", "-i", dir + "/c.nut",
                                       "-filter_complex", mix, "-map", "[a]", "-f", "s16le", dir + "/ff.pcm"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/a.out"))) ?? Data())
        let theirs = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/ff.pcm"))) ?? Data())
        #expect(ours.count == (middle ? 96_000 + 76_800 - 19_200 + 48_000 - 19_200 : 96_000) * 4)
        #expect(ours.count == theirs.count)
        #expect(ours == theirs, "audio differs from ffmpeg's acrossfade of the padded clip")
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Six clips of different lengths (audio sometimes longer than video) joined with 0.12 s
    /// overlaps: clip k+1 starts 0.12 s before clip k ends (the longer of its video and audio), so
    /// the output lasts the sum less 5 overlaps; every frame time is the formula's, audio chunks
    /// are continuous and the audio ends within one audio frame of the video.
    @Test func manyJoinsKeepTheTimingFormula() throws {
        let dir = CLI.tempDir()
        let clips = [(12, 23_000), (15, 30_000), (10, 21_000), (14, 26_880), (11, 25_000), (13, 24_960)]
        for (k, c) in clips.enumerated() { try Self.makeClip("c\(k)", frames: c.0, samples: c.1, tone: 300 + 50 * k, in: dir) }
        let r = try CLI.mediagraph("run", "--quiet", Self.graph(clips: clips.indices.map { "c\($0)" }, params: "\"overlap\": 0.12", video: "framehash", in: dir))
        #expect(r.status == 0, "\(r.stderr)")
        let overlap = 5_760  // samples of 48 kHz; a frame is 1920
        var starts = [0]
        for c in clips.dropLast() { starts.append(starts.last! + max(c.0 * 1920, c.1) - overlap) }
        var expected: [Int] = []
        for (k, c) in clips.enumerated() {
            for f in 0..<c.0 where k == clips.count - 1 || starts[k] + f * 1920 < starts[k + 1] { expected.append(starts[k] + f * 1920) }
        }
        let video = DecodeGraphTests.hashes(dir + "/v.out")
        // pts in the output time base 1/768000 (lcm of NUT's 1/51200 and 1/48000): in samples
        #expect(video.map { Int($0.pts * 48_000 / 768_000) } == expected)
        let audio = DecodeGraphTests.hashes(dir + "/a.out")
        var samples = 0
        for a in audio {
            #expect(a.pts == Int64(samples), "audio chunk at sample \(samples) stamped \(a.pts)")
            samples += a.size / 4
        }
        #expect(samples == starts.last! + clips.last!.1)
        #expect(abs(samples - (starts.last! + clips.last!.0 * 1920)) <= 1024)
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A gl-transitions wipe on rgba clips of one colour each: at output frame i of the overlap
    /// (progress i/N), exactly the columns whose centre is left of progress × width show the
    /// incoming clip.
    @Test func aShaderTransitionRunsOnRgba() throws {
        let dir = CLI.tempDir()
        for (name, colour) in [("red", "red"), ("blue", "blue")] {
            let r = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=\(colour):size=64x16:rate=25:duration=1",
                                           "-c:v", "png", "-pix_fmt", "rgba", dir + "/\(name).nut"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        try "vec4 transition(vec2 uv) { return uv.x < progress ? getToColor(uv) : getFromColor(uv); }".write(toFile: dir + "/wipe.glsl", atomically: true, encoding: .utf8)
        let g = CLI.writeGraph("""
        { "nodes": { "a": { "type": "filesrc", "params": { "path": "red.nut" } },
                     "b": { "type": "filesrc", "params": { "path": "blue.nut" } },
                     "cat": { "type": "concat", "params": { "overlap": 0.4, "transition-file": "wipe.glsl" } },
                     "v": { "type": "rawsink", "params": { "path": "v.rgba" } } },
          "chains": [["a.video", "cat.video"], ["b.video", "cat.video1"], ["cat.video", "v"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let out = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/v.rgba"))) ?? Data())
        let frame = 64 * 16 * 4
        #expect(out.count == 40 * frame)
        for i in 0..<10 where (15 + i + 1) * frame <= out.count {
            let f = out[((15 + i) * frame)...]
            let blue = (0..<64).filter { x in f[f.startIndex + x * 4 + 2] > 128 }.count
            let expectedBlue = (0..<64).filter { x in (Double(x) + 0.5) / 64 < Double(i) / 10 }.count
            #expect(blue == expectedBlue, "overlap frame \(i): \(blue) blue columns, expected \(expectedBlue)")
        }
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A middle clip shorter than its two overlaps, and a shader on yuv420p, are clear errors.
    @Test func clipsTooShortAndShadersOnYuvAreErrors() throws {
        let dir = CLI.tempDir()
        try Self.makeClip("a", frames: 25, samples: 48_000, tone: 440, in: dir)
        try Self.makeClip("b", frames: 15, samples: 28_800, tone: 550, in: dir)
        try Self.makeClip("c", frames: 25, samples: 48_000, tone: 660, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", Self.graph(clips: ["a", "b", "c"], params: "\"overlap\": 0.4", in: dir))
        #expect(r.status != 0)
        #expect(r.stderr.contains("clip 1 (input 'video1') lasts 0.6 s, shorter than its 'overlap' with the clips before and after it (0.8 s)"), "\(r.stderr)")
        try "vec4 transition(vec2 uv) { return getToColor(uv); }".write(toFile: dir + "/t.glsl", atomically: true, encoding: .utf8)
        let v = try CLI.mediagraph("validate", Self.graph(clips: ["a", "c"], params: "\"overlap\": 0.4, \"transition-file\": \"t.glsl\"", in: dir))
        #expect(v.status != 0)
        #expect(v.stderr.contains("param 'transition-file': a gl-transitions shader blends rgba video, but the clips are yuv420p"), "\(v.stderr)")
        try? FileManager.default.removeItem(atPath: dir)
    }
}
