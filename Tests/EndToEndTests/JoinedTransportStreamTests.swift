import Foundation
import Testing

/// MPEG-TS recordings joined with `cat`: each part's clock starts anew, so the timestamps jump
/// forward (a part recorded later) or back (one recorded earlier). filesrc moves later packets to
/// follow on as ffmpeg does; before, a copy or an encode stopped at the first step back ("pts
/// must increase", "decode timestamps must increase").
struct JoinedTransportStreamTests {
    /// Three 2-second parts: the second's clock 30 s later (a jump forward of 28 s), the third
    /// the first again (a jump back).
    static func joined(in dir: String) throws -> String {
        let parts = [("testsrc", 440, "0"), ("testsrc2", 660, "30"), ("testsrc", 440, "0")]
        for (i, (video, tone, offset)) in parts.enumerated() {
            try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "\(video)=size=320x240:rate=25:duration=2",
                                        "-f", "lavfi", "-i", "sine=frequency=\(tone):duration=2:sample_rate=44100",
                                        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "25",
                                        "-c:a", "aac", "-output_ts_offset", offset, dir + "/part\(i).ts"])
        }
        return try cat(parts.indices.map { dir + "/part\($0).ts" }, into: dir + "/joined.ts")
    }

    /// The files one after the other, as `cat` joins them.
    static func cat(_ files: [String], into path: String) throws -> String {
        var bytes = Data()
        for file in files { bytes.append(try Data(contentsOf: URL(fileURLWithPath: file))) }
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A stream copy into MP4 by filesrc (errors=skip) to DIR/ours.mp4 and by ffmpeg's `-c copy`
    /// to DIR/ffmpeg.mp4; ours' warnings.
    static func copyBothWays(_ input: String, in dir: String) throws -> String {
        let g = CLI.writeGraph(FileSourceTests.copyGraph(input, dir + "/ours.mp4", params: ", \"errors\": \"skip\""), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        try FileSourceTests.ffmpeg(["-i", input, "-c", "copy", dir + "/ffmpeg.mp4"])
        return r.stderr
    }

    /// Seconds of a packet list's first field (pts), each less the first.
    static func relative(_ lines: [String]) -> [Double] {
        let times = lines.compactMap { Double($0.split(separator: ",").first ?? "") }
        return times.map { $0 - (times.first ?? 0) }
    }

    /// A copy into MP4: audio packet for packet ffmpeg's `-c copy` (its muxer moves the few
    /// packets that overlap at a junction one tick after the one before, and so does filesrc);
    /// video the same times, less the packets the demuxer flags damaged where a part was cut
    /// off (errors=skip leaves them out; ffmpeg passes them on).
    @Test func copyFollowsOnAsFFmpegsCopy() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Self.joined(in: dir)
        let warnings = try Self.copyBothWays(input, in: dir)
        #expect(warnings.contains("the timestamps of '\(input)' jump forward 27.977 s at 2.023 s in stream 'video' (and 1 more time)"), "\(warnings)")

        #expect(try FileSourceTests.packets(dir + "/ours.mp4", "a") == FileSourceTests.packets(dir + "/ffmpeg.mp4", "a"))
        let ours = Self.relative(try FileSourceTests.packets(dir + "/ours.mp4", "v"))
        let theirs = Self.relative(try FileSourceTests.packets(dir + "/ffmpeg.mp4", "v"))
        #expect(theirs.count == 150 && ours.count >= theirs.count - 2 && ours.count < theirs.count, "\(ours.count) vs \(theirs.count)")
        let unmatched = ours.filter { t in !theirs.contains { abs($0 - t) < 0.0005 } }
        #expect(unmatched.isEmpty, "video packets at times ffmpeg's copy has none: \(unmatched)")
        #expect(ours.last.map { $0 > 5.9 } == true, "the third part follows on: \(ours.last ?? 0)")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/ours.mp4", "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
    }

    /// A stream that first appears after the join (a video-only recording, then an audio-only
    /// one 30 s later): its first packet is checked against the latest of the other streams
    /// (ffmpeg's inter-stream check), so the audio follows the video instead of starting at 30 s.
    /// Both streams packet for packet ffmpeg's `-c copy` (video less the size: the TS's access
    /// unit delimiters, 6 bytes a picture, are left out of an MP4 copy; ffmpeg keeps them).
    @Test func aStreamFirstSeenAfterTheJoinFollowsOn() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=2", "-c:v", "libx264",
                                    "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "25", dir + "/video.ts"])
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "sine=duration=2:sample_rate=44100", "-c:a", "aac",
                                    "-output_ts_offset", "30", "-streamid", "0:257", dir + "/audio.ts"])
        let input = try Self.cat([dir + "/video.ts", dir + "/audio.ts"], into: dir + "/joined.ts")
        let warnings = try Self.copyBothWays(input, in: dir)
        #expect(warnings.contains("jump forward 28.097 s at 1.880 s in stream 'audio'"), "\(warnings)")
        #expect(try FileSourceTests.packets(dir + "/ours.mp4", "a") == FileSourceTests.packets(dir + "/ffmpeg.mp4", "a"))
        func timing(_ file: String) throws -> [String] {
            // ffprobe's order: pts, dts, duration, size, flags
            try FileSourceTests.packets(file, "v").map { line in
                line.split(separator: ",").enumerated().filter { $0.offset != 3 }.map(\.element).joined(separator: ",")
            }
        }
        #expect(try timing(dir + "/ours.mp4") == timing(dir + "/ffmpeg.mp4"))
        let start = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=start_time", "-of", "csv=p=0", dir + "/ours.mp4"])
        #expect(start.out.trimmingCharacters(in: .whitespacesAndNewlines) == "1.880000", "\(start.out)")
    }

    /// Decoded, filtered and encoded: the encoders get increasing timestamps, and the file
    /// holds all three parts end to end, as ffmpeg's transcode does.
    @Test func transcodeFollowsOn() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Self.joined(in: dir)
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)", "errors": "skip" } },
                     "inv": { "type": "invert" },
                     "venc": { "type": "h264", "params": { "preset": "ultrafast" } }, "aenc": { "type": "aac" },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["in.video", "inv", "venc", "mux.video"], ["in.audio", "aenc", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let probe = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "csv=p=0", dir + "/out.mp4"])
        let durations = Dictionary(uniqueKeysWithValues: probe.out.split(separator: "\n").compactMap { line -> (String, Double)? in
            let f = line.split(separator: ",")
            return f.count == 2 ? (String(f[0]), Double(f[1]) ?? 0) : nil
        })
        #expect(abs((durations["video"] ?? 0) - 6) < 0.1 && abs((durations["audio"] ?? 0) - 6) < 0.2, "\(probe.out)")
        let pts = Self.relative(try FileSourceTests.packets(dir + "/out.mp4", "v")).sorted()
        #expect(pts.count >= 147, "\(pts.count) pictures")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/out.mp4", "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
    }
}
