#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The `matroska` sink (WebM for a .webm path) against independent readers: ffprobe/ffmpeg
/// (libavformat's Matroska demuxer), mkvinfo (MKVToolNix's libebml/libmatroska) and Chromium.
/// Inputs are made by ffmpeg or our encoders inside the tests.
@Suite struct MatroskaSinkTests {
    static func ffprobe(_ args: [String]) throws -> String {
        let r = try CLI.run("ffprobe", ["-v", "error"] + args)
        #expect(r.status == 0, "ffprobe \(args): \(r.stderr)")
        return r.out
    }

    /// `ffmpeg … -f framemd5 -` lines (stream, dts, pts, duration, size, hash), comments dropped.
    static func framemd5(_ args: [String]) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-v", "error"] + args + ["-f", "framemd5", "-"])
        #expect(r.status == 0, "ffmpeg \(args): \(r.stderr)")
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0) }
    }

    /// Fields of framemd5 lines, trimmed: [stream, dts, pts, duration, size, hash].
    static func fields(_ lines: [String]) -> [[String]] {
        lines.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// Each packet of one stream as ffprobe reads it (no start-time shift): pts, dts, duration,
    /// size, MD5 of the bytes.
    static func packets(_ file: String, stream: String) throws -> [[String]] {
        let text = try ffprobe(["-select_streams", stream, "-show_data_hash", "md5", "-show_entries", "packet=pts,dts,duration,size,data_hash",
                                "-of", "csv=p=0", file])
        // a packet with side data (the end trim) comes out over two lines, the side data between
        var rows: [String] = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix(","), !rows.isEmpty { rows[rows.count - 1] += line } else { rows.append(line) }
        }
        return rows.map { row in
            let f = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Array(f.prefix(4)) + [f.last ?? ""]
        }
    }

    static func mkvinfo(_ file: String, verbose: Bool = false) throws -> String {
        let r = try CLI.run("mkvinfo", (verbose ? ["-v", "-v"] : []) + [file])
        #expect(r.status == 0, "mkvinfo: \(r.out) \(r.stderr)")
        return r.out
    }

    /// testsrc + sine through our vp9 + opus into `name` (an IVF of the same video packets beside
    /// it, written by the ivfsink from the same encoder).
    static func encodeVP9Opus(in dir: String, name: String = "ours.webm", frames: Int = 150, keyint: Int? = nil) throws -> String {
        let key = keyint.map { #", "keyint": \#($0)"# } ?? ""
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": \(frames) } },
                     "enc": { "type": "vp9", "params": { "deadline": "realtime", "cpu-used": 8\(key) } },
                     "tone": { "type": "sine", "params": { "frequency": 440, "seconds": \(Double(frames) / 30), "channels": 2 } },
                     "aenc": { "type": "opus" },
                     "ivf": { "type": "ivfsink", "params": { "path": "ours.ivf" } },
                     "mux": { "type": "matroska", "params": { "path": "\(name)" } } },
          "chains": [["src", "enc", "mux.video"], ["enc", "ivf"], ["tone", "aenc", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        return dir + "/" + name
    }

    /// VP9 + Opus from our encoders: a WebM that ffprobe, mkvinfo and Chromium read, with every
    /// video packet the encoder made (against the IVF of the same packets) and the decoded
    /// pictures of the IVF; duration within a frame of ffmpeg's own WebM of the same input.
    @Test func vp9OpusWebMHoldsEveryPacket() throws {
        let dir = CLI.tempDir()
        let webm = try Self.encodeVP9Opus(in: dir)
        let format = try Self.ffprobe(["-show_entries", "format=format_name,duration", "-of", "default=noprint_wrappers=1", webm])
        #expect(format.contains("format_name=matroska,webm"), "\(format)")
        let streams = try Self.ffprobe(["-count_packets", "-show_entries", "stream=codec_name,width,height,channels,sample_rate,nb_read_packets",
                                        "-of", "csv=p=0", webm])
        #expect(streams == "vp9,320,240,150\nopus,48000,2,251\n", "\(streams)")
        let info = try Self.mkvinfo(webm)
        for line in ["Document type: webm", "Document type version: 4", "Document type read version: 2",
                     "Codec-inherent delay: 00:00:00.006500000", "Seek pre-roll: 00:00:00.080000000",
                     "Default duration: 00:00:00.033333333"] {
            #expect(info.contains(line), "\(line): \(info)")
        }
        // every video packet, byte for byte and in order, and the same pictures
        let ours = Self.fields(try Self.framemd5(["-i", webm, "-map", "0:v", "-c", "copy"])).map { $0[4] + " " + $0[5] }
        let ivf = Self.fields(try Self.framemd5(["-i", dir + "/ours.ivf", "-c", "copy"])).map { $0[4] + " " + $0[5] }
        #expect(ours.count == 150 && ours == ivf)
        let pictures = Self.fields(try Self.framemd5(["-i", webm, "-map", "0:v"])).map { $0[5] }
        let ivfPictures = Self.fields(try Self.framemd5(["-i", dir + "/ours.ivf"])).map { $0[5] }
        #expect(pictures.count == 150 && pictures == ivfPictures)
        // presentation times: frame k at k/30 s in milliseconds; the first Opus packet at -6.5 ms
        let videoPTS = try Self.packets(webm, stream: "v").map { $0[0] }
        let expectedPTS: [String] = (0..<150).map { (k: Int) -> String in String((k * 2000 + 30) / 60) }
        #expect(videoPTS == expectedPTS, "\(videoPTS.prefix(5))")
        #expect(try Self.packets(webm, stream: "a").first?.first == "-7")
        // duration: ffmpeg's WebM of the same picture and tone
        let ff = dir + "/ffmpeg.webm"
        let e = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=f=440:d=5",
                                       "-frames:v", "150", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus", "-y", ff])
        #expect(e.status == 0, "\(e.stderr)")
        func duration(_ f: String) throws -> Double {
            Double(try Self.ffprobe(["-show_entries", "format=duration", "-of", "csv=p=0", f]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let (mine, theirs) = (try duration(webm), try duration(ff))
        #expect(abs(mine - theirs) <= 1.0 / 30, "ours \(mine) s, ffmpeg's \(theirs) s")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", webm, "-f", "null", "-"])
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        // a real browser plays it to the end (browser-play serves it as video/mp4; Chromium sniffs)
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [webm, "--min-frames", "150"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
        #expect(play.out.contains("\"totalVideoFrames\": 150"), "\(play.out)")
    }

    /// A stream copy of ffmpeg's WebM (libvpx-vp9 + libopus): every packet's bytes and times as
    /// ffmpeg's own `-c copy` reads them, the key frames and the end trim, and the Opus header and
    /// codec delay as ffmpeg wrote them.
    @Test func streamCopyOfFFmpegWebMKeepsEveryPacket() throws {
        let dir = CLI.tempDir()
        let src = dir + "/src.webm"
        let e = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=6", "-f", "lavfi",
                                       "-i", "sine=f=440:d=6", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "50",
                                       "-c:a", "libopus", "-y", src])
        #expect(e.status == 0, "\(e.stderr)")
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "src.webm" } },
                     "mux": { "type": "matroska", "params": { "path": "copy.webm" } } },
          "chains": [["in.video", "mux.video"], ["in.audio", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let copy = dir + "/copy.webm"
        // ffmpeg's stream copy: pts, dts, duration, size, MD5 per stream (milliseconds)
        let reference = Self.fields(try Self.framemd5(["-i", src, "-c", "copy"]))
        for (index, stream) in [(0, "v"), (1, "a")] {
            let theirs = reference.filter { $0[0] == "\(index)" }.map { [$0[2], $0[1], $0[3], $0[4], "MD5:" + $0[5]] }
            let mine = try Self.packets(copy, stream: stream)
            #expect(theirs.count > 100 && mine == theirs, "stream \(stream): \(mine.prefix(3)) vs \(theirs.prefix(3))")
        }
        // key frames and the last Opus packet's end trim, packet by packet
        func flags(_ f: String) throws -> [String] {
            try Self.ffprobe(["-show_entries", "packet=stream_index,size,flags:packet_side_data", "-of", "compact", f])
                .split(separator: "\n").map(String.init)
        }
        let sourceFlags = try flags(src)
        #expect(try flags(copy) == sourceFlags)
        #expect(sourceFlags.contains { $0.contains("Skip Samples") })
        // OpusHead and the codec delay, as ffmpeg wrote them
        func opus(_ f: String) throws -> String {
            try Self.ffprobe(["-select_streams", "a", "-show_streams", "-show_data", "-show_entries", "stream=extradata,codec_name", f])
                .split(separator: "\n").filter { $0.hasPrefix("0000") || $0.hasPrefix("extradata") || $0.hasPrefix("codec_name") }
                .joined(separator: "\n")
        }
        #expect(try opus(copy).contains("OpusHead"))
        #expect(try opus(copy) == opus(src))
        let delay = { (s: String) in s.split(separator: "\n").filter { $0.contains("Codec-inherent delay") || $0.contains("Seek pre-roll") } }
        #expect(delay(try Self.mkvinfo(copy)) == delay(try Self.mkvinfo(src)))
        #expect(delay(try Self.mkvinfo(copy)).count == 2)
        #expect(try Self.mkvinfo(copy).contains("Document type: webm"))
    }

    /// H.264 with B-frames + AAC into .mkv beside an MP4 of the same packets: the same pictures,
    /// presentation times within the millisecond once moved by the AAC priming (ffmpeg's copy of
    /// the MP4 into .mkv, exactly), the same audio packets; Matroska doc type.
    @Test func h264AACMatroskaMatchesTheMP4OfTheSamePackets() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 90 } },
                     "enc": { "type": "h264", "params": { "preset": "veryfast" } },
                     "tone": { "type": "sine", "params": { "frequency": 440, "seconds": 3 } },
                     "aenc": { "type": "aac" },
                     "mp4": { "type": "mp4", "params": { "path": "same.mp4" } },
                     "mux": { "type": "matroska", "params": { "path": "ours.mkv" } } },
          "chains": [["src", "enc", "mux.video"], ["enc", "mp4.video"], ["tone", "aenc", "mux.audio"], ["aenc", "mp4.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let mkv = dir + "/ours.mkv", mp4 = dir + "/same.mp4"
        #expect(try Self.mkvinfo(mkv).contains("Document type: matroska"))
        #expect(try Self.ffprobe(["-show_entries", "stream=codec_name", "-of", "csv=p=0", mkv]) == "h264\naac\n")
        let pictures = Self.fields(try Self.framemd5(["-i", mkv, "-map", "0:v"])).map { $0[5] }
        let mp4Pictures = Self.fields(try Self.framemd5(["-i", mp4, "-map", "0:v"])).map { $0[5] }
        #expect(pictures.count == 90 && pictures == mp4Pictures)
        // presentation times in decode order (B-frames: not rising), to the millisecond
        func times(_ f: String) throws -> [Double] {
            try Self.ffprobe(["-select_streams", "v", "-show_entries", "packet=pts_time", "-of", "csv=p=0", f])
                .split(separator: "\n").compactMap { Double($0) }
        }
        // every track moved by the AAC priming (−1024 samples, −21 ms), as ffmpeg's -c copy of the
        // MP4 into .mkv moves them: no block before zero
        let remux = try CLI.run("ffmpeg", ["-v", "error", "-i", mp4, "-c", "copy", dir + "/ffmpeg.mkv"])
        #expect(remux.status == 0, "\(remux.stderr)")
        let (mine, theirs, ffmpegs) = (try times(mkv), try times(mp4), try times(dir + "/ffmpeg.mkv"))
        #expect(mine.count == 90 && theirs.count == 90 && mine == ffmpegs)
        let apart: [Double] = zip(mine, theirs).map { (a: Double, b: Double) -> Double in abs(a - 0.021 - b) }
        #expect((apart.max() ?? 1) <= 0.0005, "\(mine.prefix(6)) vs \(theirs.prefix(6))")
        #expect(mine != mine.sorted(), "the test needs B-frames")
        let audio = Self.fields(try Self.framemd5(["-i", mkv, "-map", "0:a", "-c", "copy"])).map { $0[4] + " " + $0[5] }
        let mp4Audio = Self.fields(try Self.framemd5(["-i", mp4, "-map", "0:a", "-c", "copy"])).map { $0[4] + " " + $0[5] }
        #expect(audio.count > 100 && audio == mp4Audio)
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", mkv, "-f", "null", "-"])
        #expect(check.stderr.isEmpty, "\(check.stderr)")
    }

    /// Seeking uses the cues: every cue point names a cluster and a key frame block of its time
    /// (as mkvinfo finds them), and ffmpeg's seek lands on the picture it lands on in ffmpeg's own
    /// WebM of the same packets.
    @Test func seekingLandsWhereItLandsInFFmpegsWebM() throws {
        let dir = CLI.tempDir()
        let webm = try Self.encodeVP9Opus(in: dir, frames: 240, keyint: 60)
        let ff = dir + "/ffmpeg.webm"
        let e = try CLI.run("ffmpeg", ["-v", "error", "-i", webm, "-c", "copy", "-y", ff])
        #expect(e.status == 0, "\(e.stderr)")
        for at in ["3", "4.5", "6.1"] {
            let mine = try Self.framemd5(["-ss", at, "-i", webm, "-map", "0:v", "-frames:v", "1"])
            let theirs = try Self.framemd5(["-ss", at, "-i", ff, "-map", "0:v", "-frames:v", "1"])
            #expect(mine.count == 1 && mine == theirs, "-ss \(at)")
            // without decoding forward: the key frame the index gives
            let key = try Self.framemd5(["-ss", at, "-noaccurate_seek", "-i", webm, "-map", "0:v", "-c", "copy", "-frames:v", "1"])
            let theirKey = try Self.framemd5(["-ss", at, "-noaccurate_seek", "-i", ff, "-map", "0:v", "-c", "copy", "-frames:v", "1"])
            #expect(key.count == 1 && Self.fields(key).map { $0[5] } == Self.fields(theirKey).map { $0[5] }, "-ss \(at) -noaccurate_seek")
        }
        // the cue points, checked against where mkvinfo finds the clusters and blocks
        let info = try Self.mkvinfo(webm, verbose: true)
        let lines = info.split(separator: "\n").map(String.init)
        func number(_ line: String, after label: String) -> Int? {
            guard let r = line.range(of: label) else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        let segmentData = lines.first { $0.hasPrefix("+ Segment") }.flatMap { number($0, after: " at ") }.map { $0 + 12 }
        let clusters = Set(lines.filter { $0.hasPrefix("|+ Cluster at ") }.compactMap { number($0, after: " at ") })
        let keyBlocks = Set(lines.filter { $0.contains("Simple block: key, track number 1,") }.compactMap { number($0, after: " at ") })
        let positions = lines.filter { $0.contains("Cue cluster position:") }.compactMap { number($0, after: "position: ") }
        let relatives = lines.filter { $0.contains("Cue relative position:") }.compactMap { number($0, after: "position: ") }
        #expect(positions.count == 4 && relatives.count == 4, "240 frames with a key frame every 60: \(positions) \(relatives)")
        for (p, rel) in zip(positions, relatives) {
            let cluster = (segmentData ?? 0) + p
            #expect(clusters.contains(cluster), "cue cluster position \(p) is no cluster")
            #expect(keyBlocks.contains(cluster + 12 + rel), "cue relative position \(rel) is no key frame block")
        }
    }

    /// H.264 for a .webm path is refused when the graph is validated, saying why and what to do;
    /// nothing is written.
    @Test func h264ToWebMIsAValidationError() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 3 } }, "enc": { "type": "h264" },
                     "mux": { "type": "matroska", "params": { "path": "out.webm" } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir)
        for command in ["validate", "run"] {
            let r = try CLI.mediagraph(command, g)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            let message = "h264 cannot go into WebM ('\(dir)/out.webm'), which holds VP8, VP9 and Opus (and WebVTT subtitles); name the file .mkv"
            #expect(r.stderr.contains("node 'mux'"), "\(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []) == ["g.json"])
        // the name of another container: written anyway as Matroska, with a warning
        let named = try CLI.mediagraph(["validate", g, "--set", "mux.path=\(dir)/out.mp4"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stderr.contains("warning: node 'mux' (matroska): '\(dir)/out.mp4' will be a Matroska file whatever its name"), "\(named.stderr)")
    }

    /// A read-only directory and a full disk: exit 1, the node, the path and the reason, and no
    /// file (nor a temporary one) left.
    @Test func unwritableDirectoryAndFullDiskFailCleanly() throws {
        for (flags, size, frames) in [(UInt(MS_RDONLY), "64k", 30), (0, "256k", 300)] { try ScratchMount.with(flags: flags, size: size) { out in
            let dir = CLI.tempDir()
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": \(frames) } },
                         "enc": { "type": "vp9", "params": { "deadline": "realtime", "cpu-used": 8, "bitrate": 4000 } },
                         "mux": { "type": "matroska", "params": { "path": "\(out)/o.webm" } } },
              "chains": [["src", "enc", "mux.video"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 1, "\(r.stderr)")
            let reason = flags == 0 ? "No space left on device (the disk is full)" : "Read-only file system"
            #expect(r.stderr.contains("error: node 'mux' (matroska): "), "\(r.stderr)")
            #expect(r.stderr.contains("\(out)/o.webm"), "\(r.stderr)")
            #expect(r.stderr.contains(reason), "\(r.stderr)")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? ["?"]).isEmpty)
        } }
    }
}
