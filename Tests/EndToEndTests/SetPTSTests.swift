import Foundation
import Testing

/// `setpts` and `asetpts` against ffmpeg 5.1's filters of the same names: the same frames
/// (MD5 of each picture or buffer) at the same times (in seconds), for the expressions users
/// write; durations that follow the new times into an MP4 that Chromium plays; mistakes named.
@Suite struct SetPTSTests {
    /// One "seconds md5" per frame (seconds to the nanosecond), from our framehash file written
    /// with "times" or ffmpeg's framemd5.
    static func frames(_ path: String, ffmpeg: Bool) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var tb = (1.0, 1.0)
        var out: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#tb 0: ") {
                let r = line.dropFirst(7).split(separator: "/")
                tb = (Double(r[0]) ?? 0, Double(r[1]) ?? 1)
            }
            if line.hasPrefix("#") { continue }
            let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            // ours: index, pts, duration, time base, size, md5; ffmpeg's: stream, dts, pts, duration, size, md5
            let pts = Double(f[ffmpeg ? 2 : 1]) ?? .nan
            if !ffmpeg { let r = f[3].split(separator: "/"); tb = (Double(r[0]) ?? 0, Double(r[1]) ?? 1) }
            out.append(String(format: "%.9f %@", pts * tb.0 / tb.1, f[5]))
        }
        return out
    }

    /// ffmpeg-made input (never committed): 2 s of 64x48 H.264 at 25 fps, `timescale` ticks a
    /// second (75: three ticks a frame, so PTS/2 has halves to truncate), with AAC sound.
    static func source(in dir: String, timescale: Int = 75) throws -> String {
        let name = "in\(timescale).mp4"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25:d=2", "-f", "lavfi", "-i", "sine=f=440:d=2",
                                       "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", "-video_track_timescale", "\(timescale)",
                                       dir + "/" + name])
        #expect(r.status == 0, "\(r.stderr)")
        return name
    }

    static func firstDifference(_ a: [String], _ b: [String]) -> String {
        guard let i = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else { return "none in the first \(min(a.count, b.count))" }
        return "frame \(i): ours \(a[i]), ffmpeg's \(b[i])"
    }

    /// Our graph and ffmpeg on the same file; `start` trims both (filesrc's start, ffmpeg's -ss).
    func compare(_ expr: String, audio: Bool, timescale: Int = 75, start: String? = nil) throws {
        let dir = CLI.tempDir()
        let file = try Self.source(in: dir, timescale: timescale)
        let startParam = start.map { #", "start": \#($0)"# } ?? ""
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(file)"\(startParam) } },
                     "p": { "type": "\(audio ? "asetpts" : "setpts")", "params": { "expr": "\(expr)" } },
                     "out": { "type": "framehash", "params": { "path": "ours.txt", "times": true } } },
          "chains": [["in.\(audio ? "audio" : "video")", "p", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        let seek = start.map { ["-ss", $0] } ?? []
        // quoted: a comma in the expression would end the filter
        let select = audio ? ["-af", "asetpts='\(expr)'", "-vn", "-c:a", "pcm_f32le"]
            : ["-vf", "setpts='\(expr)'", "-an", "-fps_mode", "passthrough", "-enc_time_base", "-1"]
        let f = try CLI.run("ffmpeg", ["-v", "error"] + seek + ["-i", dir + "/" + file] + select + ["-f", "framemd5", dir + "/ffmpeg.txt"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = Self.frames(dir + "/ours.txt", ffmpeg: false), theirs = Self.frames(dir + "/ffmpeg.txt", ffmpeg: true)
        #expect(ours.count > 10 && ours == theirs, "\(expr): \(ours.count) frames vs ffmpeg's \(theirs.count); first difference: \(Self.firstDifference(ours, theirs))")
    }

    @Test(arguments: ["PTS/2", "2*PTS", "N/(25*TB)", "PTS+0.5/TB", "if(eq(N,0),0,PREV_OUTPTS+1/(30*TB))", "(T+STARTT)*3/TB+N*FR/100"])
    func videoTimesAreFFmpegs(_ expr: String) throws {
        try compare(expr, audio: false)
    }

    /// A trimmed file's first frame is not at zero (start 1.02 s falls between frames 1.00 and 1.04).
    @Test func startPTSOfATrimmedFileIsFFmpegs() throws {
        try compare("PTS-STARTPTS", audio: false, timescale: 150, start: "1.02")
    }

    @Test(arguments: ["N/SR/TB", "PTS-STARTPTS", "NB_CONSUMED_SAMPLES/SAMPLE_RATE/TB+S*0", "PTS/2"])
    func audioTimesAreFFmpegs(_ expr: String) throws {
        try compare(expr, audio: true)
    }

    /// PTS/2 into MP4: half the stream duration (each frame's duration halved, the last one's
    /// too), every frame decoded by Chromium.
    @Test func doubleSpeedMP4PlaysInChromium() throws {
        let dir = CLI.tempDir()
        let file = try Self.source(in: dir, timescale: 12800)
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(file)" } },
                     "p": { "type": "setpts", "params": { "expr": "PTS/2" } },
                     "enc": { "type": "h264" }, "mux": { "type": "mp4", "params": { "path": "out.mp4" } },
                     "hash": { "type": "framehash", "params": { "path": "times.txt", "times": true } } },
          "chains": [["in.video", "p", "enc", "mux.video"], ["p", "hash"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        let durations = ((try? String(contentsOfFile: dir + "/times.txt", encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { $0.split(separator: ",")[2].trimmingCharacters(in: .whitespaces) }
        #expect(durations.count == 50 && Set(durations) == ["256"], "\(durations)")
        let v = try CLI.probe(dir + "/out.mp4", "nb_frames,duration")
        #expect(v["nb_frames"] == "50" && v["duration"] == "1.000000", "\(v)")
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/out.mp4", "--min-frames", "50"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
        #expect(play.out.contains("\"totalVideoFrames\": 50"), "\(play.out)")
    }

    @Test(arguments: [
        ("setpts", "PTS*", "param 'expr': expected a number, a name or '(', found the end at offset 4 of 'PTS*'"),
        ("setpts", "PTS+PST", "unknown name 'PST'"),
        ("setpts", "N/SR/TB", "param 'expr': SR is an audio variable ('asetpts' has it)"),
        ("asetpts", "PTS+INTERLACED", "param 'expr': INTERLACED is a video variable ('setpts' has it)"),
    ])
    func mistakesAreNamedAtValidation(_ type: String, _ expr: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "\(type == "setpts" ? "testsrc" : "sine")", "params": { "\(type == "setpts" ? "frames" : "seconds")": 1 } },
                     "p": { "type": "\(type)", "params": { "expr": "\(expr)" } }, "o": { "type": "nullsink" } },
          "chains": [["src", "p", "o"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains("node 'p' (\(type))") && r.stderr.contains(message), "\(r.stderr)")
    }

    /// Times an encoder cannot take stop the run with the frame and its times, before any file is left.
    @Test(arguments: [
        ("if(eq(N,3),1,N)", "frame 3 (pts 3 (0.100 s)): 'if(eq(N,3),1,N)' gives 1 (0.033 s), not after frame 2's 2 (0.067 s); times must increase"),
        ("PTS-1/TB", "frame 0 (pts 0 (0.000 s)): 'PTS-1/TB' gives -30 (-1.000 s), before time zero"),
        ("PTS/0-PTS/0", "frame 0 (pts 0 (0.000 s)): 'PTS/0-PTS/0' gives NAN"),
    ])
    func timesNoMuxerTakesAreErrors(_ expr: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 10, "width": 64, "height": 48 } },
                     "p": { "type": "setpts", "params": { "expr": "\(expr)" } },
                     "enc": { "type": "h264" }, "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["src", "p", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 1 && r.stderr.contains("node 'p' (setpts): " + message), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"))
    }
}
