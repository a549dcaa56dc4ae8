// Benchmark area "copy": stream copy of a large MP4 (1080p25 H.264 lossless + AAC, ~250 MB,
// generated once and cached) to MP4, `mediagraph run` (filesrc → mp4, both streams copied)
// against `ffmpeg -i big.mp4 -c copy out.mp4`, MB/s of input, in the same run (best of 5:
// the runs are short and the disk is shared).
import Foundation

enum StreamCopyBench {
    static let area = BenchArea(name: "copy", run: run)

    static func run() {
        // Lossless ultrafast makes big packets cheaply (~140 kB per frame).
        guard let input = FileBench.cached("h264-aac-1080p25-60s-big.mp4", ffmpeg: [
            "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000,aformat=channel_layouts=stereo",
            "-t", "60", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "128k"]) else { return }
        let dir = FileBench.workDirectory("copy")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let size = Double(MP4Bench.fileSize(input)) / 1e6
        print(String(format: "stream copy MP4 → MP4, %.1f MB (1080p25 H.264 lossless, 1500 frames + AAC), %@", size, input))
        // ffmpeg writes moov at the end unless asked for +faststart; our mp4 sink's default is
        // fast start (a second pass, as ffmpeg's): compare like with like, both ways.
        for fastStart in [false, true] {
            let ours = dir + "/ours.mp4", theirs = dir + "/ffmpeg.mp4", graph = dir + "/copy.json"
            FileBench.writeGraph("""
                {
                  "nodes": {
                    "in":  { "type": "filesrc", "params": { "path": \(FileBench.quoted(input)) } },
                    "mux": { "type": "mp4", "params": { "path": \(FileBench.quoted(ours)), "faststart": \(fastStart) } }
                  },
                  "chains": [["in.video", "mux.video"], ["in.audio", "mux.audio"]]
                }
                """, to: graph)
            let ffmpeg = ["ffmpeg", "-v", "error", "-y", "-i", input, "-c", "copy"] + (fastStart ? ["-movflags", "+faststart"] : []) + [theirs]
            let mediagraph = [FileBench.mediagraph, "run", "--quiet", graph]
            print(fastStart ? "moov first (fast start):" : "moov at the end:")
            print("  ffmpeg:     " + FileBench.commandLine(ffmpeg))
            print("  mediagraph: " + FileBench.commandLine(mediagraph) + "   (graph: filesrc → mp4 faststart \(fastStart), video and audio copied)")
            print("  load average at start: \(FileBench.loadAverage); best of 5, alternating")
            let best = FileBench.bestOf(5, [ffmpeg, mediagraph], input: input)
            guard let f = best[0], let o = best[1] else { print("  failed"); continue }
            print(String(format: "  ffmpeg     %6.2f s  %7.1f MB/s  CPU %5.2f s  peak %6.1f MB  packets %@",
                         f.wall, size / f.wall, f.cpu, f.peakMB, FileBench.packetCounts(theirs)))
            print(String(format: "  mediagraph %6.2f s  %7.1f MB/s  CPU %5.2f s  peak %6.1f MB  packets %@",
                         o.wall, size / o.wall, o.cpu, o.peakMB, FileBench.packetCounts(ours)))
            print(String(format: "  MB/s ours/ffmpeg %.2f (target ≥ 1.00)", f.wall / o.wall))
        }
    }
}
