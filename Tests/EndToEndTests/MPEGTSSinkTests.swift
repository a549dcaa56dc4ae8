#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The `mpegts` sink against ffmpeg's own MPEG-TS muxer: our .ts and ffmpeg's `-c copy -f mpegts`
/// remux of the same packets (our mp4 written in the same run, or a file ffmpeg made) are the
/// same bytes; ffmpeg decodes every picture of ours as it decodes the mp4's. Inputs are made by
/// our encoders or ffmpeg inside the tests.
@Suite struct MPEGTSSinkTests {
    /// testsrc (30 fps) → `codec`, sine → `audio`, into both an `mp4` sink (dir/ours.mp4) and an
    /// `mpegts` sink (dir/ours.ts).
    static func encode(in dir: String, codec: String = "h264", audio: String? = "aac", frames: Int = 150,
                       sampleRate: Int = 48000) throws -> CLI.Result {
        var nodes = """
        "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": \(frames) } },
        "venc": { "type": "\(codec)", "params": { "preset": "veryfast", "keyint": 45 } },
        "mp4": { "type": "mp4", "params": { "path": "ours.mp4" } },
        "ts": { "type": "mpegts", "params": { "path": "ours.ts" } }
        """
        var chains = #"["src", "venc", "mp4.video"], ["venc", "ts.video"]"#
        if let audio {
            nodes += #", "tone": { "type": "sine", "params": { "seconds": \#(Double(frames) / 30), "sample-rate": \#(sampleRate) } }, "aenc": { "type": "\#(audio)" }"#
            chains += #", ["tone", "aenc", "mp4.audio"], ["aenc", "ts.audio"]"#
        }
        let g = CLI.writeGraph("{ \"nodes\": { \(nodes) }, \"chains\": [\(chains)] }", in: dir)
        return try CLI.mediagraph("run", "--quiet", g)
    }

