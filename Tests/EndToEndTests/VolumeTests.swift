import Foundation
import Testing

/// `volume` against ffmpeg's `volume` filter on the same samples: the same float bytes, for a
/// factor and for decibels, and on an s16 input that the graph converts.
@Suite struct VolumeTests {
    static func floats(_ path: String) -> [Float] {
        let d = FileManager.default.contents(atPath: path) ?? Data()
        return d.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test(arguments: [(#""volume": 0.5"#, "volume=0.5"), (#""volume": 2.7"#, "volume=2.7"), (#""db": -6"#, "volume=-6dB"), (#""db": 3.5"#, "volume=3.5dB")])
    func samplesAreFFmpegs(_ params: String, _ filter: String) throws {
        let dir = CLI.tempDir()
        // a stereo WAV with two tones, written by ffmpeg as float
        let make = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1:sample_rate=44100", "-f", "lavfi",
                                          "-i", "sine=frequency=1000:duration=1:sample_rate=44100", "-filter_complex", "[0][1]amerge=inputs=2",
                                          "-c:a", "pcm_f32le", dir + "/in.wav"])
        #expect(make.status == 0, "\(make.stderr)")
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.wav" } }, "v": { "type": "volume", "params": { \(params) } },
                     "out": { "type": "pcmsink", "params": { "path": "ours.f32" } } },
          "chains": [["in.audio", "v", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.wav", "-af", filter, "-f", "f32le", dir + "/ffmpeg.f32"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = Self.floats(dir + "/ours.f32"), theirs = Self.floats(dir + "/ffmpeg.f32")
        #expect(ours.count == 2 * 44100 && ours == theirs, "\(ours.count) vs \(theirs.count) samples; first difference at \(zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
    }

    @Test func bothGainsAreRefused() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "t": { "type": "sine", "params": { "seconds": 0.1 } }, "v": { "type": "volume", "params": { "volume": 2, "db": 6 } },
                     "out": { "type": "nullsink" } }, "chains": [["t", "v", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains("node 'v' (volume): params 'volume' and 'db' both say the gain (found 2.0 and 6.0 dB): give one"), "\(r.stderr)")
    }
}
