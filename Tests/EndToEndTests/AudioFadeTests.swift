import Foundation
import Testing

/// `afade` against ffmpeg's `afade` (time based) on the same samples: equal floats, in and out,
/// spans on and off the sample grid and across buffer boundaries, every curve.
@Suite struct AudioFadeTests {
    @Test(arguments: [("in", "0", "1"), ("in", "0.3", "0.7"), ("out", "1.2", "0.5"), ("out", "0", "2"), ("in", "0.25", "0.33")])
    func samplesAreFFmpegs(_ type: String, _ start: String, _ duration: String) throws {
        try compare(type, start, duration, curve: nil)
    }

    /// Every curve ffmpeg 5.1 names, fading in for some and out for others, over a span that
    /// starts off the sample grid (the curves' ends, where log, exp and sinc bend hardest, are in).
    @Test(arguments: ["tri", "qsin", "esin", "hsin", "log", "ipar", "qua", "cub", "squ", "cbr", "par", "exp", "iqsin", "ihsin",
                      "dese", "desi", "losi", "sinc", "isinc", "nofade"].enumerated().map { ($0.offset % 2 == 0 ? "in" : "out", $0.element) })
    func curvesAreFFmpegs(_ type: String, _ curve: String) throws {
        try compare(type, "0.25", "1.3", curve: curve)
    }

    func compare(_ type: String, _ start: String, _ duration: String, curve: String?) throws {
        let dir = CLI.tempDir()
        let make = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2:sample_rate=44100", "-f", "lavfi",
                                          "-i", "sine=frequency=1000:duration=2:sample_rate=44100", "-filter_complex", "[0][1]amerge=inputs=2",
                                          "-c:a", "pcm_f32le", dir + "/in.wav"])
        #expect(make.status == 0, "\(make.stderr)")
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.wav" } },
                     "f": { "type": "afade", "params": { "type": "\(type)", "start": \(start), "duration": \(duration)\(curve.map { #", "curve": "\#($0)""# } ?? "") } },
                     "out": { "type": "pcmsink", "params": { "path": "ours.f32" } } },
          "chains": [["in.audio", "f", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.wav", "-af", "afade=t=\(type):st=\(start):d=\(duration)" + (curve.map { ":curve=\($0)" } ?? ""),
                                       "-f", "f32le", dir + "/ffmpeg.f32"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = VolumeTests.floats(dir + "/ours.f32"), theirs = VolumeTests.floats(dir + "/ffmpeg.f32")
        #expect(ours.count == 2 * 88200 && ours == theirs,
                "\(curve ?? "tri"): \(ours.count) vs \(theirs.count) samples; first difference at \(zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
    }
}
