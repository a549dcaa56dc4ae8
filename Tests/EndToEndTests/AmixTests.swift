import Foundation
import Testing

/// The `amix` node against ffmpeg's amix on the same WAV files.
@Suite struct AmixTests {
    static func wav(_ path: String, _ source: String, seconds: Double, rate: Int = 48_000, layout: String = "mono") throws {
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "\(source):sample_rate=\(rate)", "-t", "\(seconds)",
                               "-af", "aformat=channel_layouts=\(layout)", "-c:a", "pcm_s16le", path])
    }

    static func floats(_ path: String) -> [Float] {
        let d = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        return d.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Our amix's samples equal ffmpeg's amix (normalize=1, the same weights) within 1e-6: both
    /// compute Σ gᵢxᵢ / Σ|gᵢ| in single precision (ffmpeg may fuse the multiply-add, hence a
    /// bound rather than equality; the samples are at most 1 in magnitude, 1e-6 is ~8 ulp).
    @Test(arguments: [("longest", [0.5, 0.5, 0.5]), ("shortest", [0.5, 0.3, 0.4])])
    func matchesFFmpegsAmix(end: String, seconds: [Double]) throws {
        let dir = CLI.tempDir()
        try Self.wav(dir + "/a.wav", "sine=frequency=440", seconds: seconds[0])
        try Self.wav(dir + "/b.wav", "sine=frequency=997", seconds: seconds[1])
        try Self.wav(dir + "/c.wav", "anoisesrc=seed=7:amplitude=0.8", seconds: seconds[2])
        let g = CLI.writeGraph("""
        { "nodes": { "a": { "type": "wavsrc", "params": { "path": "a.wav" } }, "b": { "type": "wavsrc", "params": { "path": "b.wav" } },
                     "c": { "type": "wavsrc", "params": { "path": "c.wav" } },
                     "m": { "type": "amix", "params": { "gains": [1, 0.5, -0.25], "end": "\(end)" } },
                     "out": { "type": "pcmsink", "params": { "path": "ours.f32" } } },
          "chains": [["a", "m.in"], ["b", "m.in1"], ["c", "m.in2"], ["m", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ff = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/a.wav", "-i", dir + "/b.wav", "-i", dir + "/c.wav", "-filter_complex",
                                        "amix=inputs=3:weights=1 0.5 -0.25:normalize=1:duration=\(end):dropout_transition=0",
                                        "-f", "f32le", dir + "/ff.f32"])
        #expect(ff.status == 0, "\(ff.stderr)")
        let ours = Self.floats(dir + "/ours.f32"), theirs = Self.floats(dir + "/ff.f32")
        let expected = Int((end == "longest" ? seconds.max()! : seconds.min()!) * 48_000)
        #expect(ours.count == expected)
        #expect(theirs.count == expected)
        let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 1e-6, "largest difference from ffmpeg's amix: \(worst)")
        #expect(ours.allSatisfy { abs($0) <= 1 })
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Inputs of another format, rate and channel count are resampled to the first input's by an
    /// inserted `resample` node that `validate` shows; the mix lasts as long as the longest input.
    @Test func otherRatesAndLayoutsAreResampledVisibly() throws {
        let dir = CLI.tempDir()
        try Self.wav(dir + "/a.wav", "sine=frequency=440", seconds: 0.4)
        try Self.wav(dir + "/b.wav", "sine=frequency=660", seconds: 0.5, rate: 44_100, layout: "stereo")
        try Self.wav(dir + "/c.wav", "sine=frequency=880", seconds: 0.3, rate: 22_050)
        let g = CLI.writeGraph("""
        { "nodes": { "a": { "type": "wavsrc", "params": { "path": "a.wav" } }, "b": { "type": "filesrc", "params": { "path": "b.wav" } },
                     "c": { "type": "filesrc", "params": { "path": "c.wav" } },
                     "m": { "type": "amix", "params": { "end": "longest" } }, "out": { "type": "pcmsink", "params": { "path": "ours.f32" } } },
          "chains": [["a", "m.in"], ["b.audio", "m.in1"], ["c.audio", "m.in2"], ["m", "out"]] }
        """, in: dir)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.status == 0, "\(v.stderr)")
        // filesrc decodes to s16: one resample per input does the sample format, rate and
        // channels, also where another input's adapters were inserted in between
        let text = v.out + v.stderr
        #expect(text.contains("inserted 'auto_resample_m_in1' (resample): s16 44100Hz 2ch → f32planar 48000Hz 1ch before 'm.in1'"), "\(text)")
        #expect(text.contains("inserted 'auto_resample_m_in2' (resample): s16 22050Hz 1ch → f32planar 48000Hz 1ch before 'm.in2'"), "\(text)")
        #expect(!text.contains("auto_resample_m_in1_1") && !text.contains("auto_resample_m_in2_1"), "\(text)")
        #expect(text.components(separatedBy: "(resample) [inserted]").count - 1 == 3, "one per input (wavsrc gives s16 too): \(text)")
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = Self.floats(dir + "/ours.f32")
        #expect(abs(ours.count - 24_000) <= 32, "\(ours.count) samples")
        #expect(ours.allSatisfy { abs($0) <= 1 })
        try? FileManager.default.removeItem(atPath: dir)
    }
}
