// Benchmark area "decode": decode only, 1080p H.264 and HEVC, frames per second against
// `ffmpeg -threads N -i in.mp4 -f null -` with the same thread count (1 and 2) in the same run;
// and peak memory of decoding 10 s against 60 s of the same 1080p video. Every decode runs as a
// child process under /usr/bin/time, ffmpeg's and ours alike (start-up and file reading count
// for both). Each pair alternates three times and keeps its best run (the machine is shared).
import CAVCodec
import CAVFormat
import Foundation
import MediaGraphCodecs
import MediaGraphCore

enum DecodeBench {
    static let area = BenchArea(name: "decode", run: run)

    static func run() {
        let args = CommandLine.arguments
        if let i = args.firstIndex(of: "--decode-child"), i + 2 < args.count {
            exit(decodeChild(path: args[i + 1], threads: Int(args[i + 2]) ?? 0))
        }
        let dir = NSTemporaryDirectory() + "decodebench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        print("making test files (1080p25 testsrc2 with light noise: H.264 veryfast crf 23, HEVC ultrafast crf 26) …")
        let source = ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25,noise=alls=6:allf=t"]
        let h264 = dir + "/h264-10s.mp4", hevc = dir + "/hevc-10s.mp4", long = dir + "/h264-60s.mp4"
        let makes: [(String, [String])] = [
            (h264, ["-t", "10", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p"]),
            (hevc, ["-t", "10", "-c:v", "libx265", "-preset", "ultrafast", "-crf", "26", "-x265-params", "log-level=error",
                    "-pix_fmt", "yuv420p", "-tag:v", "hvc1"]),
            (long, ["-t", "60", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p"]),
        ]
        for (path, options) in makes {
            guard MP4Bench.shell(["ffmpeg", "-v", "error", "-y"] + source + options + [path]) != nil else {
                print("ffmpeg failed to make \(path)"); return
            }
        }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        for (name, input) in [("H.264", h264), ("HEVC", hevc)] {
            print("\(name) 1080p, 250 frames, decode only:")
            for threads in [1, 2] {
                _ = MP4Bench.shell(["cat", input], discardOutput: true)
                // alternate the two, three times each, and keep each one's best run: the machine
                // is shared, and the best run is the one least disturbed
                var best: [Measured?] = [nil, nil]
                for _ in 0..<3 {
                    let runs = [measure(["ffmpeg", "-v", "error", "-threads", "\(threads)", "-i", input, "-f", "null", "-"]),
                                measure([me, "decode", "--decode-child", input, "\(threads)"])]
                    for (k, r) in runs.enumerated() {
                        if let r, best[k] == nil || r.wall < best[k]!.wall { best[k] = r }
                    }
                }
                guard let f = best[0], let o = best[1] else { print("  \(threads) thread(s): failed"); continue }
                print(String(format: "  %d thread%@: ffmpeg %6.1f fps (%5.2f s, CPU %5.2f s, %5.1f MB)   mediagraph %6.1f fps (%5.2f s, CPU %5.2f s, %5.1f MB)   fps ratio %.2f",
                             threads, threads == 1 ? " " : "s", 250 / f.wall, f.wall, f.cpu, f.peakMB, 250 / o.wall, o.wall, o.cpu, o.peakMB, f.wall / o.wall))
            }
        }
        print("peak memory, H.264 1080p decode (2 threads), 10 s against 60 s:")
        if let short = measure([me, "decode", "--decode-child", h264, "2"]), let long = measure([me, "decode", "--decode-child", long, "2"]) {
            print(String(format: "  10 s: %.1f MB   60 s: %.1f MB (%.1f fps)   ratio %.3f", short.peakMB, long.peakMB, 1500 / long.wall,
                         long.peakMB / short.peakMB))
        }
    }

    struct Measured {
        var wall: Double
        var cpu: Double
        var peakMB: Double
    }

    /// Wall and CPU seconds (user + system) and peak RSS of a command, from /usr/bin/time.
    static func measure(_ command: [String]) -> Measured? {
        // (stdout discarded: `mediagraph thumbnails` lists its pictures there, among the bench's lines)
        guard let err = MP4Bench.shell(["/usr/bin/time", "-f", "DECODEBENCH %e %U %S %M"] + command, captureStderr: true,
                                       discardOutput: true),
              let line = err.split(separator: "\n").last(where: { $0.hasPrefix("DECODEBENCH") }) else { return nil }
        let v = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard v.count == 4 else { return nil }
        return Measured(wall: v[0], cpu: v[1] + v[2], peakMB: v[3] / 1024)
    }

    /// Reads the first video stream with libavformat and decodes every packet, dropping the
    /// frames (as ffmpeg's null muxer does).
    static func decodeChild(path: String, threads: Int) -> Int32 {
        var ic: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_open_input(&ic, path, nil, nil) >= 0, let ctx = ic, avformat_find_stream_info(ctx, nil) >= 0 else { return 1 }
        defer { avformat_close_input(&ic) }
        let index = av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, let st = ctx.pointee.streams[Int(index)] else { return 1 }
        let par = st.pointee.codecpar.pointee
        let tb = Rational(Int64(st.pointee.time_base.num), Int64(st.pointee.time_base.den))
        let extradata = par.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(par.extradata_size))) } ?? []
        let raw = VideoFormat(pixelFormat: .yuv420p, width: Int(par.width), height: Int(par.height), frameRate: Rational(25, 1), timeBase: tb)
        let format = EncodedVideoFormat(codec: Codec(String(cString: avcodec_get_name(par.codec_id)), kind: .video), raw: raw,
                                        timeBase: tb, extradata: extradata)
        do {
            let decoder = try VideoDecoder(input: format, threads: threads)
            guard let pkt = av_packet_alloc() else { return 1 }
            var p: UnsafeMutablePointer<AVPacket>? = pkt
            defer { av_packet_free(&p) }
            var frames = 0
            while av_read_frame(ctx, pkt) >= 0 {
                defer { av_packet_unref(pkt) }
                guard pkt.pointee.stream_index == index else { continue }
                let b = SampleBuffer(bytes: Array(UnsafeBufferPointer(start: pkt.pointee.data, count: Int(pkt.pointee.size))),
                                     format: .encodedVideo(format), pts: pkt.pointee.pts, dts: pkt.pointee.dts,
                                     duration: pkt.pointee.duration, timeBase: tb,
                                     flags: pkt.pointee.flags & AV_PKT_FLAG_KEY != 0 ? .keyFrame : [])
                try decoder.send(b)
                while try decoder.receive() != nil { frames += 1 }
            }
            try decoder.sendEndOfStream()
            while try decoder.receive() != nil { frames += 1 }
            if decoder.statistics.zeroCopyFrames != frames {
                FileHandle.standardError.write(Data("decode: \(frames) frames, \(decoder.statistics.zeroCopyFrames) without a copy\n".utf8))
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("decode failed: \(error)\n".utf8))
            return 1
        }
    }
}
