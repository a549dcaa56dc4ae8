#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `realtime` against the clock: a run takes at least as long as its last buffer's time over
/// `speed` (the first passes at once), its buffers pass unchanged, a timestamp jump past `limit`
/// restarts the clock instead of waiting, and Ctrl-C ends a paced run at once, in order.
@Suite struct RealtimeTests {
    /// Runs `json` and returns its wall time in seconds.
    static func timedRun(_ json: String, in dir: String) throws -> (seconds: Double, result: CLI.Result) {
        let g = CLI.writeGraph(json, in: dir)
        let start = Date()
        let r = try CLI.mediagraph("run", g)
        return (Date().timeIntervalSince(start), r)
    }

    /// testsrc 45 frames at 30 fps (the last at 1.467 s) → realtime → framehash: at speed 1 the
    /// run lasts at least 1.467 s, at speed 3 at least 0.489 s and less than the speed-1 run;
    /// the pictures and times are those of the same run without realtime.
    @Test func rawFramesPassAtTheirTimes() throws {
        let dir = CLI.tempDir()
        func graph(_ pacing: String?, _ out: String) -> String {
            let chain = pacing == nil ? #"["src", "out"]"# : #"["src", "rt", "out"]"#
            let rt = pacing.map { #", "rt": { "type": "realtime", "params": { "speed": \#($0) } }"# } ?? ""
            return """
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 160, "height": 120, "frames": 45 } }\(rt),
                         "out": { "type": "framehash", "params": { "path": "\(out)", "times": true } } },
              "chains": [\(chain)] }
            """
        }
        let plain = try Self.timedRun(graph(nil, "plain.txt"), in: dir)
        let one = try Self.timedRun(graph("1", "one.txt"), in: dir)
        let three = try Self.timedRun(graph("3", "three.txt"), in: dir)
        for r in [plain, one, three] { #expect(r.result.status == 0, "\(r.result.stderr)") }
        #expect(one.seconds >= 44.0 / 30 && one.seconds < 44.0 / 30 + 4, "speed 1: \(one.seconds) s")
        #expect(three.seconds >= 44.0 / 90 && three.seconds < one.seconds, "speed 3: \(three.seconds) s, speed 1: \(one.seconds) s")
        #expect(plain.seconds < one.seconds, "no pacing: \(plain.seconds) s")
        let a = try String(contentsOfFile: dir + "/plain.txt", encoding: .utf8)
        for paced in ["one.txt", "three.txt"] {
            #expect(try String(contentsOfFile: dir + "/" + paced, encoding: .utf8) == a, "\(paced)")
        }
    }

    /// A stream copy paced as ffmpeg's -re paces it, by decode time: 3 s of H.264 (with
    /// B-frames) and AAC at speed 2 take at least 1.45 s, and the copied packets are the file's
    /// (ffmpeg's framemd5 of both, packet by packet).
    @Test func packetsOfACopyArePacedAndUnchanged() throws {
        let dir = CLI.tempDir()
        let m = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=s=320x240:r=30:d=3", "-f", "lavfi", "-i", "sine=d=3",
                                       "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", dir + "/in.mp4"])
        #expect(m.status == 0, "\(m.stderr)")
        let (seconds, r) = try Self.timedRun("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp4" } },
                     "rt": { "type": "realtime", "params": { "speed": 2 } }, "art": { "type": "realtime", "params": { "speed": 2 } },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["in.video", "rt", "mux.video"], ["in.audio", "art", "mux.audio"]] }
        """, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(seconds >= 2.9 / 2 && seconds < 2.9 / 2 + 4, "\(seconds) s")
        func packets(_ file: String) throws -> [String] {
            let p = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/" + file, "-c", "copy", "-f", "framemd5", "-"])
            #expect(p.status == 0, "\(p.stderr)")
            return p.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
        }
        let a = try packets("out.mp4"), b = try packets("in.mp4")
        #expect(a.count > 150 && a == b, "\(a.count) packets vs the file's \(b.count)")
    }

    /// Frame 15 jumps 100 s ahead (setpts): with the default limit of 2 s the clock restarts
    /// there and 30 frames take about 1 s (not 100), and the run says so; with a limit of 200 s
    /// the node would wait, which a 3 s budget shows by the run still going.
    @Test func aJumpPastTheLimitRestartsTheClock() throws {
        let dir = CLI.tempDir()
        func graph(_ limit: String) -> String {
            """
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 160, "height": 120, "frames": 30 } },
                         "jump": { "type": "setpts", "params": { "expr": "N/(30*TB)+gte(N,15)*100/TB" } },
                         "rt": { "type": "realtime"\(limit) }, "out": { "type": "nullsink" } },
              "chains": [["src", "jump", "rt", "out"]] }
            """
        }
        let (seconds, r) = try Self.timedRun(graph(""), in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(seconds >= 29.0 / 30 - 1.0 / 30 && seconds < 29.0 / 30 + 4, "\(seconds) s")
        #expect(r.stderr.contains("node 'rt' (realtime): 1 timestamp jump past param 'limit'"), "\(r.stderr)")
        let p = try CLI.startMediagraph("run", "--quiet", CLI.writeGraph(graph(#", "params": { "limit": 200 }"#), in: dir, name: "wait.json"))
        usleep(3_000_000)
        #expect(p.isRunning, "with limit 200 the jump should be waited for")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
    }

    /// A paced endless testsrc into mp4: Ctrl-C after 1.5 s ends the run within a
    /// second (exit 130), and the mp4 holds what passed (about 30 pictures), playable.
    @Test func ctrlCEndsAPacedRunAtOnce() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 160, "height": 120, "frames": 1000000 } },
                     "rt": { "type": "realtime" }, "enc": { "type": "h264", "params": { "preset": "ultrafast" } },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["src", "rt", "enc", "mux.video"]] }
        """, in: dir)
        let p = try CLI.startMediagraph("run", "--quiet", g)
        usleep(1_500_000)  // the handler is in place long before; the muxer holds its bytes back
        kill(p.processIdentifier, SIGINT)
        let signalled = Date()
        p.waitUntilExit()
        #expect(Date().timeIntervalSince(signalled) < 1.5 * CLI.timeLimit / 5, "the run took \(Date().timeIntervalSince(signalled)) s to end")
        #expect(p.terminationStatus == 130)
        let f = try CLI.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", dir + "/out.mp4"])
        let n = Int(f.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(f.status == 0 && (20...200).contains(n), "\(n) pictures: \(f.stderr)")
    }
}
