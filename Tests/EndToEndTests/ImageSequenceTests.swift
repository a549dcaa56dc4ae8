import Foundation
import Testing

/// `imageseq` and `imageseqsink` against ffmpeg reading and writing the same sequences.
@Suite struct ImageSequenceTests {
    @Test func readsWhatFFmpegWroteAsFFmpegReadsIt() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-frames:v", "8",
                               "-start_number", "3", dir + "/f-%05d.png"])
        let reference = try PictureCheck.frameMD5(["-start_number", "3", "-i", dir + "/f-%05d.png"], pixfmt: "rgba")
        #expect(reference.count == 8)
        for (name, path) in [("pattern", "f-%05d.png"), ("glob", "f-*.png")] {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "imageseq", "params": { "path": "\(path)", "rate": "12/1" } },
                         "h": { "type": "framehash", "params": { "path": "\(name).txt" } } },
              "chains": [["src", "h"]] }
            """, in: dir, name: name + ".json")
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(PictureCheck.frameHashes(dir + "/\(name).txt") == reference, "\(name)")
        }
        // the rate gives the timestamps: a recording of it lasts 8/12 s
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "imageseq", "params": { "path": "f-%05d.png", "rate": "12/1" } },
                     "enc": { "type": "h264", "params": { "preset": "ultrafast" } },
                     "mux": { "type": "mp4", "params": { "path": "seq.mp4" } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir, name: "mp4.json")
        #expect(try CLI.mediagraph("run", "--quiet", g).status == 0)
        let p = try CLI.probe(dir + "/seq.mp4", "nb_read_frames,r_frame_rate,duration", countFrames: true)
        #expect(p["nb_read_frames"] == "8" && p["r_frame_rate"] == "12/1" && p["duration"] == "0.666667", "\(p)")
    }

    @Test func readsJPEGAndWebPSequences() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=98x66:rate=10", "-frames:v", "5", dir + "/j%d.jpg"])
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=98x66:rate=10", "-frames:v", "5", "-c:v", "libwebp", dir + "/w%d.webp"])
        for (path, ffmpegInput, pixfmt) in [("j%d.jpg", "j%d.jpg", "yuvj420p"), ("w%d.webp", "w%d.webp", "yuv420p")] {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "imageseq", "params": { "path": "\(path)" } },
                         "h": { "type": "framehash", "params": { "path": "h.txt" } } },
              "chains": [["src", "h"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 0, "\(r.stderr)")
            let reference = try PictureCheck.frameMD5(["-i", dir + "/" + ffmpegInput], pixfmt: pixfmt)
            #expect(reference.count == 5)
            #expect(PictureCheck.frameHashes(dir + "/h.txt") == reference, "\(path)")
        }
    }

    @Test(arguments: ["png", "jpg", "webp"])
    func writesSequencesFFmpegReads(_ ext: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 100, "height": 60, "frames": 6, "format": "rgba" } },
                     "h": { "type": "framehash", "params": { "path": "src.txt" } },
                     "seq": { "type": "imageseqsink", "params": { "path": "out/f-%03d.\(ext)", "start-number": 0, "lossless": true } } },
          "chains": [["src", "seq"], ["src", "h"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(PictureCheck.files(dir + "/out") == (0..<6).map { String(format: "f-%03d.\(ext)", $0) })
        let p = try CLI.probe(dir + "/out/f-005.\(ext)", "codec_name,width,height")
        #expect(p["width"] == "100" && p["height"] == "60")
        if ext != "jpg" {
            // PNG and lossless WebP keep every RGBA byte
            let decoded = try PictureCheck.frameMD5(["-i", dir + "/out/f-%03d.\(ext)"], pixfmt: "rgba")
            #expect(decoded == PictureCheck.frameHashes(dir + "/src.txt"))
        }
    }

    @Test func badInputIsAClearError() throws {
        let dir = CLI.tempDir()
        #expect(FileManager.default.createFile(atPath: dir + "/afile", contents: Data("x".utf8)))
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-frames:v", "2", dir + "/ok-%d.png"])
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=32x48:rate=10", "-frames:v", "1", dir + "/ok-3.png"])
        #expect(FileManager.default.createFile(atPath: dir + "/bad-1.png", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])))
        let cases: [(node: String, message: String, status: Int32)] = [
            (#""type": "imageseq", "params": { "path": "none-%04d.png" }"#,
             "none-0003.png', '\(dir)/none-0004.png' exists (set 'start-number' if the numbers start elsewhere)", 2),
            (#""type": "imageseq", "params": { "path": "none-%04d.png", "start-number": 7 }"#,
             "param 'path': the first file '\(dir)/none-0007.png' cannot be read: No such file or directory", 2),
            (#""type": "imageseq", "params": { "path": "*.gif" }"#, "param 'path': no file matches", 2),
            (#""type": "imageseq", "params": { "path": "ok-%d.png" }"#,
             "picture '\(dir)/ok-3.png' is 32x48, the sequence's first picture 64x48: every picture must have the first one's size", 1),
            (#""type": "imageseq", "params": { "path": "bad-%d.png" }"#, "cannot read the first picture '\(dir)/bad-1.png'", 2),
        ]
        for c in cases {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { \(c.node) }, "out": { "type": "nullsink" } }, "chains": [["src", "out"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == c.status, "\(r.stderr)")
            #expect(r.stderr.contains("'src'") && r.stderr.contains(c.message), "\(r.stderr)")
        }
        // an unwritable pattern (its directory would be inside a file), and one without a number
        for (path, message) in [("afile/f-%03d.png", "cannot write '\(dir)/afile/f-001.png': Not a directory"), ("f.png", "f.png' has no number field")] {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 2 } },
                         "seq": { "type": "imageseqsink", "params": { "path": "\(path)" } } },
              "chains": [["src", "seq"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status != 0)
            #expect(r.stderr.contains("'seq'") && r.stderr.contains(message), "\(r.stderr)")
        }
    }
}
