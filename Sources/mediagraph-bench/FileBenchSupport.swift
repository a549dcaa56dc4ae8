// What the file-input areas (transcode, copy, memory) share: media files generated once by
// ffmpeg and kept between runs, the `mediagraph` executable beside this one, graph files written
// for a run, and ffmpeg/ours measured alike as child processes under /usr/bin/time.
import Foundation

enum FileBench {
    /// Generated inputs are kept here between runs (they take minutes to make and do not
    /// change); delete the directory to make them again.
    static let cacheDirectory = NSTemporaryDirectory() + "mediagraph-bench-inputs"

    /// The file `name` in the cache, made by `ffmpeg -v error -y ARGS FILE` when it is missing.
    /// ffmpeg writes to a temporary name first, so an interrupted run leaves no half file.
    static func cached(_ name: String, ffmpeg args: [String]) -> String? {
        try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        let path = cacheDirectory + "/" + name
        if FileManager.default.fileExists(atPath: path) { return path }
        let partial = cacheDirectory + "/partial-" + name
        print("  making \(name) (once; cached in \(cacheDirectory)) …")
        guard MP4Bench.shell(["ffmpeg", "-v", "error", "-y"] + args + [partial]) != nil,
              rename(partial, path) == 0 else {
            print("  ffmpeg failed to make \(name)")
            return nil
        }
        return path
    }

    /// 10 s of 1080p25 H.264 (x264 veryfast crf 23, B-frames; testsrc2 with light noise so the
    /// encoder has real work) with 48 kHz stereo AAC at 128 kb/s: the transcode input.
    static var h264AAC10s: String? {
        cached("h264-aac-1080p25-10s.mp4", ffmpeg: [
            "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25,noise=alls=6:allf=t",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000,aformat=channel_layouts=stereo",
            "-t", "10", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "128k"])
    }

    /// The executable `mediagraph` built beside this one (`make bench` builds both).
    static var mediagraph: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("mediagraph").path
    }

    /// A fresh working directory for one area's outputs, removed by the caller.
    static func workDirectory(_ area: String) -> String {
        let dir = NSTemporaryDirectory() + "\(area)bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes a graph file; paths in it are absolute, so it may live anywhere.
    static func writeGraph(_ json: String, to path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
    }

    /// A command as a person would type it (arguments with spaces or quotes quoted).
    static func commandLine(_ args: [String]) -> String {
        args.map { a in
            a.contains(where: { " \"'$*?;&|()<>[]".contains($0) }) ? "'" + a.replacingOccurrences(of: "'", with: "'\\''") + "'" : a
        }.joined(separator: " ")
    }

    /// Runs each command `rounds` times, alternating between them, after reading `input` once so
    /// no side gets the page cache's help alone; keeps each command's best (least disturbed) run.
    static func bestOf(_ rounds: Int, _ commands: [[String]], input: String) -> [DecodeBench.Measured?] {
        var best = [DecodeBench.Measured?](repeating: nil, count: commands.count)
        _ = MP4Bench.shell(["cat", input], discardOutput: true)
        for _ in 0..<rounds {
            for (k, command) in commands.enumerated() {
                if let r = DecodeBench.measure(command), best[k] == nil || r.wall < best[k]!.wall { best[k] = r }
            }
        }
        return best
    }

    /// Packets per stream of a file, as ffprobe counts them ("v:250 a:471"), to show that both
    /// sides wrote the same streams.
    static func packetCounts(_ path: String) -> String {
        ["v", "a"].map { kind in
            let n = MP4Bench.shell(["ffprobe", "-v", "error", "-select_streams", "\(kind):0", "-count_packets", "-show_entries",
                                    "stream=nb_read_packets", "-of", "csv=p=0", path], captureOutput: true)?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            return "\(kind):\(n.isEmpty ? "-" : n)"
        }.joined(separator: " ")
    }

    /// The load average when a measurement starts (the machine is shared).
    static var loadAverage: String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    }

    /// A JSON string literal for a path.
    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
