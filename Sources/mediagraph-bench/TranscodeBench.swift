// Benchmark area "transcode": a 10 s 1080p25 H.264 + AAC MP4 → decode → sepia → x264 veryfast
// → MP4 with the AAC copied, `mediagraph run` against the same job in ffmpeg
// (`-vf colorchannelmixer=<sepia matrix> -c:v libx264 -preset veryfast -c:a copy`), wall time,
// both with their default threads (decoder: every core; x264: its own choice), in the same run.
import Foundation

enum TranscodeBench {
    static let area = BenchArea(name: "transcode", run: run)

    /// The sepia filter's matrix (Docs/filters.md) as ffmpeg's colorchannelmixer takes it.
    static let sepiaMixer = "colorchannelmixer=0.3588:0.7044:0.1368:0:0.2990:0.5870:0.1140:0:0.2392:0.4696:0.0912"

    static func run() {
        guard let input = FileBench.h264AAC10s else { return }
        let dir = FileBench.workDirectory("transcode")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ours = dir + "/ours.mp4", theirs = dir + "/ffmpeg.mp4", graph = dir + "/transcode.json"
        FileBench.writeGraph(transcodeGraph(input: input, output: ours, preset: "veryfast"), to: graph)
        let ffmpeg = ["ffmpeg", "-v", "error", "-y", "-i", input, "-vf", sepiaMixer, "-c:v", "libx264", "-preset", "veryfast",
                      "-crf", "23", "-c:a", "copy", theirs]
        let mediagraph = [FileBench.mediagraph, "run", "--quiet", graph]
        print("decode → sepia → x264 veryfast crf 23 → MP4, AAC copied; 1080p25, 250 frames, \(input)")
        print("  ffmpeg:     " + FileBench.commandLine(ffmpeg))
        print("  mediagraph: " + FileBench.commandLine(mediagraph) + "   (graph: filesrc → sepia → h264 → mp4, audio copied)")
        print("  load average at start: \(FileBench.loadAverage); best of 3, alternating")
        let best = FileBench.bestOf(3, [ffmpeg, mediagraph], input: input)
        guard let f = best[0], let o = best[1] else { print("  failed"); return }
        print(String(format: "  ffmpeg     %6.2f s wall (%5.1f fps)  CPU %6.2f s  peak %6.1f MB  packets %@",
                     f.wall, 250 / f.wall, f.cpu, f.peakMB, FileBench.packetCounts(theirs)))
        print(String(format: "  mediagraph %6.2f s wall (%5.1f fps)  CPU %6.2f s  peak %6.1f MB  packets %@",
                     o.wall, 250 / o.wall, o.cpu, o.peakMB, FileBench.packetCounts(ours)))
        print(String(format: "  wall ours/ffmpeg %.2f (target ≤ 1.00)   CPU ours/ffmpeg %.2f", o.wall / f.wall, o.cpu / f.cpu))
    }

    /// filesrc → sepia → h264 → mp4 (moov at the end, as ffmpeg writes it) with the audio copied; the graph inserts the decoder by
    /// itself, and sepia runs on the decoded yuv420p (before 2026-11-27 it inserted yuv420p ↔ rgba conversions around it).
    static func transcodeGraph(input: String, output: String, preset: String, duration: Double? = nil) -> String {
        let trim = duration.map { ", \"duration\": \($0)" } ?? ""
        return """
        {
          "nodes": {
            "in":    { "type": "filesrc", "params": { "path": \(FileBench.quoted(input))\(trim) } },
            "sepia": { "type": "sepia" },
            "venc":  { "type": "h264", "params": { "preset": "\(preset)", "crf": 23 } },
            "mux":   { "type": "mp4", "params": { "path": \(FileBench.quoted(output)), "faststart": false } }
          },
          "chains": [["in.video", "sepia", "venc", "mux.video"], ["in.audio", "mux.audio"]]
        }
        """
    }
}
