import Foundation
import Testing

/// `filesrc` through the CLI: containers, stream ports, stream copy against ffmpeg's `-c copy`
/// (ffprobe per packet) and Chromium, trim, and bad input with exact messages. Inputs are made
/// by ffmpeg in each test.
@Suite struct FileSourceTests {
    static let av = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"]

    /// ffmpeg with `-v error -y`; fails the test when ffmpeg does.
    @discardableResult
    static func ffmpeg(_ args: [String]) throws -> CLI.Result {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-y"] + args)
        #expect(r.status == 0, "ffmpeg \(args.joined(separator: " ")): \(r.stderr)")
        return r
    }

    /// One line per packet of one stream: pts, dts, duration (seconds), flags, size, as ffprobe reads them.
    static func packets(_ file: String, _ stream: String) throws -> [String] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries",
                                        "packet=pts_time,dts_time,duration_time,flags,size", "-of", "csv=p=0", file])
        return r.out.split(separator: "\n").map(String.init)
    }

    /// The bytes of the first box of type `fourCC` in a file (found by its type and size
    /// fields), nil when there is none.
    static func box(_ fourCC: String, in file: String) throws -> [UInt8]? {
        let d = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let tag = Array(fourCC.utf8)
        guard d.count >= 8 else { return nil }
        for i in 4..<(d.count - 4) where d[i] == tag[0] && d[i + 1] == tag[1] && d[i + 2] == tag[2] && d[i + 3] == tag[3] {
            let size = Int(d[i - 4]) << 24 | Int(d[i - 3]) << 16 | Int(d[i - 2]) << 8 | Int(d[i - 1])
            if size >= 8 && i - 4 + size <= d.count { return Array(d[(i - 4)..<(i - 4 + size)]) }
        }
        return nil
    }

    /// The timescale in a file's `mvhd` (0 when there is none).
    static func movieTimescale(_ file: String) throws -> Int {
        guard let b = try box("mvhd", in: file), b.count >= 32 else { return 0 }
        let at = b[8] == 1 ? 28 : 20
        return b[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    static func copyGraph(_ input: String, _ output: String, video: Bool = true, audio: Bool = true, params: String = "") -> String {
        var chains: [String] = []
        if video { chains.append("[\"in.video\", \"mux.video\"]") }
        if audio { chains.append("[\"in.audio\", \"mux.audio\"]") }
        return """
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)"\(params) } },
                     "mux": { "type": "mp4", "params": { "path": "\(output)" } } },
          "chains": [\(chains.joined(separator: ", "))] }
        """
    }

    /// Copies `input` into MP4 with filesrc and with `ffmpeg -c copy`, then compares every packet
    /// of each stream as ffprobe reads both files, checks ffmpeg decodes ours without a word, and
    /// (when `frames` is given) that Chromium plays it.
    func expectCopyMatchesFFmpeg(_ dir: String, _ input: String, video: Bool = true, audio: Bool = true,
                                 frames: Int?) throws {
        let g = CLI.writeGraph(Self.copyGraph(input, "ours.mp4", video: video, audio: audio), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        var maps: [String] = []
        if video { maps += ["-map", "0:v:0"] }
        if audio { maps += ["-map", "0:a:0"] }
        // ffmpeg muxes with our movie timescale: ours is exact (the tracks' common timescale),
        // ffmpeg's default of 1000 rounds the edit lists to milliseconds (an MP3 copy's edit
        // then ends 0.84 ms earlier than the media after the encoder delay)
        try Self.ffmpeg(["-i", dir + "/" + input] + maps + ["-c", "copy", "-movie_timescale", "\(try Self.movieTimescale(dir + "/ours.mp4"))",
                                                             dir + "/theirs.mp4"])
        for (on, s) in [(video, "v:0"), (audio, "a:0")] where on {
            let ours = try Self.packets(dir + "/ours.mp4", s), theirs = try Self.packets(dir + "/theirs.mp4", s)
            #expect(!ours.isEmpty)
            #expect(ours == theirs, "\(input) \(s): first difference at packet \(ours.indices.first { $0 >= theirs.count || ours[$0] != theirs[$0] } ?? ours.count) of \(ours.count)/\(theirs.count)")
        }
        // the decoder configuration records are the container's own, byte for byte
        // (hvcC is our muxer's own rendering of the parameter sets; x265's carries an SEI too)
        for record in ["avcC", "vpcC"] {
            let o = try Self.box(record, in: dir + "/ours.mp4"), t = try Self.box(record, in: dir + "/theirs.mp4")
            #expect(o == t, "\(input): \(record) differs from ffmpeg's")
        }
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/ours.mp4", "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr.isEmpty, "ffmpeg decoding ours: \(check.stderr)")
        if let frames {
            let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/ours.mp4", "--min-frames", "\(frames)"])
            #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
        }
    }

    // MARK: - stream copy

    @Test func mp4ToMP4CopyIsFFmpegsCopy() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "2", "-c:v", "libx264", "-bf", "3", "-g", "12", "-c:a", "aac", "-shortest", dir + "/in.mp4"])
        try expectCopyMatchesFFmpeg(dir, "in.mp4", frames: 50)
    }

    @Test func matroskaH264AACToMP4CopyIsFFmpegsCopy() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "2", "-c:v", "libx264", "-bf", "2", "-g", "25", "-c:a", "aac", "-shortest", dir + "/in.mkv"])
        try expectCopyMatchesFFmpeg(dir, "in.mkv", frames: 50)
    }

    @Test func fragmentedMP4AndMOVCopy() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "1", "-c:v", "libx264", "-c:a", "aac", "-shortest",
                                   "-movflags", "frag_keyframe+empty_moov", dir + "/in.mp4"])
        try expectCopyMatchesFFmpeg(dir, "in.mp4", frames: 25)
        try Self.ffmpeg(Self.av + ["-t", "1", "-c:v", "libx264", "-c:a", "aac", "-shortest", dir + "/in.mov"])
        try expectCopyMatchesFFmpeg(dir, "in.mov", frames: 25)
    }

    @Test func hevcCopyIsFFmpegsCopy() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "1", "-c:v", "libx265",
                         "-x265-params", "log-level=error:bframes=2", "-tag:v", "hvc1", dir + "/in.mp4"])
        // Chromium here does not play HEVC; ffmpeg decodes it without a word
        try expectCopyMatchesFFmpeg(dir, "in.mp4", audio: false, frames: nil)
    }

    @Test func webmVP9CopyIsFFmpegsCopy() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "1", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus", "-shortest", dir + "/in.webm"])
        // WebM's Opus starts before zero (its pre-skip), so the video starts after the file's
        // start: both muxers show that with an empty edit
        try expectCopyMatchesFFmpeg(dir, "in.webm", audio: false, frames: 25)
    }

    /// Raw Annex B H.264 and HEVC with B-frames: no timestamps in the file, so presentation
    /// order comes from the picture order count; the MP4 shows every frame at the time and in
    /// the order ffmpeg's decoder gives them from the raw stream.
    @Test(arguments: [("h264", "libx264", ["-bf", "3"]), ("hevc", "libx265", ["-x265-params", "log-level=error:bframes=3"])])
    func rawAnnexBCopyIsInPresentationOrder(_ ext: String, _ encoder: String, _ options: [String]) throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "1", "-c:v", encoder] + options + [dir + "/in." + ext])
        let g = CLI.writeGraph(Self.copyGraph("in." + ext, "ours.mp4", audio: false), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let frames = { (file: String) in
            try CLI.run("ffmpeg", ["-v", "error", "-i", file, "-f", "framemd5", "-"]).out.split(separator: "\n").filter { !$0.hasPrefix("#") }
        }
        let ours = try frames(dir + "/ours.mp4"), theirs = try frames(dir + "/in." + ext)
        #expect(ours.count == 25 && ours == theirs)
        let trimmed = CLI.writeGraph(Self.copyGraph("in." + ext, "cut.mp4", audio: false, params: ", \"start\": 0.5"), in: dir, name: "t.json")
        let t = try CLI.mediagraph("run", "--quiet", trimmed)
        #expect(t.status == 2)
        #expect(t.stderr.contains("is a raw \(ext) stream without timestamps to trim by"), "\(t.stderr)")
    }

    /// WebM with VP9 and Opus, and MP3, copied into MP4. Their last packets end in padding the
    /// container marks (Matroska's DiscardPadding, the LAME header's): ffmpeg's copy keeps the
    /// packet's whole duration, and so does ours.
    @Test func opusAndMP3CopyIsFFmpegsCopy() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "1", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus", "-shortest", dir + "/in.webm"])
        try Self.ffmpeg(["-f", "lavfi", "-i", "sine=sample_rate=44100", "-t", "1", "-c:a", "libmp3lame", dir + "/in.mp3"])
        try expectCopyMatchesFFmpeg(dir, "in.webm", frames: 25)
        try expectCopyMatchesFFmpeg(dir, "in.mp3", video: false, frames: nil)
    }

    /// MPEG-TS: H.264 in Annex B and AAC in ADTS; the ADTS headers come off and the
    /// AudioSpecificConfig is built from them, so the MP4 plays and decodes to the same samples.
    @Test func transportStreamToMP4() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "1", "-c:v", "libx264", "-c:a", "aac", "-shortest", dir + "/in.ts"])
        let g = CLI.writeGraph(Self.copyGraph("in.ts", "ours.mp4"), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/ours.mp4", "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
        let sizes = { (f: String, s: String) in try Self.packets(f, s).map { $0.split(separator: ",").last ?? "" } }
        // same payloads as ffmpeg's own TS → MP4 copy (which strips ADTS with aac_adtstoasc)
        try Self.ffmpeg(["-i", dir + "/in.ts", "-c", "copy", dir + "/theirs.mp4"])
        #expect(try sizes(dir + "/ours.mp4", "a:0") == sizes(dir + "/theirs.mp4", "a:0"))
        #expect(try sizes(dir + "/ours.mp4", "v:0") == sizes(dir + "/theirs.mp4", "v:0"))
        let audio = { (f: String) in try CLI.run("ffmpeg", ["-v", "error", "-i", f, "-map", "0:a", "-f", "md5", "-"]).out }
        #expect(try audio(dir + "/ours.mp4") == audio(dir + "/theirs.mp4"))
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/ours.mp4", "--min-frames", "25"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
    }

    /// Stream-copy trim: the copy starts at the key frame at or before `start`, the lead-in is
    /// hidden by the edit list, so a player (ffmpeg here) shows exactly the frames of ffmpeg's
    /// accurate seek: the same pictures at the same times.
    @Test func copyTrimStartsAtTheRequestedTime() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "4", "-c:v", "libx264", "-g", "25", "-bf", "2", "-c:a", "aac", "-shortest", dir + "/in.mp4"])
        let g = CLI.writeGraph(Self.copyGraph("in.mp4", "ours.mp4", params: ", \"start\": \"00:00:01.48\", \"duration\": 1"), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        // the copy holds the whole GOP from the key frame at 1.0 s
        let first = try Self.packets(dir + "/ours.mp4", "v:0").first ?? ""
        #expect(first.hasPrefix("-0.480000,") && first.hasSuffix(",KD"), "key frame at 1.0 s, 0.48 s of lead-in hidden: \(first)")
        let frames = { (args: [String]) in
            try CLI.run("ffmpeg", ["-v", "error"] + args + ["-map", "0:v", "-f", "framemd5", "-"]).out
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        }
        let ours = try frames(["-i", dir + "/ours.mp4"])
        let theirs = try frames(["-i", dir + "/in.mp4", "-ss", "1.48", "-t", "1"])
        #expect(theirs.count == 25)
        #expect(Array(ours.prefix(25)) == theirs, "the first picture is the one at 1.48 s, then every frame in order")
        // The copy ends after the last packet before the end in decode order; a P-frame at the
        // end that earlier B-frames need may follow, and the track ends with its last sample.
        #expect(ours.count <= 26, "\(ours.count) frames")
    }

    // MARK: - decoding

    /// The issue's first example: a file's video decoded (inserted decoder), inverted, encoded
    /// and muxed, its audio copied. Every frame keeps its time; the pictures are ffmpeg's negate
    /// of the same frames (PSNR against ffmpeg's own decode + negate); the audio packets are the
    /// file's; Chromium plays the result.
    @Test func decodeInvertEncodeWithAudioCopied() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "2", "-c:v", "libx264", "-bf", "3", "-g", "12", "-c:a", "aac", "-shortest", dir + "/in.mp4"])
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp4" } }, "inv": { "type": "invert" },
                     "enc": { "type": "h264", "params": { "preset": "veryfast", "crf": 18 } },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["in.video", "inv", "enc", "mux.video"], ["in.audio", "mux.audio"]] }
        """, in: dir)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.out.contains("note: inserted 'auto_decode_in_video' (decode): h264 320x240 → yuv420p after 'in.video'"), "\(v.out)")
        #expect(v.out.contains("note: 'in.audio' → 'mux.audio': aac packets copied, not decoded"), "\(v.out)")
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let out = dir + "/out.mp4", input = dir + "/in.mp4"
        let times = { (f: String) in
            try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time", "-of", "csv=p=0", f]).out
        }
        #expect(try times(out) == times(input), "every picture at its time")
        #expect(try Self.packets(out, "a:0") == Self.packets(input, "a:0"), "audio copied packet for packet")
        let psnr = try CLI.run("ffmpeg", ["-v", "info", "-i", out, "-i", input, "-lavfi", "[1:v]negate[r];[0:v][r]psnr", "-f", "null", "-"]).stderr
        let average = psnr.range(of: "average:").map { Double(psnr[$0.upperBound...].prefix { $0 != " " }) ?? 0 } ?? 0
        #expect(average > 38, "PSNR against ffmpeg's negate: \(average) dB")
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [out, "--min-frames", "50"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
    }

    /// Decoded through filesrc, every container gives ffmpeg's frames at ffmpeg's times
    /// (`framemd5` in the stream's time base): rebasing, predicted decode times (Matroska) and
    /// B-frame delay agree with ffmpeg's reading of the file.
    @Test(arguments: [
        ("mp4", ["-c:v", "libx264", "-bf", "3"]),
        ("mkv", ["-c:v", "libx264", "-bf", "2"]),
        ("webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime"]),
        ("flv", ["-c:v", "libx264"]),
        ("mov", ["-c:v", "libx264", "-movflags", "frag_keyframe+empty_moov"]),
    ])
    func decodedFramesAreFFmpegsFrames(_ ext: String, _ codec: [String]) throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "1", "-shortest"] + codec + ["-c:a", ext == "webm" ? "libopus" : "aac", dir + "/in." + ext])
        // convert (to the same format) takes raw video, so the stream is decoded
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.\(ext)" } },
                     "c": { "type": "convert", "params": { "format": "yuv420p" } },
                     "h": { "type": "framehash", "params": { "path": "h.txt" } } },
          "chains": [["in.video", "c", "h"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = ((try? String(contentsOfFile: dir + "/h.txt", encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { l -> String in let f = l.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }; return "\(f[1]) \(f[3])" }
        let theirs = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in." + ext, "-map", "0:v", "-fps_mode", "passthrough",
                                            "-enc_time_base", "-1", "-f", "framemd5", "-"]).out
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { l -> String in let f = l.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }; return "\(f[2]) \(f[5])" }
        #expect(ours.count == 25 && ours == theirs, "\(ext): \(ours.prefix(3)) vs \(theirs.prefix(3))")
    }

    /// Frame-accurate trim when decoding: 20 random starts on a long-GOP file give the first
    /// picture of ffmpeg's accurate seek (`-ss` after `-i`) and then exactly the pictures whose
    /// pts lie in [start, start + duration) — ffmpeg's trim filter, byte for byte (ffmpeg's own
    /// `-t` counts on its rounded output clock and may give one frame less) — and only the GOP
    /// before `start` is decoded (packets into the decoder, from --stats).
    @Test func decodedTrimIsFrameAccurate() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "10", "-c:v", "libx264", "-g", "50",
                         "-bf", "2", "-pix_fmt", "yuv420p", dir + "/in.mp4"])
        var seed: UInt64 = 20261123
        for _ in 0..<20 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let start = Double((seed >> 40) % 9_000) / 1000 + 0.01   // 0.01 … 9.01 s
            let text = String(format: "%.3f", start)
            let g = CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp4", "start": \(text), "duration": 0.4 } },
                         "out": { "type": "rawsink", "params": { "path": "ours.yuv" } } },
              "chains": [["in.video", "out"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--stats", g)
            #expect(r.status == 0, "\(r.stderr)")
            let ours = FileManager.default.contents(atPath: dir + "/ours.yuv") ?? Data()
            let first = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.mp4", "-ss", text, "-frames:v", "1", "-f", "rawvideo", "-"]).stdout
            let theirs = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.mp4", "-vf", "trim=start=\(text):duration=0.4",
                                                "-fps_mode", "passthrough", "-f", "rawvideo", "-"]).stdout
            #expect(first.count == 28800 && ours.prefix(28800) == first, "start \(text): the first picture")
            #expect(ours.count == 10 * 28800 && ours == theirs, "start \(text): \(ours.count / 28800) frames, ffmpeg \(theirs.count / 28800)")
            // packets decoded: the GOP from the key frame before start (at most 50), the 10 frames
            // and the B-frame references around the end
            let row = r.stderr.split(separator: "\n").first { $0.hasPrefix("auto_decode_in_video") } ?? ""
            let packetsIn = Int(row.split(separator: " ").dropFirst(3).first ?? "") ?? -1
            let lead = Int((start * 25).rounded(.up)) % 50
            #expect(packetsIn >= 10 + lead && packetsIn <= 10 + lead + 3, "start \(text): \(packetsIn) packets decoded, lead-in \(lead)")
        }
    }

    /// Audio trimmed to the sample: `start` and `duration` give exactly as many samples as
    /// ffmpeg's accurate seek decodes (duration × rate), starting at time zero.
    @Test func decodedAudioTrimIsSampleExact() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "3", "-c:a", "aac", dir + "/in.mp4"])
        // resample to interleaved float: something that takes raw audio, so the stream is decoded
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp4", "start": 1.2345, "duration": 0.5 } },
                     "f": { "type": "resample", "params": { "format": "f32" } },
                     "h": { "type": "framehash", "params": { "path": "h.txt" } } },
          "chains": [["in.audio", "f", "h"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = ((try? String(contentsOfFile: dir + "/h.txt", encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let samples = rows.reduce(0) { $0 + (Int($1[2]) ?? 0) } / 4
        let theirs = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.mp4", "-ss", "1.2345", "-t", "0.5", "-f", "f32le", "-"]).stdout.count / 4
        #expect(samples == 24000 && theirs == 24000, "ours \(samples), ffmpeg \(theirs)")
        #expect(rows.first?[1] == "0", "the first sample is at time zero")
    }

    // MARK: - ports

    @Test func twoAudioTracksAreAudioAndAudio1AlsoByIndexAndLanguage() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-f", "lavfi", "-i", "sine=frequency=220:sample_rate=44100", "-t", "1",
                                   "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-c:a", "aac",
                                   "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre", dir + "/in.mp4"])
        for (reference, port, rate) in [("in.audio1", "audio1", "44100"), ("in.stream2", "audio1", "44100"),
                                        ("in.audio_fre", "audio1", "44100"), ("in.audio_eng", "audio", "48000"),
                                        ("in.audio", "audio", "48000")] {
            let g = CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp4" } }, "out": { "type": "nullsink" } },
              "chains": [["\(reference)", "out"]] }
            """, in: dir)
            let r = try CLI.mediagraph("validate", g)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.out.contains("  in.\(port) -> out.in: audio/aac \(rate)Hz 1ch"), "\(reference): \(r.out)")
        }
    }

    @Test func validateShowsWhichStreamsAreCopied() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "1", "-c:v", "libx264", "-c:a", "aac", "-shortest", dir + "/in.mp4"])
        let g = CLI.writeGraph(Self.copyGraph("in.mp4", "out.mp4"), in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.contains("note: 'in.video' → 'mux.video': h264 packets copied, not decoded"), "\(r.out)")
        #expect(r.out.contains("note: 'in.audio' → 'mux.audio': aac packets copied, not decoded"), "\(r.out)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"), "validate writes nothing")
    }

    /// A stream copy's muxer runs on the source's thread (no hand-off per packet); a muxer that
    /// also takes an encoder's output, and the decoder in front of that encoder, keep theirs.
    @Test func copyMuxerRunsOnTheSourceThread() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "1", "-c:v", "libx264", "-c:a", "aac", "-shortest", dir + "/in.mp4"])
        let copy = try CLI.mediagraph("validate", CLI.writeGraph(Self.copyGraph("in.mp4", "out.mp4"), in: dir))
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.out.contains("  in (filesrc) — own thread\n") && copy.out.contains("  mux (mp4) — inline\n"), "\(copy.out)")
        let transcode = try CLI.mediagraph("validate", CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp4" } },
                         "inv": { "type": "invert" }, "enc": { "type": "h264" },
                         "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
              "chains": [["in.video", "inv", "enc", "mux.video"], ["in.audio", "mux.audio"]] }
            """, in: dir))
        #expect(transcode.status == 0, "\(transcode.stderr)")
        #expect(transcode.out.contains("  mux (mp4) — own thread\n") && transcode.out.contains("[inserted] — own thread\n"), "\(transcode.out)")
        // and the inline copy still writes ffmpeg's packets
        try expectCopyMatchesFFmpeg(dir, "in.mp4", frames: nil)
    }

    /// Every container the issue names opens and offers the streams ffprobe sees.
    @Test(arguments: [
        ("mp4", ["-c:v", "libx264", "-c:a", "aac"], "h264,aac"),
        ("mov", ["-c:v", "libx264", "-c:a", "aac"], "h264,aac"),
        ("mkv", ["-c:v", "libx264", "-c:a", "ac3"], "h264,ac3"),
        ("webm", ["-c:v", "libvpx", "-deadline", "realtime", "-c:a", "libvorbis"], "vp8,vorbis"),
        ("ts", ["-c:v", "mpeg2video", "-c:a", "mp2"], "mpeg2video,mp2"),
        ("avi", ["-c:v", "mjpeg", "-c:a", "pcm_s16le"], "mjpeg,pcm_s16le"),
        ("flv", ["-c:v", "libx264", "-c:a", "aac"], "h264,aac"),
        ("ogg", ["-vn", "-c:a", "libopus"], "opus"),
        ("mp3", ["-vn", "-c:a", "libmp3lame"], "mp3"),
        ("wav", ["-vn"], "pcm_s16le"),
        ("aac", ["-vn", "-c:a", "aac", "-f", "adts"], "aac"),
        ("h264", ["-an", "-c:v", "libx264"], "h264"),
        ("ivf", ["-an", "-c:v", "libvpx-vp9", "-deadline", "realtime"], "vp9"),
        ("y4m", ["-an"], "rawvideo"),
    ])
    func containerOpens(_ ext: String, _ codecs: [String], _ expected: String) throws {
        let dir = CLI.tempDir()
        let input = dir + "/in." + ext
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=sample_rate=44100",
                         "-t", "0.5"] + codecs + [input])
        let r = try CLI.mediagraph("probe", "--json", input)
        #expect(r.status == 0, "\(r.stderr)")
        let j = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let streams = j?["streams"] as? [[String: Any]] ?? []
        #expect(streams.compactMap { $0["codec"] as? String }.joined(separator: ",") == expected)
        let ffprobe = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "json", input])
        let ffStreams = ((try JSONSerialization.jsonObject(with: ffprobe.stdout) as? [String: Any])?["streams"] as? [[String: Any]]) ?? []
        #expect(ffStreams.compactMap { $0["codec_name"] as? String }.joined(separator: ",") == expected)
        // each offered stream reaches a sink: packets flow from every container
        let ports = streams.compactMap { $0["port"] as? String }
        #expect(ports.count == streams.count)
        let sinks = ports.map { "\"\($0)\": { \"type\": \"framehash\", \"params\": { \"path\": \"\($0).txt\" } }" }.joined(separator: ", ")
        let chains = ports.map { "[\"in.\($0)\", \"\($0)\"]" }.joined(separator: ", ")
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.\(ext)" } }, \(sinks) }, "chains": [\(chains)] }
        """, in: dir)
        let run = try CLI.mediagraph("run", "--quiet", g)
        #expect(run.status == 0, "\(run.stderr)")
        for (k, port) in ports.enumerated() {
            let lines = (try? String(contentsOfFile: dir + "/\(port).txt", encoding: .utf8))?.split(separator: "\n").filter { !$0.hasPrefix("#") } ?? []
            let count = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "\(k)", "-show_entries", "packet=size", "-of", "csv=p=0", input])
                .out.split(separator: "\n").count
            #expect(lines.count == count, "\(ext) \(port): \(lines.count) packets, ffprobe reads \(count)")
        }
    }

    // MARK: - bad input

    struct BadCase: CustomTestStringConvertible, Sendable {
        var name: String
        var params: String
        var port: String
        var message: String
        var testDescription: String { name }
    }

    static let badCases: [BadCase] = [
        BadCase(name: "missing file", params: "\"path\": \"nope.mp4\"", port: "video",
                message: "error: node 'in' (filesrc): cannot open 'DIR/nope.mp4': No such file or directory"),
        BadCase(name: "not media", params: "\"path\": \"g.json\"", port: "video",
                message: "error: node 'in' (filesrc): 'DIR/g.json' is not a media file libavformat recognises (Invalid data found when processing input)"),
        BadCase(name: "a directory", params: "\"path\": \".\"", port: "video",
                message: "error: node 'in' (filesrc): cannot open 'DIR/.': it is a directory"),
        BadCase(name: "unknown stream", params: "\"path\": \"in.mp4\"", port: "video3",
                message: "error: node 'in' (filesrc): 'DIR/in.mp4' has no stream 'video3'; it has: video (stream 0: h264 320x240), audio (stream 1: aac 48000Hz 1ch)"),
        BadCase(name: "stream index that does not exist", params: "\"path\": \"in.mp4\"", port: "stream7",
                message: "error: node 'in' (filesrc): 'DIR/in.mp4' has no stream 7 (streams 0…1); it has: video (stream 0: h264 320x240), audio (stream 1: aac 48000Hz 1ch)"),
        BadCase(name: "start beyond the end", params: "\"path\": \"in.mp4\", \"start\": \"00:01:00\"", port: "video",
                message: "error: node 'in' (filesrc): param 'start': 1:00.000 is beyond the end of 'DIR/in.mp4' (it lasts 1.000 s)"),
        BadCase(name: "frame beyond the end", params: "\"path\": \"in.mp4\", \"start\": \"frame:25\"", port: "video",
                message: "error: node 'in' (filesrc): param 'start': frame 25 is beyond the end of 'DIR/in.mp4' (its first video stream has 25 frames, 0…24)"),
        BadCase(name: "end before start", params: "\"path\": \"in.mp4\", \"start\": 0.5, \"end\": \"0.2\"", port: "video",
                message: "error: node 'in' (filesrc): param 'end': 0.200 s is not after start 0.500 s"),
        BadCase(name: "end and duration", params: "\"path\": \"in.mp4\", \"end\": 0.5, \"duration\": 0.2", port: "video",
                message: "error: node 'in' (filesrc): params 'end' and 'duration' both given; give one (end = start + duration)"),
        BadCase(name: "not a time", params: "\"path\": \"in.mp4\", \"start\": \"1:75\"", port: "video",
                message: "error: node 'in' param 'start': expected time (seconds, \"hh:mm:ss.ms\", \"mm:ss.ms\" or \"frame:N\"), found \"1:75\""),
        BadCase(name: "negative time", params: "\"path\": \"in.mp4\", \"start\": -1", port: "video",
                message: "error: node 'in' param 'start': expected time (seconds, \"hh:mm:ss.ms\", \"mm:ss.ms\" or \"frame:N\"), found -1"),
    ]

    @Test(arguments: badCases)
    func badInputIsAValidationError(_ c: BadCase) throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "1", "-ac", "1", "-c:v", "libx264", "-c:a", "aac", "-shortest", dir + "/in.mp4"])
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { \(c.params) } }, "out": { "type": "nullsink" } },
          "chains": [["in.\(c.port)", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 2, "\(c.name): \(r.stderr)")
        let expected = c.message.replacingOccurrences(of: "DIR", with: dir)
        #expect(r.stderr.contains(expected), "\(c.name): \(r.stderr)")
    }

    /// Packets of a codec the MP4 sink does not hold (MPEG-4 Part 2 from an AVI): the refusal says
    /// what to do, and doing it (an encoder in between) works.
    @Test func copyOfACodecTheMuxerCannotHoldSaysToEncode() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "0.4", "-c:v", "mpeg4", "-c:a", "aac", "-shortest", dir + "/in.avi"])
        let g = CLI.writeGraph(Self.copyGraph("in.avi", "out.mp4", audio: false), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("error: edge 'in.video' → 'mux.video': formats cannot meet: 'in' produces video/mpeg4 320x240 @25/1"), "\(r.stderr)")
        #expect(r.stderr.contains(", input 'video' of 'mux' (mp4) accepts video/h264|hevc|vp8|vp9|prores; packets are not re-encoded on their own: put an encoder of one of those codecs in between (`mediagraph nodes` lists them)"), "\(r.stderr)")
        let encoded = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.avi" } }, "enc": { "type": "h264", "params": { "preset": "ultrafast" } },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["in.video", "enc", "mux.video"]] }
        """, in: dir, name: "encoded.json")
        let e = try CLI.mediagraph("run", "--quiet", encoded)
        #expect(e.status == 0, "\(e.stderr)")
        let codec = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,nb_frames", "-of", "csv=p=0", dir + "/out.mp4"])
        #expect(codec.out.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,10", "\(codec.out)")
    }

    /// A file that ends inside its media data: the run stops with the stream and the time, and
    /// no output is left at the path; with errors=skip it finishes and warns with a count.
    @Test func truncatedFileMidRun() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "2", "-c:v", "libx264", "-c:a", "aac", "-shortest", "-movflags", "faststart", dir + "/whole.mp4"])
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.mp4"))
        try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: dir + "/in.mp4"))
        let g = CLI.writeGraph(Self.copyGraph("in.mp4", "out.mp4"), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("error: node 'in' (filesrc): '\(dir)/in.mp4': stream '"), "\(r.stderr)")
        #expect(r.stderr.contains(" s: the packet is damaged"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"), "nothing half-written at the output path")

        let skip = CLI.writeGraph(Self.copyGraph("in.mp4", "out.mp4", params: ", \"errors\": \"skip\""), in: dir, name: "skip.json")
        let s = try CLI.mediagraph("run", "--quiet", skip)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(s.stderr.contains("warning: node 'in' (filesrc): skipped 1 damaged packet of '"), "\(s.stderr)")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/out.mp4", "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
    }

    /// Files with bytes overwritten at random places (a fixed seed per file): every run ends with
    /// a message and status 0, 1 or 2 — no crash, no hang — whatever libavformat makes of them.
    @Test(arguments: ["mp4", "mkv", "ts", "flv", "ogg"])
    func damagedFilesNeverCrashOrHang(_ ext: String) throws {
        let dir = CLI.tempDir()
        let audio = ext == "ogg" ? ["-vn", "-c:a", "libopus"] : ["-c:v", "libx264", "-c:a", "aac"]
        try Self.ffmpeg(Self.av + ["-t", "1", "-shortest"] + audio + [dir + "/whole." + ext])
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/whole." + ext)))
        var seed: UInt64 = 0x9E3779B97F4A7C15 &* UInt64(ext.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xFFFF)
        func next() -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int(seed >> 33) }
        for variant in 0..<6 {
            var bytes = whole
            // damage past the first 64 bytes, so most variants still open and fail while running
            for _ in 0..<(4 + variant * 8) { bytes[64 + next() % (bytes.count - 64)] = UInt8(truncatingIfNeeded: next()) }
            if variant == 5 { bytes = Array(bytes.prefix(bytes.count / 3)) }
            try Data(bytes).write(to: URL(fileURLWithPath: dir + "/in." + ext))
            for policy in ["stop", "skip"] {
                let g = CLI.writeGraph("""
                { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.\(ext)", "errors": "\(policy)" } },
                             "a": { "type": "nullsink" } },
                  "chains": [["in.stream0", "a"]] }
                """, in: dir)
                let r = try CLI.run("timeout", ["60", CLI.binary, "run", "--quiet", g], cwd: CLI.root)
                #expect([0, 1, 2].contains(r.status), "\(ext) variant \(variant) errors=\(policy): status \(r.status) \(r.stderr)")
                if r.status != 0 { #expect(r.stderr.contains("error: "), "\(r.stderr)") }
            }
        }
    }

    /// A trim that ends before a stream's first packet (an MKV whose video starts 0.2 s after
    /// its audio): the sink's "never received a sample" comes after a warning that names the trim
    /// and the stream's first time, as ffprobe reads it.
    @Test func trimEndingBeforeAStreamBeginsSaysSo() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(["-itsoffset", "0.2", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-f", "lavfi", "-i", "sine=sample_rate=48000",
                         "-t", "1", "-c:v", "libx264", "-c:a", "aac", dir + "/in.mkv"])
        let starts = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=start_time", "-of", "csv=p=0", dir + "/in.mkv"])
            .out.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(starts.count == 2 && starts[1] == 0, "\(starts)")
        let videoStart = String(format: "%.3f", starts.first ?? 0)
        let g = CLI.writeGraph(Self.copyGraph("in.mkv", "out.mp4", audio: false, params: ", \"end\": 0.2"), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("warning: node 'in' (filesrc): stream 'video' of '\(dir)/in.mkv' gave nothing: its first packet is at \(videoStart) s, not before the trim's end at 0.200 s; move 'end' or 'duration' past it\nerror: node 'mux' (mp4): mp4 muxer: track 1 (video h264) never received a sample"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"))

        let counted = CLI.writeGraph(Self.copyGraph("in.mkv", "out.mp4", audio: false, params: ", \"start\": 0.1, \"duration\": 0.05"), in: dir, name: "start.json")
        let c = try CLI.mediagraph("run", "--quiet", counted)
        #expect(c.status == 1, "\(c.stderr)")
        let late = String(format: "%.3f", (starts.first ?? 0) - 0.1)
        #expect(c.stderr.contains("gave nothing: its first packet is at \(late) s, not before the trim's end at 0.050 s (both counted from 'start' 0.100 s)"), "\(c.stderr)")
    }

    @Test func truncatedMatroskaNamesWhereItEnds() throws {
        let dir = CLI.tempDir()
        try Self.ffmpeg(Self.av + ["-t", "2", "-c:v", "libx264", "-c:a", "aac", "-shortest", dir + "/whole.mkv"])
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.mkv"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: dir + "/in.mkv"))
        let g = CLI.writeGraph(Self.copyGraph("in.mkv", "out.mp4"), in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("error: node 'in' (filesrc): '\(dir)/in.mkv' is truncated or damaged: it ends after video at "), "\(r.stderr)")
        #expect(r.stderr.contains("File ended prematurely; with 'errors' set to 'skip', what it holds is kept and the run goes on"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"))
        // as the message says: what the file holds is copied, as many packets as ffprobe counts
        let skip = try CLI.mediagraph("run", "--quiet", g, "--set", "in.errors=skip")
        #expect(skip.status == 0, "\(skip.stderr)")
        func videoPackets(_ f: String) throws -> String {
            try CLI.run("ffprobe", ["-v", "quiet", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets",
                                    "-of", "csv=p=0", f]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let ours = try videoPackets(dir + "/out.mp4"), theirs = try videoPackets(dir + "/in.mkv")
        #expect(ours == theirs && !theirs.isEmpty, "copied \(ours) video packets; ffprobe reads \(theirs) in the cut file")
    }
}
