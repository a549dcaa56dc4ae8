// Benchmark areas "pictures": 20 thumbnails from a 1-hour 1080p H.264 file (goal: under 2 s),
// cached and (as root) with the page cache dropped, against ffmpeg doing the same with 20 seeking
// runs; and "snapshot": what a snapshot branch (a JPEG every second) adds to a 1080p x264
// recording (goal: under 2 % wall), ours and ffmpeg's.
import Foundation

enum PicturesBench {
    static let area = BenchArea(name: "pictures", run: thumbnails)
    static let snapshotArea = BenchArea(name: "snapshot", run: snapshots)

    /// 1 hour of 1080p25 H.264 (ultrafast, GOP 250 = 10 s): one minute encoded, then joined 60
    /// times by ffmpeg's concat demuxer with stream copy (encoding an hour takes far too long on
    /// two cores; the seek cost depends on GOP and file size, not on the pictures differing).
    static var hourLong: String? {
        let name = "h264-1080p25-1h.mp4"
        let path = FileBench.cacheDirectory + "/" + name
        if FileManager.default.fileExists(atPath: path) { return path }
        let start = Date()
        guard let minute = FileBench.cached("h264-1080p25-1min.mp4", ffmpeg: [
            "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25", "-t", "60",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "250", "-pix_fmt", "yuv420p"]) else { return nil }
        let list = FileBench.cacheDirectory + "/minute-x60.txt"
        _ = FileManager.default.createFile(atPath: list, contents: Data(String(repeating: "file '\(minute)'\n", count: 60).utf8))
        let made = FileBench.cached(name, ffmpeg: ["-f", "concat", "-safe", "0", "-i", list, "-c", "copy"])
        print(String(format: "  generating the 1-hour input took %.0f s (load %@)", Date().timeIntervalSince(start), FileBench.loadAverage))
        return made
    }

    static func thumbnails() {
        guard let input = hourLong else { return }
        let dir = FileBench.workDirectory("pictures")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ours = [FileBench.mediagraph, "thumbnails", input, "-n", "20", "-o", dir + "/t-%02d.jpg"]
        // ffmpeg: one input-seeking run per picture (the usual way to script it)
        let script = (0..<20).map { i in
            let t = 3600.0 * (Double(i) + 0.5) / 20
            return "ffmpeg -v error -y -ss \(t) -i \(FileBench.quoted(input)) -frames:v 1 -vf scale=320:-2 -q:v 3 \(dir)/f-\(i).jpg"
        }.joined(separator: " && ")
        let theirs = ["/bin/sh", "-c", script]
        print("  20 thumbnails from 1 h of 1080p25 H.264 (GOP 10 s), best of 3, load \(FileBench.loadAverage):")
        let best = FileBench.bestOf(3, [ours, theirs], input: input)
        for (label, m) in zip(["mediagraph thumbnails -n 20", "ffmpeg -ss … -frames:v 1, 20 runs"], best) {
            guard let m else { print("    \(label): failed"); continue }
            print(String(format: "    %-36@ wall %.2f s  cpu %.2f s  peak %.0f MB", label as NSString, m.wall, m.cpu, m.peakMB))
        }
        if geteuid() == 0 {
            // cold: the file's pages dropped before each run (root only; the whole machine's cache)
            print("  the same with the page cache dropped before each run (cold), alternating, best of 3:")
            var cold: [[DecodeBench.Measured?]] = []
            for _ in 0..<3 {
                var round: [DecodeBench.Measured?] = []
                for command in [ours, theirs] {
                    // (Foundation's createFile does not reach /proc's file: a shell redirection does)
                    _ = MP4Bench.shell(["/bin/sh", "-c", "sync; echo 3 > /proc/sys/vm/drop_caches"])
                    round.append(DecodeBench.measure(command))
                }
                cold.append(round)
            }
            for (k, label) in ["mediagraph thumbnails -n 20 (cold)", "ffmpeg -ss … -frames:v 1, 20 runs (cold)"].enumerated() {
                let runs = cold.compactMap { $0[k] }
                guard let m = runs.min(by: { $0.wall < $1.wall }) else { print("    \(label): failed"); continue }
                print(String(format: "    %-42@ wall %.2f s  cpu %.2f s  (runs: %@)", label as NSString, m.wall, m.cpu,
                             runs.map { String(format: "%.2f", $0.wall) }.joined(separator: ", ")))
            }
        }
        print("    goal: under 2 s wall")
    }

    static func snapshots() {
        let dir = FileBench.workDirectory("pictures")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let frames = 250
        func graph(_ snapshot: Bool) -> String {
            let path = dir + "/rec-\(snapshot ? "snap" : "plain").json"
            let branch = snapshot ? #", "snap": { "type": "snapshot", "params": { "path": \#(FileBench.quoted(dir + "/s-%03d.jpg")), "every": 1 } }"# : ""
            let chain = snapshot ? #", ["src", "snap"]"# : ""
            FileBench.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 1920, "height": 1080, "rate": "25/1", "frames": \(frames) } },
                         "enc": { "type": "h264", "params": { "preset": "veryfast" } },
                         "mux": { "type": "mp4", "params": { "path": \(FileBench.quoted(dir + "/rec.mp4")) } }\(branch) },
              "chains": [["src", "enc", "mux.video"]\(chain)] }
            """, to: path)
            return path
        }
        // the source's own duration ends both outputs (-frames:v would bind to the first only,
        // and the JPEG output would read the endless testsrc2 for ever)
        let src = ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25:duration=\(frames / 25)", "-frames:v", "\(frames)"]
        let enc = ["-c:v", "libx264", "-preset", "veryfast", dir + "/ff.mp4"]
        let commands: [[String]] = [
            [FileBench.mediagraph, "run", "--quiet", graph(false)],
            [FileBench.mediagraph, "run", "--quiet", graph(true)],
            ["ffmpeg", "-v", "error", "-y"] + src + enc,
            ["ffmpeg", "-v", "error", "-y"] + src + ["-filter_complex", "split[a][b];[b]fps=1[s]", "-map", "[a]"] + enc
                + ["-map", "[s]", "-q:v", "3", dir + "/ff-%03d.jpg"],
        ]
        print("  1080p25 x264 veryfast recording of \(frames) frames, with and without a JPEG snapshot every second, best of 3, load \(FileBench.loadAverage):")
        let best = FileBench.bestOf(3, commands, input: "/dev/null")
        let labels = ["ours, recording only", "ours, + snapshot branch", "ffmpeg, recording only", "ffmpeg, + split/fps=1 JPEGs"]
        for (label, m) in zip(labels, best) {
            guard let m else { print("    \(label): failed"); continue }
            print(String(format: "    %-30@ wall %.2f s  cpu %.2f s", label as NSString, m.wall, m.cpu))
        }
        if let a = best[0], let b = best[1] {
            print(String(format: "    snapshot branch adds %+.1f %% wall, %+.1f %% cpu (goal: under 2 %% wall)",
                         (b.wall / a.wall - 1) * 100, (b.cpu / a.cpu - 1) * 100))
        }
    }
}
