import Foundation
import Testing

/// MPEG-PS (.mpg, DVD .vob) files made by ffmpeg, read by `filesrc`, decoded and compared with
/// ffmpeg's decode of the same file: a last video packet without pts.
@Suite struct ProgramStreamTests {
    /// in.video → h264 → mp4, in.audio → aac → mp4: the QA job that failed.
    static func transcodeGraph(_ input: String, params: String = "") -> String {
        """
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)"\(params) } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast" } }, "aenc": { "type": "aac" },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["in.video", "venc", "mux.video"], ["in.audio", "aenc", "mux.audio"]] }
        """
    }

    /// "pts size md5" per frame of our framehash file.
    static func ours(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { l in let f = l.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }; return "\(f[1]) \(f[2]) \(f[3])" }
    }

    /// "pts size md5" per video frame of ffmpeg's framemd5 (`args` choose the input, streams and
    /// trim), in the stream's time base.
    static func theirs(_ args: [String]) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-v", "error"] + args + ["-c:a", "pcm_f32le", "-fps_mode", "passthrough", "-enc_time_base:v", "-1",
                                                                "-f", "framemd5", "-"])
        return r.out.split(separator: "\n").filter { $0.hasPrefix("0,") }.map { l in
            let f = l.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return "\(f[2]) \(f[4]) \(f[5])"
        }
    }

    /// ffprobe's presentation times (seconds) of the video frames of `file`.
    static func frameTimes(_ file: String) throws -> [Double] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_frames", "-show_entries", "frame=pts_time",
                                        "-of", "csv=p=0", file])
        return r.out.split(separator: "\n").compactMap { Double($0.split(separator: ",").first ?? "") }
    }

    /// The last video packet of an MPEG-PS file has no pts. libavcodec's best-effort time for its
    /// picture (drained at the end, with no later dts to guess from) was the dts the source gave
    /// the packet, one frame early: the last two frames had the same time and the h264 encoder
    /// stopped ("pts … is not after the previous pts"). Now the picture follows on.
    @Test func lastVideoPacketWithoutPtsFollowsOn() throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.mpg"
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=10", "-f", "lavfi", "-i", "sine=duration=10",
                                    "-c:v", "mpeg2video", "-c:a", "mp2", input])
        let packets = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", input])
        #expect(packets.out.split(separator: "\n").last == "N/A", "the file's last video packet has no pts")
        let frames = Int(try CLI.probe(input, "nb_read_frames", countFrames: true)["nb_read_frames"] ?? "") ?? -1
        #expect(frames == 250)

        // decoded alone: ffmpeg's pictures at ffmpeg's times (the video read alone starts at zero)
        let hashGraph = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mpg" } }, "d": { "type": "decode" },
                     "h": { "type": "framehash", "params": { "path": "h.txt" } } },
          "chains": [["in.video", "d", "h"]] }
        """, in: dir, name: "hash.json")
        let h = try CLI.mediagraph("run", "--quiet", hashGraph)
        #expect(h.status == 0, "\(h.stderr)")
        let ours = Self.ours(dir + "/h.txt"), theirs = try Self.theirs(["-i", input, "-map", "0:v"])
        #expect(theirs.count == 250)
        let same = ours == theirs
        #expect(same, "\(ours.count) frames, ffmpeg \(theirs.count); last: \(ours.suffix(2)) vs \(theirs.suffix(2))")

        // the QA job: decode → h264 → mp4 with the audio; ffprobe's frame count, increasing times,
        // each within a frame of ffmpeg's decode of both streams (which share the file's zero)
        let r = try CLI.mediagraph(["run", "--quiet", CLI.writeGraph(Self.transcodeGraph("in.mpg"), in: dir)])
        #expect(r.status == 0, "\(r.stderr)")
        let times = try Self.frameTimes(dir + "/out.mp4")
        #expect(times.count == frames, "\(times.count) frames, ffprobe counts \(frames) in the input")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "times increase: \(times.suffix(3))")
        let reference = try Self.theirs(["-i", input, "-map", "0:v", "-map", "0:a"]).compactMap { Double($0.split(separator: " ")[0]) }
        #expect(reference.count == times.count)
        let far = zip(times, reference).enumerated().first { abs($0.element.0 - $0.element.1 / 90000) > 0.04 }
        #expect(far == nil, "frame \(far?.offset ?? -1): ours \(far?.element.0 ?? 0) s, ffmpeg \((far?.element.1 ?? 0) / 90000) s")
    }
}
