import Foundation
import Testing

/// Y4M and raw round trips checked with ffmpeg and ffprobe as independent readers.
@Suite struct Y4MAndRawTests {
    @Test func testsrcToY4MHasTheRightSizeRateAndFrameCount() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 352, "height": 288, "rate": "30000/1001", "frames": 45 } },
                     "out": { "type": "y4msink", "params": { "path": "t.y4m" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let p = try CLI.probe(dir + "/t.y4m", "width,height,r_frame_rate,nb_read_frames", countFrames: true)
        #expect(p["width"] == "352")
        #expect(p["height"] == "288")
        #expect(p["r_frame_rate"] == "30000/1001")
        #expect(p["nb_read_frames"] == "45")
    }

    static let chromaFormats = ["yuv420p", "yuv422p", "yuv444p", "gray"]

    @Test(arguments: chromaFormats)
    func ffmpegY4MRoundTripIsByteIdentical(_ pixfmt: String) throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.y4m"
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=386x290:rate=25", "-frames:v", "12",
                               "-pix_fmt", pixfmt, "-strict", "-1", input])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                     "out": { "type": "y4msink", "params": { "path": "out.y4m" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let a = FileManager.default.contents(atPath: input) ?? Data(), b = FileManager.default.contents(atPath: dir + "/out.y4m") ?? Data()
        // the whole file, header included (aspect, chroma siting, the XCOLORRANGE ffmpeg adds
        // after converting), is identical
        #expect(!a.isEmpty && a == b, "y4m round trip of \(pixfmt) differs")
    }

    @Test func y4mThroughStdinAndStdoutIsByteIdentical() throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.y4m"
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "10", "-pix_fmt", "yuv420p", input])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "-" } },
                     "out": { "type": "y4msink", "params": { "path": "-" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph(["run", "--quiet", g], stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == FileManager.default.contents(atPath: input))
    }

    @Test func frameHashesEqualFFmpegFrameMD5() throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.y4m"
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=386x290:rate=25", "-frames:v", "8",
                               "-vf", "scale=385:289", "-pix_fmt", "yuv444p", "-strict", "-1", input])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                     "a": { "type": "framehash", "params": { "path": "a.txt" } },
                     "b": { "type": "framehash", "params": { "path": "b.txt" } } },
          "chains": [["src", "a"], ["src", "b"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let a = try String(contentsOfFile: dir + "/a.txt", encoding: .utf8)
        let b = try String(contentsOfFile: dir + "/b.txt", encoding: .utf8)
        #expect(a == b, "fan-out branches saw different frames")
        let ours = a.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
        let ff = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-f", "framemd5", "-"]).out
        let theirs = ff.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
        #expect(ours.count == 8)
        #expect(ours == theirs)
    }

    @Test(arguments: ["yuv420p", "yuv422p", "yuv444p", "rgba", "bgra", "gray"])
    func rawRoundTripMatchesFFmpegRawvideo(_ pixfmt: String) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=386x290:rate=25", "-frames:v", "5",
                               "-pix_fmt", pixfmt, "-f", "rawvideo", dir + "/in.raw"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 386, "height": 290, "format": "\(pixfmt)" } },
                     "out": { "type": "rawsink", "params": { "path": "out.raw" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/in.raw") == FileManager.default.contents(atPath: dir + "/out.raw"))
    }

    @Test func memoryStaysFlatWithLength() throws {
        func peak(_ frames: Int) throws -> Int {
            let r = try CLI.mediagraph("run", "--quiet", "--stats", "Graphs/testsrc-to-null.json", "--set", "src.frames=\(frames)",
                                       "--set", "src.width=1920", "--set", "src.height=1080")
            #expect(r.status == 0, "\(r.stderr)")
            let line = r.stderr.split(separator: "\n").first { $0.hasPrefix("peak memory:") } ?? ""
            return Int(line.split(separator: " ")[2]) ?? -1
        }
        let short = try peak(300), long = try peak(3000)
        #expect(short > 0 && long > 0)
        #expect(Double(long) <= Double(short) * 1.10, "peak RSS \(long) KiB for 3000 frames vs \(short) KiB for 300")
    }

    @Test func sigintFinalizesTheOutputAndExits130() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 200000 } },
                     "out": { "type": "y4msink", "params": { "path": "endless.y4m" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        let errPipe = Pipe()
        p.standardError = errPipe
        try p.run()
        CLI.waitForOutput(in: dir, prefix: ".endless.y4m.partial", pid: p.processIdentifier)
        Thread.sleep(forTimeInterval: 0.5)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        let err = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 130, "\(err)")
        let probe = try CLI.probe(dir + "/endless.y4m", "nb_read_frames", countFrames: true)
        #expect((Int(probe["nb_read_frames"] ?? "0") ?? 0) > 0, "the finalized Y4M should hold the frames written before Ctrl-C")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "no partial file left behind: \(hidden)")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/endless.y4m", "-f", "null", "-"])
        #expect(check.stderr.isEmpty, "ffmpeg: \(check.stderr)")
    }
}
