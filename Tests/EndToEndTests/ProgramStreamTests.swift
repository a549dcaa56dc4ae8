import Foundation
import Testing

/// MPEG-PS (.mpg, DVD .vob) files made by ffmpeg, read by `filesrc`, decoded and compared with
/// ffmpeg's decode of the same file: a last video packet without pts, and trims whose seek lands
/// inside an audio frame.
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

    /// Each stream's (start_time, duration, nb_frames) as ffprobe reads them, by codec type.
    static func streams(_ file: String) throws -> [String: (start: Double, duration: Double, frames: Int)] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,start_time,duration,nb_frames",
                                        "-of", "csv=p=0", file])
        var out: [String: (start: Double, duration: Double, frames: Int)] = [:]
        for line in r.out.split(separator: "\n") {
            let f = line.split(separator: ",").map(String.init)
            if f.count >= 4, let s = Double(f[1]), let d = Double(f[2]), let n = Int(f[3]) { out[f[0]] = (s, d, n) }
        }
        return out
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

    /// The files the trims read: DVD (MPEG-2 + AC-3, `-target pal-dvd`) and MPEG-2 + MP2 in .mpg.
    static let trimFiles: [(name: String, make: [String])] = [
        ("dvd.vob", ["-f", "lavfi", "-i", "testsrc2=size=720x576:rate=25:duration=6", "-f", "lavfi", "-i", "sine=duration=6:sample_rate=48000",
                     "-target", "pal-dvd"]),
        ("mp2.mpg", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=6", "-f", "lavfi", "-i", "sine=duration=6:sample_rate=48000",
                     "-c:v", "mpeg2video", "-c:a", "mp2"]),
    ]

    /// The seek of a trim lands inside an audio frame (MPEG-PS has no index): the partial frame,
    /// in the lead-in before `start`, does not decode ("Invalid data", "Header missing"), which
    /// stopped the run although the file is sound. It is now dropped with a note. The trims have
    /// ffmpeg's accurate trim's pictures (`-i F -ss S -t D`, the same frames at the same times),
    /// and the transcode ffprobe's frame count, start and duration for ffmpeg's `-ss S -i F -t D`
    /// within a frame (ffmpeg's constant-rate output repeats the first picture when `start` falls
    /// between two frames; Docs/inputs.md, trim).
    @Test(arguments: [0, 1], ["1.3", "2.7", "3.9"])
    func trimOfAProgramStreamDropsTheLeadInItCannotDecode(_ file: Int, _ start: String) throws {
        let dir = CLI.tempDir()
        let (name, make) = Self.trimFiles[file]
        let input = dir + "/" + name
        try FileSourceTests.ffmpeg(make + [input])
        let trim = ", \"start\": \(start), \"duration\": 1.5"

        let hashGraph = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(name)"\(trim) } }, "d": { "type": "decode" },
                     "h": { "type": "framehash", "params": { "path": "h.txt" } }, "da": { "type": "decode" }, "n": { "type": "nullsink" } },
          "chains": [["in.video", "d", "h"], ["in.audio", "da", "n"]] }
        """, in: dir, name: "hash.json")
        let h = try CLI.mediagraph("run", hashGraph)
        #expect(h.status == 0, "\(name) at \(start): \(h.stderr)")
        #expect(!h.stderr.contains("undecodable"), "\(h.stderr)")
        let ours = Self.ours(dir + "/h.txt")
        let theirs = try Self.theirs(["-i", input, "-ss", start, "-t", "1.5", "-map", "0:v", "-map", "0:a"])
        #expect(theirs.count == 37 || theirs.count == 38, "ffmpeg's trim has \(theirs.count) frames")
        let same = ours == theirs
        #expect(same, "\(name) at \(start): \(ours.count) frames, ffmpeg \(theirs.count): \(ours.first ?? "-") vs \(theirs.first ?? "-")")

        let r = try CLI.mediagraph(["run", "--quiet", CLI.writeGraph(Self.transcodeGraph(name, params: trim), in: dir)])
        #expect(r.status == 0, "\(name) at \(start): \(r.stderr)")
        try FileSourceTests.ffmpeg(["-ss", start, "-i", input, "-t", "1.5", "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac",
                                    dir + "/ffmpeg.mp4"])
        let us = try Self.streams(dir + "/out.mp4"), them = try Self.streams(dir + "/ffmpeg.mp4")
        let frame = 0.04 + 1e-6, aacFrame = 1024.0 / 48000
        if let v = us["video"], let w = them["video"] {
            // the ends compared: ours ends where the trim does (its last frame keeps the duration
            // the trim left it), ffmpeg's constant-rate output at a whole frame after its start
            #expect(abs(v.frames - w.frames) <= 1 && abs(v.start - w.start) <= frame && abs((v.start + v.duration) - (w.start + w.duration)) <= frame,
                    "\(name) at \(start): video \(v), ffmpeg \(w)")
        } else {
            Issue.record("\(name) at \(start): no video in \(us) or \(them)")
        }
        if let a = us["audio"], let b = them["audio"] {
            #expect(abs(a.start - b.start) <= aacFrame && abs(a.duration - b.duration) <= aacFrame, "\(name) at \(start): audio \(a), ffmpeg \(b)")
        } else {
            Issue.record("\(name) at \(start): no audio in \(us) or \(them)")
        }
    }

    /// Damage at or after `start` is the file's: it stops the run as before (and `errors: skip`
    /// skips it with a warning). The sync word of an AC-3 frame 1.3 s after the start is zeroed.
    @Test func undecodablePacketAfterStartStillStops() throws {
        let dir = CLI.tempDir()
        try FileSourceTests.ffmpeg(Self.trimFiles[0].make + [dir + "/dvd.vob"])
        let fileStart = Double(try CLI.run("ffprobe", ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0",
                                                       dir + "/dvd.vob"]).out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let packets = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time,pos",
                                              "-of", "csv=p=0", dir + "/dvd.vob"]).out
        let at = packets.split(separator: "\n").compactMap { line -> (Double, Int)? in
            let f = line.split(separator: ","); guard f.count == 2, let t = Double(f[0]), let p = Int(f[1]) else { return nil }
            return (t, p)
        }.first { $0.0 >= fileStart + 2.7 + 1.3 }
        var bytes = [UInt8](FileManager.default.contents(atPath: dir + "/dvd.vob")!)
        let sync = at.flatMap { a in (a.1..<(bytes.count - 1)).first { bytes[$0] == 0x0B && bytes[$0 + 1] == 0x77 } }
        guard let sync else { Issue.record("no AC-3 frame after 4.0 s: \(packets.prefix(200))"); return }
        bytes[sync] = 0; bytes[sync + 1] = 0
        #expect(FileManager.default.createFile(atPath: dir + "/bad.vob", contents: Data(bytes)))

        let stop = try CLI.mediagraph(["run", "--quiet", CLI.writeGraph(Self.transcodeGraph("bad.vob", params: ", \"start\": 2.7, \"duration\": 2"), in: dir)])
        #expect(stop.status == 1, "\(stop.stderr)")
        #expect(stop.stderr.contains("error: node 'auto_decode_in_audio' (decode): the packet at 1.") && stop.stderr.contains("cannot be decoded"),
                "\(stop.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"), "nothing half-written")

        let skip = try CLI.mediagraph(["run", "--quiet", CLI.writeGraph(Self.transcodeGraph("bad.vob", params: ", \"start\": 2.7, \"duration\": 2, \"errors\": \"skip\""), in: dir, name: "skip.json")])
        #expect(skip.status == 0, "\(skip.stderr)")
        #expect(skip.stderr.contains("warning: node 'auto_decode_in_audio' (decode): skipped ") && skip.stderr.contains("; the first: the packet at 1."),
                "\(skip.stderr)")
    }
}
