import Foundation
import Testing

/// An audio encoder keeps its samples on the input's times: a hole in the audio (a recording's
/// dropout) becomes silence of the same length, so what follows still plays with its picture.
/// The reference is the source file itself (ffprobe's packet times around the hole) and
/// ffmpeg's `silencedetect` on our output.
@Suite struct AudioGapTests {
    /// Seconds of the first `key=value` of `silencedetect`'s log.
    static func detected(_ log: String, _ key: String) -> Double? {
        log.range(of: key + ": ").flatMap { Double(log[$0.upperBound...].prefix { "0123456789.-".contains($0) }) }
    }

    /// An mkv of `seconds` of video and a 440 Hz tone whose times jump ahead by `jump` seconds
    /// at `at` seconds (the tone after `at` is moved), made by ffmpeg.
    static func clipWithAJump(_ path: String, seconds: Int, tone: Int, at: Int, jump: Int) throws {
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=\(seconds)",
                               "-f", "lavfi", "-i", "sine=f=440:duration=\(tone):sample_rate=48000",
                               "-filter_complex", "[1]asetpts='if(gte(PTS,\(at)*SR),PTS+\(jump)*SR,PTS)'[a]", "-map", "0:v", "-map", "[a]",
                               "-c:v", "libx264", "-c:a", "aac", path])
    }

    @Test func aHoleInTheAudioStaysAHoleOfSilence() throws {
        let dir = CLI.tempDir()
        try Self.clipWithAJump(dir + "/gap.mkv", seconds: 5, tone: 4, at: 2, jump: 1)
        // where the hole is in the file: the packet after which the next one starts late
        let packets = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "packet=pts_time,duration_time",
                                              "-of", "csv=p=0", dir + "/gap.mkv"]).out
            .split(separator: "\n").map { $0.split(separator: ",").compactMap { Double($0) } }.filter { $0.count == 2 }
        let hole = zip(packets, packets.dropFirst()).first { $1[0] - ($0[0] + $0[1]) > 0.5 }
        let (holeStart, holeEnd) = (hole.map { $0.0[0] + $0.0[1] } ?? 0, hole.map { $0.1[0] } ?? 0)
        #expect(holeEnd - holeStart > 0.9, "ffprobe shows no hole in the source's audio: \(packets.count) packets")

        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "gap.mkv" } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast" } }, "aenc": { "type": "aac" },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["in.video", "venc", "mux.video"], ["in.audio", "aenc", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("node 'aenc' (aac): the audio's times jump ahead 1 time"), "\(r.stderr)")

        let silence = try CLI.run("ffmpeg", ["-i", dir + "/out.mp4", "-vn", "-af", "silencedetect=n=-50dB:d=0.3", "-f", "null", "-"]).stderr
        let start = Self.detected(silence, "silence_start"), end = Self.detected(silence, "silence_end")
        #expect(start.map { abs($0 - holeStart) < 0.03 } == true, "silence from \(start ?? -1) s; the source's hole starts at \(holeStart) s")
        #expect(end.map { abs($0 - holeEnd) < 0.03 } == true, "silence until \(end ?? -1) s; the source's audio resumes at \(holeEnd) s")
        // the audio lasts as long as ffmpeg's transcode of the same file says
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/gap.mkv", "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", dir + "/theirs.mp4"])
        func audioDuration(_ f: String) throws -> Double {
            Double(try CLI.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=duration", "-of", "csv=p=0", f])
                .out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        let ours = try audioDuration(dir + "/out.mp4"), theirs = try audioDuration(dir + "/theirs.mp4")
        #expect(abs(ours - theirs) < 0.03, "audio lasts \(ours) s; ffmpeg's transcode \(theirs) s")
    }

    /// A jump of more than 10 minutes is a broken or hostile file's: filling it would take as
    /// long as encoding that much sound. It is left closed, quickly, with a warning that says so.
    @Test func aJumpOfHoursIsNotFilled() throws {
        let dir = CLI.tempDir()
        try Self.clipWithAJump(dir + "/far.mkv", seconds: 2, tone: 2, at: 1, jump: 3600)
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "far.mkv" } }, "aenc": { "type": "aac" },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["in.audio", "aenc", "mux.audio"]] }
        """, in: dir)
        let started = Date()
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 20, "the run took \(Date().timeIntervalSince(started)) s")
        #expect(r.stderr.contains("the audio's times jump ahead by more than 10 minutes 1 time, the first at 1.0"), "\(r.stderr)")
        let duration = Double(try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=duration", "-of", "csv=p=0", dir + "/out.mp4"])
            .out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(duration > 1.9 && duration < 2.1, "the audio lasts \(duration) s")
    }
}
