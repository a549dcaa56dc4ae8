// The "segments" benchmark area: what splitting a run costs (Docs/scale-out.md). A 20 s 1080p
// H.264 + AAC clip is toned sepia and encoded with x264 veryfast, the sound copied: run whole,
// and as a plan of 4 segments whose tasks run one after another, then joined. ffmpeg in the same
// run does the same by hand: whole, and 4 accurate cuts (`-ss`/`-to` after seeking) joined with
// its concat demuxer (`-f concat -c copy`). Whole processes under /usr/bin/time, best of three.
import Foundation

enum SegmentsBench {
    static let area = BenchArea(name: "segments", run: run)
    static let seconds = 20, segments = 4

    static func run() {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mg-segments-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mediagraph = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mediagraph").path
        let input = dir + "/in.mp4"
        CodecBench.shell(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25:duration=\(seconds)",
                          "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-c:v", "libx264", "-preset", "veryfast",
                          "-g", "50", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", input])
        let graph = dir + "/g.json"
        try? """
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4"}}, "fx": {"type": "sepia"},
                       "venc": {"type": "h264", "params": {"preset": "veryfast", "crf": 23}},
                       "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
             "chains": [["in.video", "fx", "venc", "mux.video"], ["in.audio", "mux.audio"]]}
            """.write(toFile: graph, atomically: true, encoding: .utf8)
        let manifest = dir + "/g.plan/manifest.json"
        let sepia = "colorchannelmixer=.393:.769:.189:0:.349:.686:.168:0:.272:.534:.131"
        let ffmpegOut = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23"]
        let cut = Double(seconds) / Double(segments)
        var ffmpegParts: [[String]] = (0..<segments).map { k in
            ["ffmpeg", "-v", "error", "-y", "-ss", String(Double(k) * cut), "-to", String(Double(k + 1) * cut), "-i", input,
             "-an", "-vf", sepia] + ffmpegOut + [dir + "/ff-\(k).mp4"]
        }
        try? (0..<segments).map { "file 'ff-\($0).mp4'\n" }.joined().write(toFile: dir + "/ff.txt", atomically: true, encoding: .utf8)
        ffmpegParts.append(["ffmpeg", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", dir + "/ff.txt", "-i", input,
                            "-map", "0:v", "-map", "1:a", "-c", "copy", dir + "/ff-joined.mp4"])

        typealias Steps = [[String]]
        let cases: [(String, Steps)] = [
            ("ours: whole run", [[mediagraph, "run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.mp4"]]),
            ("ours: plan", [[mediagraph, "plan", graph, "--segments", String(segments)]]),
            ("ours: \(segments) segments + audio, one after another", (0...segments).map { [mediagraph, "run-segment", manifest, "--index", String($0), "--quiet"] }),
            ("ours: join", [[mediagraph, "join", manifest, "--quiet"]]),
            ("ffmpeg: whole run", [["ffmpeg", "-v", "error", "-y", "-i", input, "-vf", sepia] + ffmpegOut + ["-c:a", "copy", dir + "/ff-whole.mp4"]]),
            ("ffmpeg: \(segments) cuts, one after another", Array(ffmpegParts.dropLast())),
            ("ffmpeg: concat join", [ffmpegParts.last!]),
        ]
        var best: [String: CodecBench.Measure] = [:]
        for _ in 1...3 {
            for (name, steps) in cases {
                var total = CodecBench.Measure(wall: 0, cpu: 0, peakMiB: 0)
                var failed = false
                for step in steps {
                    guard let m = CodecBench.timed(step) else { failed = true; break }
                    total.wall += m.wall
                    total.cpu += m.cpu
                    total.peakMiB = max(total.peakMiB, m.peakMiB)
                }
                if failed { print("\(name): failed"); continue }
                if let b = best[name], b.wall <= total.wall { continue }
                best[name] = total
            }
        }
        print("1920x1080 25 fps, \(seconds) s, sepia + x264 veryfast crf 23, sound copied; seconds, best of 3 (CPU = user+sys)")
        for (name, _) in cases {
            if let m = best[name] { print(name.padding(toLength: 48, withPad: " ", startingAt: 0) + String(format: " %7.2f wall %7.2f CPU", m.wall, m.cpu)) }
        }
        let size = { (path: String) -> Double in Double((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0) }
        if let w = best["ours: whole run"], let s = best["ours: \(segments) segments + audio, one after another"], let j = best["ours: join"],
           let fw = best["ffmpeg: whole run"], let fs = best["ffmpeg: \(segments) cuts, one after another"], let fj = best["ffmpeg: concat join"] {
            print(String(format: "split / whole, CPU: ours %.3f, ffmpeg %.3f; join: ours %.2f s, ffmpeg %.2f s; whole run ffmpeg / ours wall %.2f",
                         s.cpu / w.cpu, fs.cpu / fw.cpu, j.wall, fj.wall, fw.wall / w.wall))
        }
        print(String(format: "output size, joined / whole: ours %.3f, ffmpeg %.3f",
                     size(dir + "/out.mp4") / max(1, size(dir + "/whole.mp4")), size(dir + "/ff-joined.mp4") / max(1, size(dir + "/ff-whole.mp4"))))
    }
}
