import Foundation
import Testing

/// A copied video stream starts on its first key frame, as ffmpeg's `-c copy` does: the tail of
/// a Transport Stream (cut mid-GOP) copied into MP4 must play.
extension FileSourceTests {
    /// The QA repro: a 10 s TS with its first 200 000 bytes cut off begins with pictures whose
    /// references (and parameter sets) were never read. The copy leaves them out and says so;
    /// its first packet is a key frame, it has ffmpeg's `-c copy`'s frames, decodes without a
    /// word from ffmpeg and plays in Chromium. The audio before the key frame is kept, as
    /// ffmpeg keeps it (the video track starts later). Decoding the same file is unchanged.
    @Test func copyOfAFileStartingMidGOPStartsOnAKeyFrame() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "10", "-c:v", "libx264", "-g", "50", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", dir + "/short.mp4"])
        try Self.ffmpeg(["-i", dir + "/short.mp4", "-c", "copy", "-f", "mpegts", dir + "/short.ts"])
        let ts = try Data(contentsOf: URL(fileURLWithPath: dir + "/short.ts"))
        try ts.dropFirst(200_000).write(to: URL(fileURLWithPath: dir + "/ts-nostart.ts"))

        let g = CLI.writeGraph(Self.copyGraph("ts-nostart.ts", "ours.mp4"), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        // ffmpeg muxes with our movie timescale, so the edit lists compare exactly
        try Self.ffmpeg(["-i", dir + "/ts-nostart.ts", "-c", "copy", "-movie_timescale", "\(try Self.movieTimescale(dir + "/ours.mp4"))",
                         dir + "/theirs.mp4"])

        let ours = try Self.packets(dir + "/ours.mp4", "v:0"), theirs = try Self.packets(dir + "/theirs.mp4", "v:0")
        let read = try Self.packets(dir + "/ts-nostart.ts", "v:0")
        // ffprobe's fields: pts, dts, duration, size, flags
        #expect(ours.first?.split(separator: ",").last?.hasPrefix("K") == true, "the first packet is a key frame: \(ours.first ?? "none")")
        #expect(!theirs.isEmpty && ours.count == theirs.count, "\(ours.count) video packets, ffmpeg's -c copy \(theirs.count)")
        // the same packets as ffmpeg's copy: pts, dts, duration and flags (ffmpeg's keeps the
        // access unit delimiters its TS muxer added, 6 bytes a packet, so sizes differ)
        let timing = { (p: [String]) in p.map { f in f.split(separator: ",", omittingEmptySubsequences: false).enumerated().filter { $0.offset != 3 }.map(\.element).joined(separator: ",") } }
        #expect(timing(ours) == timing(theirs), "first difference at packet \(ours.indices.first { $0 >= theirs.count || timing([ours[$0]]) != timing([theirs[$0]]) } ?? ours.count)")
        let dropped = read.count - ours.count
        #expect(dropped > 0)
        #expect(r.stderr.contains("warning: node 'in' (filesrc): stream 'video': dropped \(dropped) packets before the first key frame at "),
                "\(r.stderr)")
        #expect(r.stderr.contains("(a copy must start on a key frame)"), "\(r.stderr)")
        // all the audio stays, as in ffmpeg's copy
        #expect(try Self.packets(dir + "/ours.mp4", "a:0").count == Self.packets(dir + "/theirs.mp4", "a:0").count)
        // where each track starts (the video after an empty edit) and how long it lasts, as
        // ffprobe reads ffmpeg's copy
        for s in ["v:0", "a:0"] {
            let o = try Self.startAndDuration(dir + "/ours.mp4", s), t = try Self.startAndDuration(dir + "/theirs.mp4", s)
            #expect(o.start == t.start && o.duration == t.duration, "\(s): ours \(o), ffmpeg's \(t)")
        }
        #expect(try Self.startAndDuration(dir + "/ours.mp4", "v:0").start > 0.7)

        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/ours.mp4", "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr.isEmpty, "ffmpeg decoding ours: \(check.stderr)")
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/ours.mp4", "--min-frames", "100"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")

        // A port both copied and decoded: the copy is the same, the decoder still gets every
        // packet and gives ffmpeg's frames (ffmpeg's decoder drops what it cannot decode)
        let d = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "ts-nostart.ts" } },
                     "mux": { "type": "mp4", "params": { "path": "both.mp4" } },
                     "dec": { "type": "decode" },
                     "v": { "type": "framehash", "params": { "path": "v.txt" } } },
          "chains": [["in.video", "mux.video"], ["in.audio", "mux.audio"], ["in.video", "dec", "v"]] }
        """, in: dir, name: "d.json")
        let dr = try CLI.mediagraph("run", "--quiet", d)
        #expect(dr.status == 0, "\(dr.stderr)")
        #expect(try Self.packets(dir + "/both.mp4", "v:0") == ours)
        let decoded = DecodeGraphTests.hashes(dir + "/v.txt")
        let ffmpegDecoded = try DecodeGraphTests.ffmpegHashes(dir + "/ts-nostart.ts", ["-map", "0:v"]).frames
        #expect(decoded.count == 150 && decoded.count == ffmpegDecoded.count && decoded.map(\.md5) == ffmpegDecoded.map(\.md5),
                "decoded \(decoded.count) frames, ffmpeg \(ffmpegDecoded.count)")
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// ffprobe's start time and duration of one stream, in seconds.
    static func startAndDuration(_ file: String, _ stream: String) throws -> (start: Double, duration: Double) {
        let r = try CLI.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "stream=start_time,duration",
                                        "-of", "csv=p=0", file])
        let f = r.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map { Double($0) ?? .nan }
        return (f.first ?? .nan, f.count > 1 ? f[1] : .nan)
    }

    /// An open-GOP HEVC file cut by ffmpeg's `-ss … -c copy`: the pictures after the first key
    /// frame that lead into it have neither pts nor dts. Their dts are counted back from the
    /// first one the file gives, so the copy into MP4 is in decode order (the muxer refused it
    /// before: "sample 5 is out of decode order"), and the copy decodes to the same pictures at
    /// the same times as ffmpeg's decode of the cut file.
    @Test func copyOfACutOpenGOPFileKeepsDecodeOrder() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=6", "-c:v", "libx265",
                         "-x265-params", "log-level=error:open-gop=1:keyint=50:bframes=4", dir + "/og.mkv"])
        try Self.ffmpeg(["-ss", "2.5", "-i", dir + "/og.mkv", "-c", "copy", dir + "/cut.mkv"])
        let read = try Self.packets(dir + "/cut.mkv", "v:0")
        #expect(read.dropFirst().first?.hasPrefix("N/A,N/A") == true, "the cut's second packet has no pts or dts: \(read.prefix(3))")
        let g = CLI.writeGraph(Self.copyGraph("cut.mkv", "ours.mp4", audio: false), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let frames = { (f: String) in
            try CLI.run("ffmpeg", ["-v", "error", "-i", f, "-f", "framemd5", "-"]).out
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        }
        let theirs = try frames(dir + "/cut.mkv"), ours = try frames(dir + "/ours.mp4")
        #expect(theirs.count > 40 && ours.count == theirs.count, "\(ours.count) pictures, ffmpeg decodes \(theirs.count) from the cut")
        // the pictures (md5) and their times (pts in 1/25 s)
        #expect(ours.map { $0.last ?? "" } == theirs.map { $0.last ?? "" })
        #expect(ours.map { $0.count > 2 ? $0[2] : "" } == theirs.map { $0.count > 2 ? $0[2] : "" })
    }
}
