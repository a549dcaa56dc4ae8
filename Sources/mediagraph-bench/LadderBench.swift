// The "ladder" benchmark area: one 1080p H.264 + AAC file made into a bit-rate ladder for
// adaptive streaming, what people write long ffmpeg commands for: decoded once, the picture
// kept at 1920x1080 and scaled (bicubic) to 1280x720 and 640x360, three x264 veryfast encodes at
// 5000/2800/800 kb/s with a key frame every 2 s (no scene cuts, so the rungs' segments line up),
// the sound copied. Written three ways: three MP4 files, HLS with a master playlist, DASH with
// the three in one AdaptationSet; ffmpeg does the same in the same run (`split`, `scale`,
// `-var_stream_map`, `-adaptation_sets`). Whole processes under /usr/bin/time, best of 3.
import Foundation

enum LadderBench {
    static let area = BenchArea(name: "ladder", run: run)
    /// Height and kb/s of each rung (the first is the input's own size).
    static let rungs: [(height: Int, kbps: Int)] = [(1080, 5000), (720, 2800), (360, 800)]

    static func run() {
        guard let input = FileBench.h264AAC10s else { return }
        let dir = FileBench.workDirectory("ladder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [(String, ours: [String], ffmpeg: [String])] = [
            ("3 MP4 files", ours(input, dir, "mp4"), ffmpegMP4(input, dir)),
            ("HLS, master playlist", ours(input, dir, "hls"), ffmpegHLS(input, dir)),
            ("DASH, one AdaptationSet", ours(input, dir, "dash"), ffmpegDASH(input, dir)),
        ]
        print("bit-rate ladder of a 10 s 1920x1080 25 fps H.264 + AAC file: 1080p 5000k, 720p 2800k, 360p 800k,")
        print("  x264 veryfast, key frame every 50 frames, no scene cuts, bicubic scaling, sound copied")
        print("  load average at start: \(FileBench.loadAverage); best of 3, alternating")
        for (name, ours, ffmpeg) in cases {
            let best = FileBench.bestOf(3, [ffmpeg, ours], input: input)
            guard let f = best[0], let o = best[1] else { print("  \(name): failed"); continue }
            print("  \(name)")
            print("    ffmpeg: " + FileBench.commandLine(ffmpeg))
            print(String(format: "    ffmpeg     %6.2f s wall  CPU %6.2f s  peak %6.1f MB", f.wall, f.cpu, f.peakMB))
            print(String(format: "    mediagraph %6.2f s wall  CPU %6.2f s  peak %6.1f MB", o.wall, o.cpu, o.peakMB))
            print(String(format: "    wall ffmpeg/ours %.2f   CPU ffmpeg/ours %.2f", f.wall / o.wall, f.cpu / o.cpu))
        }
    }

    /// Our graph: filesrc → (the picture, two scales) → three h264 → the sink(s) of `kind`.
    static func ours(_ input: String, _ dir: String, _ kind: String) -> [String] {
        var nodes = ["\"in\": {\"type\": \"filesrc\", \"params\": {\"path\": \(FileBench.quoted(input))}}"]
        var chains: [String] = []
        for (k, r) in rungs.enumerated() {
            nodes.append("\"e\(k)\": {\"type\": \"h264\", \"params\": {\"preset\": \"veryfast\", \"bitrate\": \(r.kbps), \"keyint\": 50, \"min-keyint\": 50, \"x264-params\": \"scenecut=0\"}}")
            var chain = ["\"in.video\""]
            if k > 0 {
                nodes.append("\"s\(k)\": {\"type\": \"scale\", \"params\": {\"width\": -2, \"height\": \(r.height)}}")
                chain.append("\"s\(k)\"")
            }
            chain.append("\"e\(k)\"")
            if kind == "mp4" {
                nodes.append("\"m\(k)\": {\"type\": \"mp4\", \"params\": {\"path\": \(FileBench.quoted(dir + "/ours-\(r.height).mp4"))}}")
                chain.append("\"m\(k).video\"")
            } else {
                chain.append("\"out.video\(k == 0 ? "" : String(k))\"")
            }
            chains.append("[" + chain.joined(separator: ", ") + "]")
        }
        switch kind {
        case "mp4": chains.append("[\"in.audio\", \"m0.audio\"]")
        case "hls": nodes.append("\"out\": {\"type\": \"hls\", \"params\": {\"path\": \(FileBench.quoted(dir + "/ours-hls/stream.m3u8"))}}")
        default: nodes.append("\"out\": {\"type\": \"dash\", \"params\": {\"path\": \(FileBench.quoted(dir + "/ours-dash/stream.mpd"))}}")
        }
        if kind != "mp4" { chains.append("[\"in.audio\", \"out.audio\"]") }
        let graph = dir + "/ladder-\(kind).json"
        FileBench.writeGraph("{\"nodes\": {" + nodes.joined(separator: ", ") + "}, \"chains\": [" + chains.joined(separator: ", ") + "]}", to: graph)
        return [FileBench.mediagraph, "run", "--quiet", graph]
    }