    /// ffmpeg's `-c copy -f mpegts` of `input` (every stream).
    static func ffmpegRemux(_ input: String, to output: String) throws {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", input, "-map", "0", "-c", "copy", "-f", "mpegts", output])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }

    /// The first differing byte, with the transport packet and PID it falls in.
    static func firstDifference(_ a: Data, _ b: Data) -> String {
        guard let i = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? (a.count == b.count ? nil : min(a.count, b.count)) else {
            return "none"
        }
        let p = i / 188 * 188
        let pid = p + 2 < a.count ? (Int(a[p + 1]) & 0x1F) << 8 | Int(a[p + 2]) : -1
        return "byte \(i) (packet \(i / 188), PID 0x\(String(pid, radix: 16)), offset \(i % 188)); sizes \(a.count) and \(b.count)"
    }

    /// Decoded pictures (MD5 of each) as ffmpeg decodes a file's first video stream; stderr must stay empty.
    static func pictures(_ file: String) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-f", "framemd5", "-"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(file): \(r.stderr)")
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// H.264 or HEVC with AAC from our encoders: byte for byte what ffmpeg 5.1 writes when it
    /// remuxes our mp4 of the same packets into MPEG-TS (tables, PIDs, PCR, PES headers,
    /// delimiters and parameter sets, ADTS), and every picture decodes as the mp4's does.
    @Test(arguments: ["h264", "hevc"])
    func sameBytesAsFFmpegsRemuxOfOurMP4(_ codec: String) throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, codec: codec)
        #expect(r.status == 0, "\(r.stderr)")
        try Self.ffmpegRemux(dir + "/ours.mp4", to: dir + "/ffmpeg.ts")
        let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/ours.ts"))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/ffmpeg.ts"))
        #expect(ours.count > 188 * 100 && ours.count % 188 == 0, "\(ours.count) bytes")
        #expect(ours == theirs, "first difference: \(Self.firstDifference(ours, theirs))")
        let a = try Self.pictures(dir + "/ours.ts"), b = try Self.pictures(dir + "/ours.mp4")
        #expect(a.count == 150 && a == b, "\(a.count) pictures from the .ts, \(b.count) from the mp4")
    }

    /// To standard output (a pipe): written as it goes, the same bytes as ffmpeg's remux.
    @Test func standardOutputGetsTheSameBytes() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 60 } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast" } },
                     "tone": { "type": "sine", "params": { "seconds": 2 } }, "aenc": { "type": "aac" },
                     "mp4": { "type": "mp4", "params": { "path": "ours.mp4" } },
                     "ts": { "type": "mpegts", "params": { "path": "/dev/stdout" } } },
          "chains": [["src", "venc", "mp4.video"], ["venc", "ts.video"], ["tone", "aenc", "mp4.audio"], ["aenc", "ts.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        try Self.ffmpegRemux(dir + "/ours.mp4", to: dir + "/ffmpeg.ts")
        let theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/ffmpeg.ts"))
        #expect(!r.stdout.isEmpty && r.stdout == theirs, "first difference: \(Self.firstDifference(r.stdout, theirs))")
    }

    /// MP3 at 44.1 kHz and 22.05 kHz (MPEG-2 audio, stream type 0x04), a video-only and an
    /// audio-only stream: the same bytes as ffmpeg's remux of our mp4.
    @Test(arguments: [("h264", "mp3", 44100), ("hevc", "mp3", 22050), ("h264", nil, 0), ("", "aac", 44100)])
    func otherStreamSetsAreTheSameBytesToo(_ codec: String, _ audio: String?, _ rate: Int) throws {
        let dir = CLI.tempDir()
        var r: CLI.Result
        if codec.isEmpty {
            let g = CLI.writeGraph("""
            { "nodes": { "tone": { "type": "sine", "params": { "seconds": 4, "sample-rate": \(rate) } }, "aenc": { "type": "\(audio!)" },
                         "mp4": { "type": "mp4", "params": { "path": "ours.mp4" } }, "ts": { "type": "mpegts", "params": { "path": "ours.ts" } } },
              "chains": [["tone", "aenc", "mp4.audio"], ["aenc", "ts.audio"]] }
            """, in: dir)
            r = try CLI.mediagraph("run", "--quiet", g)
        } else {
            r = try Self.encode(in: dir, codec: codec, audio: audio, frames: 100, sampleRate: rate)
        }
        #expect(r.status == 0, "\(r.stderr)")
        try Self.ffmpegRemux(dir + "/ours.mp4", to: dir + "/ffmpeg.ts")
        let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/ours.ts"))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/ffmpeg.ts"))
        #expect(!ours.isEmpty && ours == theirs, "first difference: \(Self.firstDifference(ours, theirs))")
    }

    /// Stream copy from `filesrc` of a file ffmpeg made (25 fps H.264, two AAC tracks, one of
    /// them English, a title): the same bytes as ffmpeg's `-c copy -f mpegts` of that file, so
    /// the language descriptors, the service name and the PIDs of several audio tracks agree.
    @Test func streamCopyIsTheSameBytesAsFFmpegs() throws {
        let dir = CLI.tempDir()
        let made = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=640x360:rate=25", "-f", "lavfi", "-i", "sine=r=48000",
                                          "-f", "lavfi", "-i", "sine=f=880:r=44100", "-map", "0", "-map", "1", "-map", "2", "-t", "4",
                                          "-c:v", "libx264", "-g", "50", "-c:a", "aac", "-metadata:s:a:0", "language=eng",
                                          "-metadata", "title=Über den Wolken", dir + "/src.mp4"])
        #expect(made.status == 0, "\(made.stderr)")
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "src.mp4" } },
                     "ts": { "type": "mpegts", "params": { "path": "ours.ts" } } },
          "chains": [["in.video", "ts.video"], ["in.audio", "ts.audio"], ["in.audio1", "ts.audio1"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        try Self.ffmpegRemux(dir + "/src.mp4", to: dir + "/ffmpeg.ts")
        let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/ours.ts"))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/ffmpeg.ts"))
        #expect(!ours.isEmpty && ours == theirs, "first difference: \(Self.firstDifference(ours, theirs))")
        // (ffprobe lists the streams under their program, then on their own)
        let streams = try MatroskaSinkTests.ffprobe(["-show_entries", "stream=codec_name,id:stream_tags=language", "-of", "csv=p=0", dir + "/ours.ts"])
        #expect(streams.split(separator: "\n").suffix(3) == ["h264,0x100", "aac,0x101,eng", "aac,0x102,und"], "\(streams)")
    }

    /// What MPEG-TS cannot carry is refused before anything runs: exit 2, the node, the port,
    /// what was expected and what was found.
    @Test(arguments: [("vp9", "video", "testsrc", "found vp9"), ("opus", "audio", "sine", "found opus")])
    func codecsItCannotCarryAreValidationErrors(_ encoder: String, _ port: String, _ source: String, _ found: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "\(source)" }, "enc": { "type": "\(encoder)" },
                     "ts": { "type": "mpegts", "params": { "path": "out.ts" } } },
          "chains": [["src", "enc", "ts.\(port)"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("node 'ts' (mpegts): input '\(port)': expected H.264 or HEVC video, AAC or MP3 audio, \(found)"), "\(r.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []) == ["g.json"])
    }

    /// A read-only directory and a full disk: exit 1, the node, the path and the reason, and no
    /// file (nor a temporary one) left.
    @Test func unwritableDirectoryAndFullDiskFailCleanly() throws {
        for (flags, size, frames) in [(UInt(MS_RDONLY), "64k", 30), (0, "256k", 600)] { try ScratchMount.with(flags: flags, size: size) { out in
            let dir = CLI.tempDir()
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": \(frames) } },
                         "enc": { "type": "h264", "params": { "preset": "ultrafast", "crf": 10 } },
                         "ts": { "type": "mpegts", "params": { "path": "\(out)/o.ts" } } },
              "chains": [["src", "enc", "ts.video"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 1, "\(r.stderr)")
            let reason = flags == 0 ? "No space left on device (the disk is full)" : "Read-only file system"
            #expect(r.stderr.contains("error: node 'ts' (mpegts): "), "\(r.stderr)")
            #expect(r.stderr.contains("\(out)/o.ts"), "\(r.stderr)")
            #expect(r.stderr.contains(reason), "\(r.stderr)")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? ["?"]).isEmpty)
        } }
    }

    /// Ctrl-C ends the file in order: it appears, whole packets, and ffmpeg decodes it without a
    /// message.
    @Test func ctrlCEndsTheFileInOrder() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 100000 } },
                     "venc": { "type": "h264", "params": { "preset": "ultrafast" } },
                     "tone": { "type": "sine", "params": { "seconds": 10000 } }, "aenc": { "type": "aac" },
                     "ts": { "type": "mpegts", "params": { "path": "stopped.ts" } } },
          "chains": [["src", "venc", "ts.video"], ["tone", "aenc", "ts.audio"]] }
        """, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        let errPipe = Pipe()
        p.standardError = errPipe
        try p.run()
        CLI.waitForOutput(in: dir, prefix: ".stopped.ts", pid: p.processIdentifier)
        Thread.sleep(forTimeInterval: 1)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        let err = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationReason == .exit && p.terminationStatus == 128 + SIGINT, "\(p.terminationStatus): \(err)")
        #expect(err.contains("stopped by Ctrl-C: outputs finalized"), "\(err)")
        let size = (try? FileManager.default.attributesOfItem(atPath: dir + "/stopped.ts")[.size] as? Int) ?? 0
        #expect(size > 0 && size % 188 == 0, "\(size) bytes")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/stopped.ts", "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
        #expect(try Self.pictures(dir + "/stopped.ts").count > 10)
    }
}
