// Benchmark area "mp4": remux a large H.264 elementary stream to MP4, with and without fast
// start, against `ffmpeg -c copy` on the same file in the same run. Each remux runs as a child
// process under /usr/bin/time so wall time and peak memory (max RSS) are measured alike.
import Foundation
import MediaGraphCore
import MediaGraphMP4

enum MP4Bench {
    static let area = BenchArea(name: "mp4", run: run)

    static func run() {
        let args = CommandLine.arguments
        if let i = args.firstIndex(of: "--mp4-remux-child"), i + 3 < args.count {
            exit(remuxChild(input: args[i + 1], output: args[i + 2], fastStart: args[i + 3] == "1"))
        }
        let dir = NSTemporaryDirectory() + "mp4bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Many ordinary frames (1500 × ~140 kB), few huge ones (100 × 2.7 MB), and a small file
        // to show that peak memory does not follow the file size.
        let many = dir + "/many.h264", huge = dir + "/huge-frames.h264", small = dir + "/small.h264"
        print("making test streams (1080p25 testsrc2, x264 ultrafast lossless; noise for huge frames) …")
        for (path, filter, seconds) in [(many, "", "60"), (huge, ",noise=alls=20:allf=t", "4"), (small, ",noise=alls=20:allf=t", "1")] {
            guard shell(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25" + filter,
                         "-t", seconds, "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-f", "h264", path]) != nil else {
                print("ffmpeg failed to make \(path)"); return
            }
        }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        for input in [many, huge, small] {
            let size = Double(fileSize(input)) / 1e6
            print(String(format: "input %@: %.1f MB", (input as NSString).lastPathComponent, size))
            let out = dir + "/out.mp4"
            let runs: [(String, [String])] = [
                ("ffmpeg -c copy", ["ffmpeg", "-v", "error", "-y", "-f", "h264", "-framerate", "25", "-i", input, "-c", "copy", out]),
                ("mediagraph", [me, "mp4", "--mp4-remux-child", input, out, "0"]),
                ("ffmpeg -c copy +faststart", ["ffmpeg", "-v", "error", "-y", "-f", "h264", "-framerate", "25", "-i", input, "-c", "copy",
                                               "-movflags", "+faststart", out]),
                ("mediagraph faststart", [me, "mp4", "--mp4-remux-child", input, out, "1"]),
            ]
            for (name, command) in runs {
                // Drop the page cache's advantage for whichever runs first: read the input once.
                _ = shell(["cat", input], discardOutput: true)
                guard let (seconds, kb) = timed(command) else { print("  \(name): failed"); continue }
                let label = name.padding(toLength: 28, withPad: " ", startingAt: 0)
                let packets = shell(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                                     "stream=nb_read_packets", "-of", "csv=p=0", out], captureOutput: true)?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                print("  " + label + String(format: "%7.2f s  %8.1f MB/s  peak RSS %7.1f MB", seconds, size / seconds, Double(kb) / 1024)
                      + "  (\(packets) packets)")
                try? FileManager.default.removeItem(atPath: out)
            }
        }
    }

    /// The remux itself, as the h264src → mp4 graph does it.
    static func remuxChild(input: String, output: String, fastStart: Bool) -> Int32 {
        do {
            let reader = try H264StreamReader(path: input)
            let muxer = try MP4Muxer(path: output, options: MP4MuxerOptions(fastStart: fastStart))
            var track: MP4TrackID?
            while let au = try reader.next() {
                if track == nil {
                    track = try muxer.addVideoTrack(codec: .h264, width: reader.timer.width, height: reader.timer.height,
                                                    timescale: reader.timer.timescale,
                                                    configuration: reader.timer.configuration.map { .h264($0) })
                }
                try muxer.append(MP4Sample(data: au.data, pts: au.pts, dts: au.dts, duration: au.duration,
                                           isSync: au.isKeyFrame), to: track!)
            }
            try muxer.finish()
            return 0
        } catch {
            FileHandle.standardError.write(Data("remux failed: \(error)\n".utf8))
            return 1
        }
    }

    /// Wall seconds and max RSS (KiB) of a command, from /usr/bin/time.
    static func timed(_ command: [String]) -> (Double, Int)? {
        guard let err = shell(["/usr/bin/time", "-f", "MP4BENCH %e %M"] + command, captureStderr: true) else { return nil }
        guard let line = err.split(separator: "\n").last(where: { $0.hasPrefix("MP4BENCH") }) else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count == 3, let s = Double(parts[1]), let kb = Int(parts[2]) else { return nil }
        return (s, kb)
    }

    @discardableResult
    static func shell(_ args: [String], captureStderr: Bool = false, captureOutput: Bool = false,
                      discardOutput: Bool = false) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: args[0].hasPrefix("/") ? args[0] : "/usr/bin/env")
        p.arguments = args[0].hasPrefix("/") ? Array(args.dropFirst()) : args
        let errPipe = Pipe()
        p.standardError = captureStderr ? errPipe : FileHandle.standardError
        let outPipe = Pipe()
        if discardOutput { p.standardOutput = FileHandle.nullDevice }
        if captureOutput { p.standardOutput = outPipe }
        do { try p.run() } catch { return nil }
        let data = captureStderr ? errPipe.fileHandleForReading.readDataToEndOfFile()
            : captureOutput ? outPipe.fileHandleForReading.readDataToEndOfFile() : Data()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            if captureStderr { FileHandle.standardError.write(data) }
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
