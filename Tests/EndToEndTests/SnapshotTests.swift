import Foundation
import Testing

/// The `snapshot` sink on a fan-out branch of a recording: pictures at the asked times equal
/// ffmpeg's decode of the recorded MP4, the recording is the same with and without the branch,
/// a busy writer skips and counts, and on-demand requests (FIFO lines, SIGUSR1) make pictures.
/// Times are written as seconds and as ffmpeg's "hh:mm:ss.ms".
@Suite struct SnapshotTests {
    /// A lossless recording (x264 qp 0) of a clip, with a PNG and a JPEG snapshot branch.
    static func record(in dir: String, snapshots: Bool) throws -> CLI.Result {
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "45",
                               "-c:v", "libx264", "-preset", "ultrafast", "-g", "15", dir + "/in.mp4"])
        let branches = snapshots ? """
        , "png": { "type": "snapshot", "params": { "path": "snap/p-%d.png", "times": ["00:00:00.5", "0:01"], "when-busy": "wait" } },
          "jpg": { "type": "snapshot", "params": { "path": "snap/j-%d-%t.jpg", "times": [0.5, 1.0], "when-busy": "wait", "quality": 100, "full-chroma": true } }
        """ : ""
        let chains = snapshots ? #", ["src.video", "png"], ["src.video", "jpg"]"# : ""
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "in.mp4" } },
                     "enc": { "type": "h264", "params": { "preset": "ultrafast", "crf": 0 } },
                     "mux": { "type": "mp4", "params": { "path": "rec.mp4" } }\(branches) },
          "chains": [["src.video", "enc", "mux.video"]\(chains)] }
        """, in: dir)
        return try CLI.mediagraph("run", "--quiet", g)
    }

    @Test func picturesEqualTheRecordedFramesAndTheRecordingIsUnchanged() throws {
        let dir = CLI.tempDir()
        let r = try Self.record(in: dir, snapshots: true)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(PictureCheck.files(dir + "/snap") == ["j-1-00-00-00.500.jpg", "j-2-00-00-01.000.jpg", "p-1.png", "p-2.png"])
        for (n, frame) in [(1, 15), (2, 30)] {
            // PNG: identical to ffmpeg's decode of the recording at that time, as RGB
            let png = try PictureCheck.raw(dir + "/snap/p-\(n).png", pixfmt: "rgb24")
            let reference = try PictureCheck.raw(dir + "/rec.mp4", pixfmt: "rgb24", frame: frame)
            #expect(!png.isEmpty && png == reference, "PNG \(n) differs from frame \(frame) of the recording")
            // JPEG: over 45 dB on luma (two RGB conversions of 4:2:0 chroma differ at colour
            // edges whatever the encoder, so the check is on Y)
            let time = n == 1 ? "00-00-00.500" : "00-00-01.000"
            let jpeg = try PictureCheck.raw(dir + "/snap/j-\(n)-\(time).jpg", pixfmt: "gray")
            let y = try PictureCheck.raw(dir + "/rec.mp4", pixfmt: "gray", frame: frame)
            let psnr = PictureCheck.psnr(jpeg, y)
            #expect(psnr > 45, "JPEG \(n): \(psnr) dB")
            // and it is that frame, not a neighbour
            let neighbour = try PictureCheck.raw(dir + "/rec.mp4", pixfmt: "gray", frame: frame + 1)
            #expect(PictureCheck.psnr(jpeg, neighbour) < psnr - 3)
        }
        let p = try CLI.probe(dir + "/snap/j-1-00-00-00.500.jpg", "codec_name,width,height,pix_fmt")
        #expect(p["codec_name"] == "mjpeg" && p["width"] == "320" && p["height"] == "240" && p["pix_fmt"] == "yuvj444p")

        // the recording with the branches equals the one without: same packets, same times
        let plain = CLI.tempDir()
        #expect(try Self.record(in: plain, snapshots: false).status == 0)
        let packets = { (file: String) throws -> String in
            try CLI.run("ffprobe", ["-v", "error", "-show_entries", "packet=pts,dts,duration,size", "-of", "csv", file]).out
        }
        let with = try packets(dir + "/rec.mp4"), without = try packets(plain + "/rec.mp4")
        #expect(with.split(separator: "\n").count == 45)
        #expect(with == without)
    }

    @Test func aBusyWriterSkipsAndCountsRequests() throws {
        let dir = CLI.tempDir()
        // PNG at zlib level 9 of 1280x720 takes far longer than testsrc takes for a frame
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 1280, "height": 720, "frames": 30 } },
                     "snap": { "type": "snapshot", "params": { "path": "s/%04d.png", "every-frames": 1, "effort": 9 } } },
          "chains": [["src", "snap"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        let written = PictureCheck.files(dir + "/s").count
        let skipped = r.stderr.firstMatch(of: /skipped (\d+) of (\d+) pictures because the previous one was still being written/)
        let s = try #require(skipped, "no skip warning in: \(r.stderr)")
        #expect(Int(s.output.2) == 30)
        #expect(Int(s.output.1)! > 0)
        #expect(written + Int(s.output.1)! == 30, "\(written) written")
        // numbers are given to written pictures only: 0001 … with no gaps
        #expect(PictureCheck.files(dir + "/s") == (1...written).map { String(format: "%04d.png", $0) })
    }

    @Test func sceneChangesAndIntervalsPickTheRightFrames() throws {
        let dir = CLI.tempDir()
        // three shots of one second each: a cut at 1 s and at 2 s
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1",
                               "-f", "lavfi", "-i", "color=c=red:size=160x120:rate=10:duration=1",
                               "-f", "lavfi", "-i", "smptebars=size=160x120:rate=10:duration=1",
                               "-filter_complex", "[0][1][2]concat=n=3", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", dir + "/cuts.mp4"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "cuts.mp4" } },
                     "scene": { "type": "snapshot", "params": { "path": "scene-%t.png", "scene": 0.15, "when-busy": "wait" } },
                     "every": { "type": "snapshot", "params": { "path": "every-%d.jpg", "every": 0.7, "when-busy": "wait" } } },
          "chains": [["src.video", "scene"], ["src.video", "every"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(PictureCheck.files(dir, prefix: "scene-") == ["scene-00-00-01.000.png", "scene-00-00-02.000.png"])
        // 0, 0.7, 1.4, 2.1, 2.8 s
        #expect(PictureCheck.files(dir, prefix: "every-").count == 5)
    }

    @Test func onDemandByFIFOAndSignalWhileRunning() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 160, "height": 120, "frames": 0 } },
                     "snap": { "type": "snapshot", "params": { "path": "d/%03d.webp", "control": "ctl", "signal": true } } },
          "chains": [["src", "snap"]] }
        """, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        let fifo = dir + "/ctl"
        let deadline = Date().addingTimeInterval(6 * CLI.timeLimit)
        var st = stat()
        while !(stat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO) && Date() < deadline && p.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        try #require(stat(fifo, &st) == 0, "the node did not create its control FIFO")
        func waitForPictures(_ n: Int) {
            let deadline = Date().addingTimeInterval(CLI.timeLimit)
            while PictureCheck.files(dir + "/d").count < n && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            // the file appears just before the writer is free again: a request in between
            // would be skipped (as it should)
            Thread.sleep(forTimeInterval: 0.2)
        }
        // the node makes the FIFO, then opens it: until then a writer finds no reader (ENXIO)
        var w = open(fifo, O_WRONLY | O_NONBLOCK)
        while w < 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05); w = open(fifo, O_WRONLY | O_NONBLOCK) }
        try #require(w >= 0)
        for i in 1...2 {
            _ = "snap\n".withCString { write(w, $0, 5) }
            waitForPictures(i)
        }
        close(w)
        let status = (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/status", encoding: .utf8)) ?? ""
        kill(p.processIdentifier, SIGUSR1)
        waitForPictures(3)
        #expect(PictureCheck.files(dir + "/d").count == 3, "\(status)")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        #expect(PictureCheck.files(dir + "/d") == ["001.webp", "002.webp", "003.webp"])
        #expect(try CLI.probe(dir + "/d/003.webp", "codec_name,width")["width"] == "160")
        #expect(!FileManager.default.fileExists(atPath: fifo), "the FIFO the node made is removed at the end")
    }

    @Test func badSettingsAreClearErrors() throws {
        let dir = CLI.tempDir()
        let cases: [(params: String, message: String)] = [
            (#""path": "s.bmp", "times": [1]"#, "s.bmp': expected a name ending in .png, .jpg, .jpeg or .webp, or set param 'format'"),
            (#""path": "s-%q.png", "times": [1]"#, "s-%q.png': '%q' is not a field; expected %d, %05d, %t or %% (a literal percent sign)"),
            (#""path": "s.png", "width": 100"#, "params 'width' and 'height': give both or neither (found only 'width')"),
            (#""path": "s.png", "times": [1, "frame:3"]"#, "param 'times': expected array of 1…10000 times (seconds or \"hh:mm:ss.ms\"), found an array whose item 1 is \"frame:3\""),
            (#""path": "s.png", "times": ["0:75"]"#, "param 'times': expected array of 1…10000 times (seconds or \"hh:mm:ss.ms\"), found an array whose item 0 is \"0:75\""),
        ]
        for c in cases {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 2 } },
                         "snap": { "type": "snapshot", "params": { \(c.params) } } },
              "chains": [["src", "snap"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status != 0)
            #expect(r.stderr.contains("snap") && r.stderr.contains(c.message), "\(r.stderr)")
        }
        // a WebP wider than libwebp's 16383, refused when the graph is validated (it was refused
        // at the first picture), for snapshot and imageseqsink alike
        for sink in [#""type": "snapshot", "params": { "path": "s.webp", "times": [0] }"#,
                     #""type": "imageseqsink", "params": { "path": "s-%d.webp" }"#] {
            let wide = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 16384, "height": 2, "frames": 1, "format": "rgba" } },
                         "snap": { \(sink) } },
              "chains": [["src", "snap"]] }
            """, in: dir)
            let refused = try CLI.mediagraph("validate", wide)
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("node 'snap'") && refused.stderr.contains("a WebP is at most 16383 pixels per side; the picture would be 16384x2"),
                    "\(refused.stderr)")
        }
        // an existing file that is not a FIFO
        #expect(FileManager.default.createFile(atPath: dir + "/plain", contents: Data("x".utf8)))
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 2 } },
                     "snap": { "type": "snapshot", "params": { "path": "s.png", "control": "plain" } } },
          "chains": [["src", "snap"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 1)
        #expect(r.stderr.contains("node 'snap' (snapshot)") && r.stderr.contains("exists and is not a FIFO"), "\(r.stderr)")
    }
}
