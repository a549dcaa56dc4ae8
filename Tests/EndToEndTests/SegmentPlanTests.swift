import Foundation
import Testing

/// `plan` / `run-segment` / `join`: a run split into segments, run apart and joined, gives the
/// pictures and sound of the same graph run whole, as ffmpeg decodes both; and what cannot be
/// split, or joined, says why.
@Suite struct SegmentPlanTests {
    /// A 10 s clip with B-frames, a key frame every 2 s, and AAC sound.
    static func clip(in dir: String) throws -> String {
        let path = dir + "/in.mp4"
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=10",
                               "-f", "lavfi", "-i", "sine=frequency=440:duration=10", "-c:v", "libx264", "-g", "50", "-bf", "2",
                               "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path])
        return path
    }

    /// Decoded video as ffmpeg sees it: one line per picture (time and MD5).
    static func pictures(_ file: String) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"])
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    static func audioPackets(_ file: String) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:a", "-c", "copy", "-f", "framemd5", "-"])
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    /// The part task `k` of a plan writes (the names carry the plan's id).
    static func part(_ k: Int, of manifest: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: manifest))
        let tasks = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["tasks"] as? [[String: Any]] ?? []
        return tasks.first { $0["index"] as? Int == k }?["part"] as? String ?? "(no task \(k))"
    }

    /// Plans `graph`, runs the tasks in reverse order (each is independent), joins.
    static func planRunJoin(_ graph: String, size: [String]) throws -> (tasks: Int, plan: String) {
        let work = (graph as NSString).deletingLastPathComponent + "/work"
        let plan = try CLI.mediagraph(["plan", graph, "--work", work] + size)
        #expect(plan.status == 0, "plan: \(plan.stderr)")
        let manifest = work + "/manifest.json"
        let data = try Data(contentsOf: URL(fileURLWithPath: manifest))
        let tasks = ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["tasks"] as? [Any])?.count ?? 0
        for k in (0..<tasks).reversed() {
            let r = try CLI.mediagraph(["run-segment", manifest, "--index", String(k), "--quiet"])
            #expect(r.status == 0, "task \(k): \(r.stderr)")
        }
        let j = try CLI.mediagraph(["join", manifest, "--quiet"])
        #expect(j.status == 0, "join: \(j.stderr)")
        return (tasks, plan.out)
    }

    @Test func fileSegmentsJoinToTheWholeRunsPicturesAndSound() throws {
        let dir = CLI.tempDir()
        let input = try Self.clip(in: dir)
        // lossless x264, so that equal pictures mean the same frames went to the same places
        let graph = CLI.writeGraph("""
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4"}}, "fx": {"type": "sepia"},
                       "venc": {"type": "h264", "params": {"preset": "veryfast", "crf": 0}}, "aenc": {"type": "aac"},
                       "mux": {"type": "mp4", "params": {"path": "out.mp4", "faststart": true}}},
             "chains": [["in.video", "fx", "venc", "mux.video"], ["in.audio", "aenc", "mux.audio"]]}
            """, in: dir)
        let (tasks, summary) = try Self.planRunJoin(graph, size: ["--segments", "3"])
        #expect(tasks == 4, "three video segments and the audio: \(summary)")
        let whole = try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.mp4"])
        #expect(whole.status == 0, "\(whole.stderr)")

        let joined = try Self.pictures(dir + "/out.mp4")
        #expect(joined.count == 250)
        #expect(joined == (try Self.pictures(dir + "/whole.mp4")), "the joined pictures differ from the whole run's")
        // the times are the input's own (ffmpeg's framemd5 lines begin with stream, dts, pts)
        let times = { (lines: [String]) in lines.map { $0.split(separator: ",").prefix(3).map { $0.trimmingCharacters(in: .whitespaces) } } }
        #expect(times(joined) == times(try Self.pictures(input)))
        #expect(try Self.audioPackets(dir + "/out.mp4") == (try Self.audioPackets(dir + "/whole.mp4")))
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/out.mp4", "-f", "null", "-"])
        #expect(check.stderr.isEmpty, "ffmpeg: \(check.stderr)")
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/out.mp4", "--min-frames", "250"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
    }

    /// An `mpegts` sink: `join` runs it on the parts, so the joined .ts holds the whole run's
    /// pictures at the same times and the same sound packets, and decodes without a message.
    @Test func anMPEGTSOutputJoinsToTheWholeRun() throws {
        let dir = CLI.tempDir()
        _ = try Self.clip(in: dir)
        let graph = CLI.writeGraph("""
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4"}}, "fx": {"type": "sepia"},
                       "venc": {"type": "h264", "params": {"preset": "veryfast", "crf": 0}}, "aenc": {"type": "aac"},
                       "mux": {"type": "mpegts", "params": {"path": "out.ts"}}},
             "chains": [["in.video", "fx", "venc", "mux.video"], ["in.audio", "aenc", "mux.audio"]]}
            """, in: dir)
        let (tasks, summary) = try Self.planRunJoin(graph, size: ["--segments", "3"])
        #expect(tasks == 4, "three video segments and the audio: \(summary)")
        let whole = try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.ts"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let joined = try Self.pictures(dir + "/out.ts")
        #expect(joined.count == 250)
        #expect(joined == (try Self.pictures(dir + "/whole.ts")), "the joined pictures differ from the whole run's")
        #expect(try Self.audioPackets(dir + "/out.ts") == (try Self.audioPackets(dir + "/whole.ts")))
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/out.ts", "-f", "null", "-"])
        #expect(check.stderr.isEmpty, "ffmpeg: \(check.stderr)")
    }

    /// In MPEG-TS, time zero is where the streams read begin: here the sound starts 0.3 s before
    /// the pictures. A task reads only the video or only the sound, so each is given the whole
    /// run's zero; without it the video parts are 0.3 s early and hold other pictures.
    @Test func anMPEGTSFileSplitsOnTheWholeRunsClock() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=10",
                               "-f", "lavfi", "-i", "sine=frequency=440:duration=10.5", "-filter_complex", "[0:v]setpts=PTS+0.3/TB[v]",
                               "-map", "[v]", "-map", "1:a", "-c:v", "libx264", "-g", "25", "-bf", "2", "-pix_fmt", "yuv420p",
                               "-c:a", "aac", "-f", "mpegts", dir + "/in.ts"])
        let graph = CLI.writeGraph("""
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.ts"}}, "fx": {"type": "sepia"},
                       "venc": {"type": "h264", "params": {"preset": "veryfast", "crf": 0}}, "aenc": {"type": "aac"},
                       "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
             "chains": [["in.video", "fx", "venc", "mux.video"], ["in.audio", "aenc", "mux.audio"]]}
            """, in: dir)
        let (tasks, summary) = try Self.planRunJoin(graph, size: ["--segments", "3"])
        #expect(tasks == 4, "three video segments and the audio: \(summary)")
        let whole = try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.mp4"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let joined = try Self.pictures(dir + "/out.mp4"), wholePictures = try Self.pictures(dir + "/whole.mp4")
        #expect(joined.count == 250)
        #expect(joined == wholePictures, "the joined pictures differ from the whole run's")
        // ffmpeg's own reading of the TS puts the first picture 0.3 s after the sound's start
        #expect(wholePictures.first?.split(separator: ",").dropFirst(2).first?.trimmingCharacters(in: .whitespaces) == "8",
                "first picture: \(wholePictures.first ?? "none")")
        #expect(try Self.audioPackets(dir + "/out.mp4") == (try Self.audioPackets(dir + "/whole.mp4")))
    }

    @Test func trimmedFileSplitsAtOddPlacesWithoutLosingOrRepeatingAFrame() throws {
        let dir = CLI.tempDir()
        _ = try Self.clip(in: dir)
        let graph = CLI.writeGraph("""
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4", "start": 1.3, "end": 8.62}}, "fx": {"type": "invert"},
                       "venc": {"type": "h264", "params": {"preset": "ultrafast", "crf": 0}},
                       "mux": {"type": "matroska", "params": {"path": "out.mkv"}}},
             "chains": [["in.video", "fx", "venc", "mux.video"]]}
            """, in: dir)
        let (tasks, summary) = try Self.planRunJoin(graph, size: ["--segments", "7"])
        #expect(tasks == 7, "\(summary)")
        #expect(try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.mkv"]).status == 0)
        let joined = try Self.pictures(dir + "/out.mkv")
        #expect(joined.count == 183)
        #expect(joined == (try Self.pictures(dir + "/whole.mkv")))

        // the input replaced after the plan: its cuts may not be on pictures any more
        try CLI.run("touch", ["-d", "2001-01-01", dir + "/in.mp4"])
        let stale = try CLI.mediagraph("run-segment", dir + "/work/manifest.json", "--index", "2")
        #expect(stale.status == 2)
        #expect(stale.stderr.contains("in.mp4' changed since the plan"), "\(stale.stderr)")
    }

    /// A logo (a still, read whole by every segment) that ends inside the second of three
    /// segments: the overlay aligns it by time, so each segment shows what the whole run shows.
    @Test func aStillLogoOverTheVideoIsTheWholeRunsInEverySegment() throws {
        let dir = CLI.tempDir()
        _ = try Self.clip(in: dir)
        let graph = CLI.writeGraph("""
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4", "duration": 6}},
                       "logo": {"type": "imagesrc", "params": {"path": "\(CLI.root)/Graphs/media/logo.png", "duration": 3}},
                       "mark": {"type": "overlay", "params": {"anchor": "bottom-right", "margin": 16}},
                       "venc": {"type": "h264", "params": {"preset": "ultrafast", "crf": 0}},
                       "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
             "chains": [["in.video", "mark.main"], ["logo", "mark.overlay"], ["mark", "venc", "mux.video"]]}
            """, in: dir)
        let (tasks, summary) = try Self.planRunJoin(graph, size: ["--segments", "3"])
        #expect(tasks == 3, "\(summary)")
        #expect(try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.mp4"]).status == 0)
        let joined = try Self.pictures(dir + "/out.mp4")
        #expect(joined.count == 150)
        #expect(joined == (try Self.pictures(dir + "/whole.mp4")))
    }

    /// Frame numbers burnt in, a crop that moves by n and a brightness that follows n: each
    /// segment's nodes count from its first picture's number in the whole run.
    @Test func nodesThatCountFramesSeeTheWholeRunsNumbersInEverySegment() throws {
        let dir = CLI.tempDir()
        _ = try Self.clip(in: dir)
        let graph = CLI.writeGraph("""
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4", "duration": 4}},
                       "num": {"type": "drawtext", "params": {"text": "frame %{n}", "size": 40, "color": "white", "x": 10, "y": 10}},
                       "move": {"type": "crop", "params": {"width": 240, "height": 180, "x": "mod(n*3, 80)", "y": 20}},
                       "eq": {"type": "eq", "params": {"brightness": "0.1*sin(n/5)", "eval": "frame"}},
                       "venc": {"type": "h264", "params": {"preset": "ultrafast", "crf": 0}},
                       "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
             "chains": [["in.video", "num", "move", "eq", "venc", "mux.video"]]}
            """, in: dir)
        let (tasks, summary) = try Self.planRunJoin(graph, size: ["--segments", "3"])
        #expect(tasks == 3, "\(summary)")
        #expect(try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.mp4"]).status == 0)
        let joined = try Self.pictures(dir + "/out.mp4")
        #expect(joined.count == 100)
        #expect(joined == (try Self.pictures(dir + "/whole.mp4")), "the joined pictures differ from the whole run's")
        // a still picture's branch has no frame number in the whole run to give
        let still = CLI.writeGraph("""
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4", "duration": 4}},
                       "logo": {"type": "imagesrc", "params": {"path": "\(CLI.root)/Graphs/media/logo.png", "duration": 3}},
                       "spin": {"type": "crop", "params": {"width": 20, "height": 20, "x": "mod(n, 10)"}},
                       "mark": {"type": "overlay"}, "venc": {"type": "h264"}, "mux": {"type": "mp4", "params": {"path": "o.mp4"}}},
             "chains": [["in.video", "mark.main"], ["logo", "spin", "mark.overlay"], ["mark", "venc", "mux.video"]]}
            """, in: dir, name: "still.json")
        let r = try CLI.mediagraph("plan", still, "--segments", "2", "--work", dir + "/still.plan")
        #expect(r.status == 2)
        #expect(r.stderr.contains("node 'spin' (crop): param 'x' counts the frames of a still picture"), "\(r.stderr)")
    }

    /// A ladder (the picture and a smaller copy, each encoded) with two audio tracks: every rung
    /// is cut at the same pictures into parts of its own, the audio task writes both tracks, and
    /// the join gives each track the whole run's pictures or packets.
    @Test func aLadderSplitsEveryRungAtTheSamePictures() throws {
        let dir = CLI.tempDir()
        _ = try Self.clip(in: dir)
        let graph = CLI.writeGraph("""
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4", "duration": 6}},
                       "num": {"type": "drawtext", "params": {"text": "%{n}", "size": 30, "color": "white"}},
                       "small": {"type": "scale", "params": {"width": 160, "height": 120}},
                       "e0": {"type": "h264", "params": {"preset": "ultrafast", "crf": 0}},
                       "e1": {"type": "h264", "params": {"preset": "ultrafast", "crf": 0}}, "aenc": {"type": "aac"},
                       "tone": {"type": "sine", "params": {"frequency": 880, "seconds": 6}}, "tenc": {"type": "aac", "params": {"bitrate": 64}},
                       "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
             "chains": [["in.video", "num", "e0", "mux.video"], ["num", "small", "e1", "mux.video1"], ["in.audio", "aenc", "mux.audio"],
                        ["tone", "tenc", "mux.audio1"]]}
            """, in: dir)
        let (tasks, summary) = try Self.planRunJoin(graph, size: ["--segments", "3"])
        #expect(tasks == 4, "\(summary)")
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir + "/work").filter { $0.hasSuffix("-rung1.mp4") }
        #expect(parts.count == 3, "one part of the second rung per segment: \(parts)")
        #expect(try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.mp4"]).status == 0)
        for stream in ["0:v:0", "0:v:1"] {
            let r = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/out.mp4", "-map", stream, "-f", "framemd5", "-"])
            let w = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/whole.mp4", "-map", stream, "-f", "framemd5", "-"])
            let joined = r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(joined.count == 150, "\(stream)")
            #expect(joined == w.out.split(separator: "\n").filter { !$0.hasPrefix("#") }, "\(stream): the joined pictures differ from the whole run's")
        }
        // both audio tracks (framemd5 lines carry the stream index), in their order
        let sound = try Self.audioPackets(dir + "/out.mp4")
        #expect(Set(sound.compactMap { $0.split(separator: ",").first }) == ["0", "1"], "two audio streams: \(sound.prefix(2))")
        #expect(sound == (try Self.audioPackets(dir + "/whole.mp4")))
        // a rung's part missing: named, with its task
        let manifest = dir + "/work/manifest.json"
        try FileManager.default.removeItem(atPath: dir + "/work/" + parts.sorted()[1])
        let check = try CLI.mediagraph("join", manifest, "--check")
        #expect(check.status == 1)
        #expect(check.out.contains("task 1:") && check.out.contains("of rung 1"), "\(check.out)")
    }

    @Test func testPatternSegmentsJoinToTheWholeRun() throws {
        let dir = CLI.tempDir()
        let graph = CLI.writeGraph("""
            {"nodes": {"src": {"type": "testsrc", "params": {"width": 160, "height": 90, "rate": "30/1", "frames": 61}},
                       "fx": {"type": "fade", "params": {"type": "out", "start": 1, "duration": 1}},
                       "venc": {"type": "h264", "params": {"preset": "ultrafast", "crf": 0}},
                       "tone": {"type": "sine", "params": {"seconds": 2}}, "aenc": {"type": "aac"},
                       "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
             "chains": [["src", "fx", "venc", "mux.video"], ["tone", "aenc", "mux.audio"]]}
            """, in: dir)
        // 61 frames at 30 fps are 2.03 s: segments of about 0.7 s make three, and the sound one more
        let (tasks, summary) = try Self.planRunJoin(graph, size: ["--segment-seconds", "0.7"])
        #expect(tasks == 4, "\(summary)")
        #expect(try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.mp4"]).status == 0)
        // the fade reads each picture's time: segments keep the whole run's clock
        let joined = try Self.pictures(dir + "/out.mp4")
        #expect(joined.count == 61)
        #expect(joined == (try Self.pictures(dir + "/whole.mp4")))
        #expect(try Self.audioPackets(dir + "/out.mp4") == (try Self.audioPackets(dir + "/whole.mp4")))
    }

    /// The join runs the graph's own muxer, so a DASH output is written by the dash sink.
    @Test func aDASHOutputIsWrittenByTheJoin() throws {
        let dir = CLI.tempDir()
        let graph = CLI.writeGraph("""
            {"nodes": {"src": {"type": "testsrc", "params": {"width": 160, "height": 90, "rate": "25/1", "frames": 100}},
                       "venc": {"type": "h264", "params": {"preset": "ultrafast", "crf": 0, "keyint": 25}},
                       "mux": {"type": "dash", "params": {"path": "dash/out.mpd"}}},
             "chains": [["src", "venc", "mux.video"]]}
            """, in: dir)
        _ = try Self.planRunJoin(graph, size: ["--segments", "3"])
        #expect(try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole/out.mpd"]).status == 0)
        let joined = try Self.pictures(dir + "/dash/out.mpd")
        #expect(joined.count == 100)
        #expect(joined == (try Self.pictures(dir + "/whole/out.mpd")))
    }

    @Test(arguments: [
        (#""fx": {"type": "fps", "params": {"rate": "10/1"}}"#, "node 'fx' (fps) cannot run in segments"),
        (#""fx": {"type": "reverse"}"#, "node 'fx' (reverse) cannot run in segments: it plays the whole clip backwards"),
        (#""fx": {"type": "realtime"}"#, "node 'fx' (realtime) cannot run in segments: it paces the run by the wall clock"),
    ])
    func orderDependentFiltersAreRefusedByName(_ node: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let graph = CLI.writeGraph("""
            {"nodes": {"src": {"type": "testsrc", "params": {"width": 160, "height": 90, "frames": 30}}, \(node),
                       "venc": {"type": "h264"}, "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
             "chains": [["src", "fx", "venc", "mux.video"]]}
            """, in: dir)
        let r = try CLI.mediagraph("plan", graph, "--segments", "2")
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/g.plan"), "a refused plan writes nothing")
    }

    @Test func graphsThatCannotBeSplitSayWhy() throws {
        let dir = CLI.tempDir()
        _ = try Self.clip(in: dir)
        // two recordings joined with cat: the times jump back at the join
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.mp4", "-c", "copy", dir + "/one.ts"])
        try CLI.run("sh", ["-c", "cat '\(dir)/one.ts' '\(dir)/one.ts' > '\(dir)/in.ts'"])
        let cases: [(String, String)] = [
            (#"{"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4"}}, "mux": {"type": "mp4", "params": {"path": "o.mp4"}}}, "chains": [["in.video", "mux.video"]]}"#,
             "its video is copied, not encoded"),
            (#"{"nodes": {"in": {"type": "filesrc", "params": {"path": "in.ts"}}, "e": {"type": "h264"}, "mux": {"type": "mp4", "params": {"path": "o.mp4"}}}, "chains": [["in.video", "e", "mux.video"]]}"#,
             "its timestamps jump back"),
            (#"{"nodes": {"s": {"type": "testsrc", "params": {"frames": 0}}, "e": {"type": "h264"}, "mux": {"type": "mp4", "params": {"path": "o.mp4"}}}, "chains": [["s", "e", "mux.video"]]}"#,
             "a planned run needs an end"),
            (#"{"nodes": {"s": {"type": "testsrc", "params": {"frames": 9}}, "e": {"type": "h264"}, "mux": {"type": "h264sink", "params": {"path": "o.h264"}}}, "chains": [["s", "e", "mux"]]}"#,
             "a planned graph ends in a muxer"),
        ]
        for (k, (json, message)) in cases.enumerated() {
            let graph = CLI.writeGraph(json, in: dir, name: "g\(k).json")
            let r = try CLI.mediagraph("plan", graph, "--segments", "2")
            #expect(r.status == 2, "\(json)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
        }
    }

    /// A plugin may keep state between frames (frei0r's baltan leaves trails): refused unless the
    /// user names it stateless; then its frames are the whole run's in every segment.
    @Test func aPluginRunsInSegmentsOnlyWhenNamedStateless() throws {
        let dir = CLI.tempDir()
        _ = try Self.clip(in: dir)
        func graph(_ effect: String) -> String {
            CLI.writeGraph("""
                {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4", "duration": 3}}, "fx": {"type": "\(effect)"},
                           "venc": {"type": "h264", "params": {"preset": "ultrafast", "crf": 0}}, "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
                 "chains": [["in.video", "fx", "venc", "mux.video"]]}
                """, in: dir, name: effect + ".json")
        }
        let trails = try CLI.mediagraph("plan", graph("frei0r.baltan"), "--segments", "2", "--work", dir + "/a.plan")
        #expect(trails.status == 2)
        #expect(trails.stderr.contains("node 'fx' (frei0r.baltan) is a plugin, which may keep something from one frame to the next"), "\(trails.stderr)")
        #expect(trails.stderr.contains("--stateless fx"), "\(trails.stderr)")
        let builtIn = try CLI.mediagraph("plan", graph("sepia"), "--segments", "2", "--stateless", "fx", "--work", dir + "/b.plan")
        #expect(builtIn.status == 2)
        #expect(builtIn.stderr.contains("node 'fx' is the built-in sepia, not a plugin"), "\(builtIn.stderr)")

        let stateless = graph("frei0r.invert0r")
        let work = dir + "/work"
        let plan = try CLI.mediagraph(["plan", stateless, "--segments", "2", "--stateless", "fx", "--work", work])
        #expect(plan.status == 0, "\(plan.stderr)")
        for k in 0..<2 { #expect(try CLI.mediagraph(["run-segment", work + "/manifest.json", "--index", String(k), "--quiet"]).status == 0) }
        #expect(try CLI.mediagraph(["join", work + "/manifest.json", "--quiet"]).status == 0)
        #expect(try CLI.mediagraph(["run", "--quiet", stateless, "--set", "mux.path=" + dir + "/whole.mp4"]).status == 0)
        let joined = try Self.pictures(dir + "/out.mp4")
        #expect(joined.count == 75)
        #expect(joined == (try Self.pictures(dir + "/whole.mp4")))
    }

    @Test func joinNamesAMissingOrBrokenPartAndWritesNothing() throws {
        let dir = CLI.tempDir()
        let graph = CLI.writeGraph("""
            {"nodes": {"src": {"type": "testsrc", "params": {"width": 160, "height": 90, "frames": 40}},
                       "venc": {"type": "h264", "params": {"preset": "ultrafast"}}, "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
             "chains": [["src", "venc", "mux.video"]]}
            """, in: dir)
        #expect(try CLI.mediagraph("plan", graph, "--segments", "2").status == 0)
        let manifest = dir + "/g.plan/manifest.json"
        // no index: the scheduler's variable picks the task
        let r = try CLI.run(CLI.binary, ["run-segment", manifest, "--quiet"], cwd: CLI.root, environment: ["SLURM_ARRAY_TASK_ID": "0"])
        #expect(r.status == 0, "\(r.stderr)")
        let check = try CLI.mediagraph("join", manifest, "--check")
        #expect(check.status == 1)
        #expect(check.out.contains("task 0: whole") && check.out.contains("1 of 2 tasks to run again: 1")
                && check.out.contains("mediagraph run-segment \(manifest) --index 1"), "\(check.out)")
        let missing = try CLI.mediagraph("join", manifest)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("part 1") && missing.stderr.contains("run-segment \(manifest) --index 1"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"))

        #expect(try CLI.mediagraph("run-segment", manifest, "--index", "1", "--quiet").status == 0)
        // a part cut short (copied while written, a full disk elsewhere): named, nothing written
        let part = try Self.part(1, of: manifest)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: part))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: part))
        let broken = try CLI.mediagraph("join", manifest)
        #expect(broken.status == 1 || broken.status == 2)
        #expect(broken.stderr.contains("part 1"), "\(broken.stderr)")
        let brokenCheck = try CLI.mediagraph("join", manifest, "--check")
        #expect(brokenCheck.status == 1 && brokenCheck.out.contains("task 1: part 1"), "\(brokenCheck.out)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"))

        // a new plan in the same folder does not take the old one's parts for its own
        #expect(try CLI.mediagraph("run-segment", manifest, "--index", "1", "--quiet").status == 0)
        #expect(try CLI.mediagraph("join", manifest, "--check").status == 0)
        #expect(try CLI.mediagraph("plan", graph, "--segments", "2").status == 0)
        let replanned = try CLI.mediagraph("join", manifest, "--check")
        #expect(replanned.status == 1 && replanned.out.contains("2 of 2 tasks to run again"), "\(replanned.out)")

        let noIndex = try CLI.mediagraph("run-segment", manifest)
        #expect(noIndex.status == 2)
        #expect(noIndex.stderr.contains("SLURM_ARRAY_TASK_ID"), "\(noIndex.stderr)")
        let outOfRange = try CLI.mediagraph("run-segment", manifest, "--index", "5")
        #expect(outOfRange.status == 2)
        #expect(outOfRange.stderr.contains("its tasks are 0…1"), "\(outOfRange.stderr)")
    }
}
