#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The `dash` sink's live window (`window-size`, `extra-window-size`) against ffmpeg's own
/// `-f dash -window_size N -extra_window_size M` over the same packets: the same startNumber and
/// SegmentTimeline per representation, the same files left; and, while a long dynamic job runs,
/// an MPD that never lists a segment that is not there.
@Suite struct DASHLiveWindowTests {
    /// Names of the segment files in dir (the init segments and MPD left out).
    static func segmentFiles(in dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("chunk-") }.sorted()
    }

    /// 15 s in 2 s segments (8 per representation), a window of 3 and 2 extra: each
    /// representation's SegmentTemplate starts at number 6 with ffmpeg's timeline, segments 4–8
    /// stay (ffmpeg's files, by name), and ffmpeg reads the MPD with no message.
    @Test func windowAndRemovedFilesAreFFmpegs() throws {
        let dir = CLI.tempDir()
        let r = try DASHSinkTests.encode(in: dir, frames: 450, keyint: 30, params: #", "window-size": 3, "extra-window-size": 2"#)
        #expect(r.status == 0, "\(r.stderr)")
        let ref = dir + "/ref"
        try FileManager.default.createDirectory(atPath: ref, withIntermediateDirectories: true)
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/ours.mp4", "-c", "copy", "-f", "dash", "-seg_duration", "2",
                                       "-window_size", "3", "-extra_window_size", "2", ref + "/out.mpd"])
        #expect(f.status == 0 && f.stderr.isEmpty, "\(f.stderr)")
        let ours = try DASHSinkTests.parse(dir + "/out.mpd").all("Representation")
        let theirs = try DASHSinkTests.parse(ref + "/out.mpd").all("Representation")
        #expect(ours.count == 2 && theirs.count == 2)
        for (a, b) in zip(ours, theirs) {
            let start = a.all("SegmentTemplate").first?["startNumber"]
            #expect(start == "6" && start == b.all("SegmentTemplate").first?["startNumber"], "representation \(a["id"] ?? "")")
            let x = DASHSinkTests.timeline(a), y = DASHSinkTests.timeline(b)
            #expect(x.count == 3 && x.map(\.t) == y.map(\.t) && x.map(\.d) == y.map(\.d), "ours \(x), ffmpeg's \(y)")
        }
        let kept = try Self.segmentFiles(in: dir)
        #expect(kept == (try Self.segmentFiles(in: ref)), "\(kept)")
        #expect(kept.count == 10 && kept.first == "chunk-stream0-00004.m4s", "\(kept)")
        let read = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/out.mpd", "-c", "copy", "-f", "null", "-"])
        #expect(read.status == 0 && read.stderr.isEmpty, "\(read.stderr)")
    }

    /// A long dynamic job, 0.5 s segments, a window of 3 and 1 extra, read every few
    /// milliseconds: the MPD lists 1 to 3 segments, from its startNumber, all there, says
    /// timeShiftBufferDepth (3 segments), and the folder never holds more than 5 segment files
    /// (3 listed, 1 extra, 1 just in place). Ctrl-C ends it with a static MPD of the last 3.
    @Test func aRunningWindowNeverListsAMissingSegment() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 100000 } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15 } },
                     "dash": { "type": "dash", "params": { "path": "live.mpd", "manifest-type": "dynamic", "segment-duration": 0.5,
                                                           "window-size": 3, "extra-window-size": 1 } } },
          "chains": [["src", "venc", "dash.video"]] }
        """, in: dir)
        let p = try CLI.startMediagraph("run", "--quiet", g)
        var highestStart = 0
        let deadline = Date().addingTimeInterval(6 * CLI.timeLimit)
        while p.isRunning && Date() < deadline && highestStart < 12 {
            if FileManager.default.fileExists(atPath: dir + "/live.mpd") {
                let mpd = try DASHSinkTests.parse(dir + "/live.mpd")
                #expect(DASHSinkTests.seconds(mpd["timeShiftBufferDepth"]).map { abs($0 - 1.5) < 0.01 } == true, "\(mpd.attributes)")
                let start = Int(mpd.all("SegmentTemplate").first?["startNumber"] ?? "") ?? -1
                let listed = DASHSinkTests.timeline(mpd.all("Representation")[0])
                #expect((1...3).contains(listed.count), "\(listed)")
                for k in start..<(start + listed.count) {
                    let name = "chunk-stream0-" + String(format: "%05d", k) + ".m4s"
                    #expect(FileManager.default.fileExists(atPath: dir + "/" + name), "the MPD lists \(name), which is not there")
                }
                highestStart = max(highestStart, start)
            }
            let files = try Self.segmentFiles(in: dir)
            #expect(files.count <= 5, "\(files)")
            usleep(5_000)
        }
        #expect(highestStart >= 12, "the job did not get 15 segments far in time")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        let mpd = try DASHSinkTests.parse(dir + "/live.mpd")
        #expect(mpd["type"] == "static" && DASHSinkTests.timeline(mpd.all("Representation")[0]).count == 3, "\(mpd.attributes)")
    }
}
