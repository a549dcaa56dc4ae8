import Foundation
import Testing

/// `atempo` against ffmpeg's `atempo` on the same float samples: every output sample equal, at
/// tempos below and above 1 (and above 2, where a fragment step skips input), for mono and
/// multichannel sound (whose alignment uses the loudest channel) at several rates. Times and
/// mistakes are checked apart.
@Suite struct AudioTempoTests {
    /// Sound with structure for the alignment to find: tones that glide and beat, a chirp and
    /// seeded noise, different in every channel.
    static let channelExpressions = [
        "0.5*sin(2*PI*(220+80*t)*t)+0.25*sin(2*PI*1234*t)*sin(2*PI*3*t)+0.05*(random(0)-0.5)",
        "0.4*sin(2*PI*330*t)+0.3*sin(2*PI*(500+400*t)*t)",
        "0.6*sin(2*PI*97*t)*(0.5+0.5*sin(2*PI*0.7*t))",
        "0.3*sin(2*PI*2000*t)+0.2*(random(1)-0.5)",
        "0.8*sin(2*PI*55*t)",
        "0.2*sin(2*PI*5000*t)*sin(2*PI*11*t)",
    ]

    static func makeInput(_ path: String, rate: Int, channels: Int, seconds: Double) throws {
        let expr = channelExpressions.prefix(channels).joined(separator: "|")
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "aevalsrc=\(expr):s=\(rate):d=\(seconds)",
                                       "-c:a", "pcm_f32le", path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(arguments: [(0.5, 48000, 2), (0.8, 44100, 1), (1.25, 48000, 2), (2.0, 22050, 1), (1.5, 48000, 6), (3.7, 44100, 2), (0.63, 8000, 1)])
    func samplesAreFFmpegs(_ tempo: Double, _ rate: Int, _ channels: Int) throws {
        let dir = CLI.tempDir()
        try Self.makeInput(dir + "/in.wav", rate: rate, channels: channels, seconds: 2.3)
        // wavsrc's buffers of 1000 samples are not ffmpeg's 1024: the samples must not depend on them
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "wavsrc", "params": { "path": "in.wav", "chunk": 1000 } },
                     "t": { "type": "atempo", "params": { "tempo": \(tempo) } },
                     "out": { "type": "pcmsink", "params": { "path": "ours.f32" } } },
          "chains": [["in", "t", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.wav", "-af", "atempo=\(tempo)", "-f", "f32le", dir + "/ffmpeg.f32"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = VolumeTests.floats(dir + "/ours.f32"), theirs = VolumeTests.floats(dir + "/ffmpeg.f32")
        let firstDifference = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(!theirs.isEmpty && ours.count == theirs.count && firstDifference == nil,
                "\(ours.count) vs \(theirs.count) values; first difference at value \(firstDifference ?? -1)")
        // and the length is the input's over the tempo, within a window
        let expected = 2.3 * Double(rate) / tempo
        #expect(abs(Double(ours.count / channels) - expected) < Double(rate) / 20, "\(ours.count / channels) frames, expected about \(expected)")
    }

    /// Output buffers carry times that run on sample by sample: 3 s at tempo 1.5 encoded to AAC
    /// and muxed is a 2 s track for ffprobe, as ffmpeg's.
    @Test func timesRunOnFromTheFirstBuffer() throws {
        let dir = CLI.tempDir()
        try Self.makeInput(dir + "/in.wav", rate: 48000, channels: 2, seconds: 3)
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "wavsrc", "params": { "path": "in.wav" } },
                     "t": { "type": "atempo", "params": { "tempo": 1.5 } },
                     "enc": { "type": "aac", "params": {} },
                     "out": { "type": "mp4", "params": { "path": "out.m4a" } } },
          "chains": [["in", "t", "enc", "out.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.wav", "-af", "atempo=1.5", "-c:a", "aac", dir + "/ffmpeg.m4a"])
        #expect(f.status == 0, "\(f.stderr)")
        func seconds(_ file: String) throws -> Double {
            let probe = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=duration", "-of", "csv=p=0", file])
            return Double(probe.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        // 2 s, as ffmpeg's, within one AAC frame (1024 samples)
        let ours = try seconds(dir + "/out.m4a"), theirs = try seconds(dir + "/ffmpeg.m4a")
        #expect(abs(ours - 2.0) < 0.03 && abs(ours - theirs) < 1024.0 / 48000, "ours \(ours) s, ffmpeg's \(theirs) s")
    }

    @Test func tempoOutOfRangeIsNamed() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "s": { "type": "sine", "params": { "seconds": 0.1 } }, "t": { "type": "atempo", "params": { "tempo": 0.25 } },
                     "out": { "type": "nullsink" } }, "chains": [["s", "t", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains("node 't' param 'tempo': expected number 0.5…100, found 0.25"), "\(r.stderr)")
    }
}
