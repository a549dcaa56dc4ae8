import Foundation
import Testing

/// A snapshot branch whose pictures cannot be written (a full disk; here a file size limit,
/// which fails the large pictures only) never costs the recording: the run goes on, the
/// recording is complete by ffprobe, and the failures are one counted warning.
@Suite struct SnapshotWriteFailureTests {
    @Test func failedPicturesAreCountedAndTheRecordingIsKept() throws {
        let dir = CLI.tempDir()
        // noise, so the 1920x1080 pictures cannot compress below the limit; the 64x48 recording
        // (30 frames of y4m, 138 KB) stays under it
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30", "-frames:v", "30",
                               "-vf", "noise=alls=80:allf=t", "-c:v", "libx264", "-qp", "0", dir + "/in.mkv"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "in.mkv" } },
                     "rec": { "type": "y4msink", "params": { "path": "rec.y4m" } },
                     "up": { "type": "scale", "params": { "width": 1920, "height": 1080 } },
                     "snap": { "type": "snapshot", "params": { "path": "snap/s-%d.png", "every-frames": 10, "when-busy": "wait" } } },
          "chains": [["src.video", "rec"], ["src.video", "up", "snap"]] }
        """, in: dir)
        // bash's `ulimit -f` counts KiB
        let r = try CLI.run("bash", ["-c", "ulimit -f 200 && exec \"$0\" run --quiet \"$1\"", CLI.binary, g], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: node 'snap' (snapshot): snapshot 'snap': 3 of 3 pictures could not be written, the first at 00:00:00.000: cannot write "), "\(r.stderr)")
        #expect(r.stderr.contains("File too large (the file size limit was reached); the recording went on"), "\(r.stderr)")
        let probe = try CLI.probe(dir + "/rec.y4m", "nb_read_frames", countFrames: true)
        #expect(probe["nb_read_frames"] == "30", "\(probe)")
        // nothing half-written in either place
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/snap")) ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }.isEmpty)
    }
}