    /// ffmpeg's split and scales, and the encoder settings of each output stream.
    static func ffmpegLadder(_ input: String) -> [String] {
        let scales = rungs.indices.dropFirst().map { "[v\($0)]scale=-2:\(rungs[$0].height)[s\($0)]" }
        let split = "[0:v]split=\(rungs.count)" + rungs.indices.map { "[v\($0)]" }.joined()
        return ["ffmpeg", "-v", "error", "-y", "-i", input, "-filter_complex", ([split] + scales).joined(separator: ";")]
    }

    static func x264(_ k: Int, stream: String) -> [String] {
        ["-c:v\(stream)", "libx264", "-preset", "veryfast", "-b:v\(stream)", "\(rungs[k].kbps)k", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0"]
    }

    static func mapped(_ k: Int) -> String { k == 0 ? "[v0]" : "[s\(k)]" }

    static func ffmpegMP4(_ input: String, _ dir: String) -> [String] {
        var args = ffmpegLadder(input)
        for k in rungs.indices {
            args += ["-map", mapped(k)] + (k == 0 ? ["-map", "0:a", "-c:a", "copy"] : []) + x264(k, stream: "") + [dir + "/ff-\(rungs[k].height).mp4"]
        }
        return args
    }

    static func ffmpegHLS(_ input: String, _ dir: String) -> [String] {
        try? FileManager.default.createDirectory(atPath: dir + "/ff-hls", withIntermediateDirectories: true)
        var args = ffmpegLadder(input)
        for k in rungs.indices { args += ["-map", mapped(k)] }
        args += ["-map", "0:a"]
        for k in rungs.indices { args += x264(k, stream: ":\(k)") }
        let streams = rungs.indices.map { "v:\($0),agroup:aud" } + ["a:0,agroup:aud"]
        return args + ["-c:a", "copy", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
                       "-master_pl_name", "stream.m3u8", "-var_stream_map", streams.joined(separator: " "),
                       "-hls_segment_filename", dir + "/ff-hls/s_%v_%d.m4s", "-hls_fmp4_init_filename", "init_%v.mp4", dir + "/ff-hls/out_%v.m3u8"]
    }

    static func ffmpegDASH(_ input: String, _ dir: String) -> [String] {
        try? FileManager.default.createDirectory(atPath: dir + "/ff-dash", withIntermediateDirectories: true)
        var args = ffmpegLadder(input)
        for k in rungs.indices { args += ["-map", mapped(k)] }
        args += ["-map", "0:a"]
        for k in rungs.indices { args += x264(k, stream: ":\(k)") }
        return args + ["-c:a", "copy", "-f", "dash", "-seg_duration", "2", "-adaptation_sets", "id=0,streams=v id=1,streams=a",
                       dir + "/ff-dash/stream.mpd"]
    }
}
