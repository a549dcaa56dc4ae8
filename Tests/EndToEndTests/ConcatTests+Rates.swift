import Foundation
import Testing

extension ConcatTests {
    /// A 25 fps clip then a 60 fps clip, encoded: the last frame lasts 1/60 s (its own), not the
    /// first clip's 1/25, so the file is as long as the two clips (1 s + 0.5 s by ffprobe).
    @Test func theLastFrameKeepsItsOwnDurationAfterAJoinOfRates() throws {
        let dir = CLI.tempDir()
        for (name, rate, seconds) in [("a", 25, "1"), ("b", 60, "0.5")] {
            let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=\(rate):d=\(seconds)",
                                           "-c:v", "libx264", "-preset", "veryfast", dir + "/\(name).mp4"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let g = CLI.writeGraph("""
        { "nodes": { "a": { "type": "filesrc", "params": { "path": "a.mp4" } },
                     "b": { "type": "filesrc", "params": { "path": "b.mp4" } },
                     "cat": { "type": "concat", "params": {} },
                     "enc": { "type": "h264", "params": { "preset": "veryfast" } },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["a.video", "cat.video"], ["b.video", "cat.video1"], ["cat.video", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let packets = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts", "-of", "csv=p=0",
                                              dir + "/out.mp4"]).out.split(separator: "\n")
        #expect(packets.count == 25 + 30)
        // the stream ends 1/60 s after the last frame's start (1.523 s before: 1/25 after it)
        let duration = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=duration", "-of", "csv=p=0", dir + "/out.mp4"]).out
        #expect(abs((Double(duration.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - 1.5) < 0.002, "\(duration)")
    }
}
