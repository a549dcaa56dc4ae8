// Benchmark area "gif": an animated GIF from a 10-second 640x360 clip (H.264, 25 fps, cached),
// `mediagraph run` (filesrc → gif, clip palette, error diffusion) against ffmpeg's two-pass
// palettegen + paletteuse (Floyd–Steinberg) in one command, in the same run: wall and CPU time,
// file size, and SSIM of each GIF against the source; then the animated WebP sink for size.
import Foundation

enum GifBench {
    static let area = BenchArea(name: "gif", run: run)

    static func run() {
        guard let input = FileBench.cached("h264-640x360p25-10s.mp4", ffmpeg: [
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-t", "10",
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p"]) else { return }
        let dir = FileBench.workDirectory("gif")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        print("GIF from a 10 s 640x360 clip (250 frames), \(input)")
        let ours = dir + "/ours.gif", theirs = dir + "/ffmpeg.gif", graph = dir + "/gif.json"
        FileBench.writeGraph("""
            {
              "nodes": {
                "in":  { "type": "filesrc", "params": { "path": \(FileBench.quoted(input)) } },
                "out": { "type": "gif", "params": { "path": \(FileBench.quoted(ours)) } }
              },
              "chains": [["in.video", "out"]]
            }
            """, to: graph)
        let ffmpeg = ["ffmpeg", "-v", "error", "-y", "-i", input, "-vf",
                      "split[a][b];[a]palettegen[p];[b][p]paletteuse=dither=floyd_steinberg", theirs]
        let mediagraph = [FileBench.mediagraph, "run", "--quiet", graph]
        print("  ffmpeg:     " + FileBench.commandLine(ffmpeg))
        print("  mediagraph: " + FileBench.commandLine(mediagraph) + "   (graph: filesrc → gif, defaults: clip palette, diffusion)")
        print("  load average at start: \(FileBench.loadAverage); best of 3, alternating")
        let best = FileBench.bestOf(3, [ffmpeg, mediagraph], input: input)
        guard let f = best[0], let o = best[1] else { print("  failed"); return }
        for (name, m, file) in [("ffmpeg    ", f, theirs), ("mediagraph", o, ours)] {
            print(String(format: "  %@ %6.2f s  CPU %6.2f s  peak %6.1f MB  %8.1f kB  SSIM %@",
                         name, m.wall, m.cpu, m.peakMB, Double(MP4Bench.fileSize(file)) / 1e3, ssim(file, input)))
        }
        print(String(format: "  wall ours/ffmpeg %.2f (target ≤ 1.00)", o.wall / f.wall))

        let webp = dir + "/ours.webp", webpGraph = dir + "/webp.json"
        FileBench.writeGraph("""
            {
              "nodes": {
                "in":  { "type": "filesrc", "params": { "path": \(FileBench.quoted(input)) } },
                "out": { "type": "webp", "params": { "path": \(FileBench.quoted(webp)) } }
              },
              "chains": [["in.video", "out"]]
            }
            """, to: webpGraph)
        if let w = DecodeBench.measure([FileBench.mediagraph, "run", "--quiet", webpGraph]) {
            print(String(format: "  animated WebP (webp sink, lossy q75): %6.2f s  CPU %6.2f s  %8.1f kB",
                         w.wall, w.cpu, Double(MP4Bench.fileSize(webp)) / 1e3))
        }
    }

    /// ffmpeg's SSIM (All) of a GIF against the source clip.
    static func ssim(_ file: String, _ source: String) -> String {
        let out = MP4Bench.shell(["sh", "-c", "ffmpeg -i '\(file)' -i '\(source)' -lavfi '[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]ssim' -f null - 2>&1"],
                                 captureOutput: true) ?? ""
        guard let r = out.range(of: "All:") else { return "?" }
        return String(out[r.upperBound...].prefix { "0123456789.".contains($0) })
    }
}
