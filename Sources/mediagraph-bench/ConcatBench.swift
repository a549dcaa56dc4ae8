// Benchmark area "concat": 20 clips (640x360 25 fps ffv1, 2 s each, with 48 kHz stereo PCM)
// joined one after another, decoded and discarded: `mediagraph run` (20 filesrc → concat →
// nullsink) against ffmpeg's concat filter (`-filter_complex concat=n=20:v=1:a=1 -f null`),
// wall and CPU time in the same run, both with their default threads. Most of the time is decoding on both sides; the joining
// itself is a restamp per buffer.
import Foundation

enum ConcatBench {
    static let area = BenchArea(name: "concat", run: run)
    static let clips = 20

    static func run() {
        var inputs: [String] = []
        for k in 0..<clips {
            guard let c = FileBench.cached("concat-clip\(k)-640x360-2s.nut", ffmpeg: [
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-f", "lavfi", "-i", "sine=frequency=\(300 + 10 * k):sample_rate=48000",
                "-t", "2", "-ac", "2", "-c:v", "ffv1", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-f", "nut"]) else { return }
            inputs.append(c)
        }
        let dir = FileBench.workDirectory("concat")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let graph = dir + "/concat.json"
        var nodes = inputs.enumerated().map { "\"s\($0.offset)\": { \"type\": \"filesrc\", \"params\": { \"path\": \(FileBench.quoted($0.element)) } }" }
        nodes += ["\"cat\": { \"type\": \"concat\" }", "\"v\": { \"type\": \"nullsink\" }", "\"a\": { \"type\": \"nullsink\" }"]
        var chains = (0..<clips).flatMap { k in
            let n = k == 0 ? "" : String(k)
            return ["[\"s\(k).video\", \"cat.video\(n)\"]", "[\"s\(k).audio\", \"cat.audio\(n)\"]"]
        }
        chains += ["[\"cat.video\", \"v\"]", "[\"cat.audio\", \"a\"]"]
        FileBench.writeGraph("{ \"nodes\": { " + nodes.joined(separator: ", ") + " }, \"chains\": [" + chains.joined(separator: ", ") + "] }", to: graph)
        let pads = (0..<clips).map { "[\($0):v][\($0):a]" }.joined()
        let ffmpeg = ["ffmpeg", "-v", "error"] + inputs.flatMap { ["-i", $0] }
            + ["-filter_complex", pads + "concat=n=\(clips):v=1:a=1[v][a]", "-map", "[v]", "-map", "[a]", "-f", "null", "-"]
        let mediagraph = [FileBench.mediagraph, "run", "--quiet", graph]
        print("concat of \(clips) clips (640x360 25 fps ffv1 + 48 kHz stereo PCM, 2 s each), decoded, joined, discarded")
        print("  ffmpeg:     ffmpeg -i clip0.nut … -filter_complex '[0:v][0:a]…concat=n=\(clips):v=1:a=1' -f null -")
        print("  mediagraph: " + FileBench.commandLine(mediagraph) + "   (graph: \(clips) filesrc → concat → nullsink)")
        print("  load average at start: \(FileBench.loadAverage); best of 3, alternating")
        let best = FileBench.bestOf(3, [ffmpeg, mediagraph], input: inputs[0])
        guard let f = best[0], let o = best[1] else { print("  failed"); return }
        let frames = Double(clips * 50)
        print(String(format: "  ffmpeg     %6.2f s wall (%6.1f fps)  CPU %6.2f s  peak %6.1f MB", f.wall, frames / f.wall, f.cpu, f.peakMB))
        print(String(format: "  mediagraph %6.2f s wall (%6.1f fps)  CPU %6.2f s  peak %6.1f MB", o.wall, frames / o.wall, o.cpu, o.peakMB))
        print(String(format: "  wall ours/ffmpeg %.2f   CPU ours/ffmpeg %.2f", o.wall / f.wall, o.cpu / f.cpu))
    }
}
