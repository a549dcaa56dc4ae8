// Benchmark area "memory": peak resident memory (max RSS, /usr/bin/time) of decode → sepia →
// x264 → MP4 (AAC copied) over a 10-minute 1080p25 input, against the same graph on the
// input's first 10 s (filesrc `duration: 10`). x264 runs ultrafast so the long job takes minutes,
// not an hour; memory is what is measured. The 10-minute input is the transcode area's 10 s
// file repeated 60 times by stream copy (`-stream_loop 59`), made once and cached.
import Foundation

enum MemoryBench {
    static let area = BenchArea(name: "memory", run: run)

    static func run() {
        guard let short = FileBench.h264AAC10s,
              let input = FileBench.cached("h264-aac-1080p25-10min.mp4", ffmpeg: ["-stream_loop", "59", "-i", short, "-c", "copy"])
        else { return }
        let dir = FileBench.workDirectory("memory")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        print("decode → sepia → x264 ultrafast → MP4 (AAC copied), 1080p25: peak RSS of 10 min (15000 frames) against its first 10 s")
        print("  input: \(input)   load average at start: \(FileBench.loadAverage)")
        var peaks: [Double] = []
        for (label, duration) in [("first 10 s", 10.0), ("10 min", nil)] as [(String, Double?)] {
            let graph = dir + "/memory.json"
            FileBench.writeGraph(TranscodeBench.transcodeGraph(input: input, output: dir + "/out.mp4", preset: "ultrafast",
                                                               duration: duration), to: graph)
            let command = [FileBench.mediagraph, "run", "--quiet", graph]
            print("  \(label): " + FileBench.commandLine(command) + (duration.map { "   (filesrc duration \($0))" } ?? ""))
            guard let m = DecodeBench.measure(command) else { print("  failed"); return }
            peaks.append(m.peakMB)
            print(String(format: "    %7.2f s wall  CPU %7.2f s  peak RSS %6.1f MB  packets %@", m.wall, m.cpu, m.peakMB,
                         FileBench.packetCounts(dir + "/out.mp4")))
            try? FileManager.default.removeItem(atPath: dir + "/out.mp4")
        }
        print(String(format: "  peak 10 min / first 10 s: %.3f (target ≤ 1.10)", peaks[1] / peaks[0]))
    }
}
