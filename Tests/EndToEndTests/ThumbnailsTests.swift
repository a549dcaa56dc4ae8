import Foundation
import Testing

/// `mediagraph thumbnails`: pictures spread over the file, near-black frames skipped, a contact
/// sheet of the right geometry, ffprobe reading every output; every frame of a short file taken,
/// the last ones held in the decoder included; no picture at all an error.
@Suite struct ThumbnailsTests {
    @Test func picturesSpreadOverTheFileSkipBlackAndMakeASheet() throws {
        let dir = CLI.tempDir()
        // 1 s of black, then 7 s of picture; key frames every 1.5 s
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=black:size=192x108:rate=20:duration=1",
                               "-f", "lavfi", "-i", "testsrc2=size=192x108:rate=20:duration=7",
                               "-filter_complex", "[0][1]concat=n=2", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30",
                               dir + "/in.mp4"])
        let r = try CLI.run(CLI.binary, ["thumbnails", "in.mp4", "-n", "4", "-o", "t/th-%02d.jpg", "--width", "96",
                                         "--sheet", "t/sheet.png", "--columns", "3"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.out.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(lines.count == 5, "\(r.out)")
        // points at 1, 3, 5, 7 s; the first lands on the black key frame at 0 and moves on to
        // the first frame with picture (1.0 s)
        let times = lines.prefix(4).compactMap { $0.count > 1 ? Double($0[1]) : nil }
        #expect(times.count == 4)
        #expect(times.first.map { $0 >= 1.0 && $0 < 1.5 } == true, "\(times)")
        #expect(times == times.sorted() && Set(times).count == 4)
        for i in 1...4 {
            let file = dir + "/t/th-0\(i).jpg"
            let p = try CLI.probe(file, "width,height,codec_name")
            #expect(p["width"] == "96" && p["height"] == "54" && p["codec_name"] == "mjpeg", "\(p)")
            #expect(PictureCheck.mean(try PictureCheck.raw(file, pixfmt: "gray")) > 0.1, "thumbnail \(i) is black")
        }
        // 3 columns: 3 * (96 + 6) + 6 wide; 2 rows of 54 + label (7 + 12) + 6
        let sheet = try CLI.probe(dir + "/t/sheet.png", "width,height,codec_name")
        #expect(sheet["width"] == "312" && sheet["height"] == "152" && sheet["codec_name"] == "png", "\(sheet)")
    }

    @Test func badArgumentsAndFiles() throws {
        let dir = CLI.tempDir()
        #expect(FileManager.default.createFile(atPath: dir + "/text.mp4", contents: Data("not a video".utf8)))
        let a = try CLI.run(CLI.binary, ["thumbnails", "text.mp4", "-n", "3"], cwd: dir)
        #expect(a.status == 1 && a.stderr.contains("text.mp4"), "\(a.stderr)")
        let b = try CLI.run(CLI.binary, ["thumbnails", "text.mp4", "-n", "0"], cwd: dir)
        #expect(b.status == 2 && b.stderr.contains("--count: expected 1...1000, found 0"), "\(b.stderr)")
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:duration=1", dir + "/v.mp4"])
        let c = try CLI.run(CLI.binary, ["thumbnails", "v.mp4", "-n", "3", "-o", "same.jpg"], cwd: dir)
        #expect(c.status == 2 && c.stderr.contains("output 'same.jpg' has no %d or %t field"), "\(c.stderr)")
        // a raw H.264 stream has no duration: the error names a way out, and that way works
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:duration=1", dir + "/raw.h264"])
        let d = try CLI.run(CLI.binary, ["thumbnails", "raw.h264", "-n", "3", "-o", "t-%d.jpg"], cwd: dir)
        #expect(d.status == 1 && d.stderr.contains("a raw H.264 or HEVC stream carries no duration: put it in an MP4 first, e.g. `mediagraph run Graphs/remux-h264.json"), "\(d.stderr)")
        let remux = try CLI.run(CLI.binary, ["run", "-q", CLI.root + "/Graphs/remux-h264.json", "--set", "in.path=raw.h264", "--set", "mux.path=clip.mp4"], cwd: dir)
        #expect(remux.status == 0, "\(remux.stderr)")
        let e = try CLI.run(CLI.binary, ["thumbnails", "clip.mp4", "-n", "3", "-o", "t-%d.jpg"], cwd: dir)
        #expect(e.status == 0 && FileManager.default.fileExists(atPath: dir + "/t-3.jpg"), "\(e.stderr)")
    }

    /// Where every frame is rejected, the least bad is taken and the line says why, with the
    /// point's time as people read it (not the file-name form 00-00-01.000).
    @Test func anAllBlackFileSaysWhyItsPictureIsAFallback() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=black:size=64x48:rate=20:duration=2", "-c:v", "libx264", dir + "/black.mp4"])
        let r = try CLI.run(CLI.binary, ["thumbnails", "black.mp4", "-n", "1", "-o", "b-%d.jpg"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.hasPrefix("b-1.jpg\t") && r.out.contains("\t(every frame looked at near 00:00:01.000 was near-black)"), "\(r.out)")
    }

    /// The frames' times as ffprobe reads them (an independent decoder), in seconds.
    static func frameTimes(_ file: String) throws -> [Double] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", file])
        // a frame with side data (x264's SEI on the first) gets an extra field: the time is the first
        return r.out.split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
    }

    /// x264 with its defaults keeps the last frames (B-frames, lookahead) in the decoder until it
    /// is told the stream ended: a 1-frame file gave no picture at all, a 5-frame file one of
    /// three, 250 frames 247 of 300. Now every frame there is is a picture, up to -n, and the
    /// times are ffprobe's frame times.
    @Test(arguments: [(1, 3), (2, 1), (2, 3), (5, 3), (250, 300)])
    func framesStillInTheDecoderAtTheEndBecomePictures(frames: Int, count: Int) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "\(frames)",
                               "-c:v", "libx264", dir + "/in.mp4"])
        let reference = try Self.frameTimes(dir + "/in.mp4")
        #expect(reference.count == frames, "ffprobe reads \(reference.count) frames")
        let r = try CLI.run(CLI.binary, ["thumbnails", "in.mp4", "-n", "\(count)", "-w", "0", "-o", "t/%03d.png"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = Swift.min(frames, count)
        let times = r.out.split(separator: "\n").compactMap { $0.split(separator: "\t").dropFirst().first.flatMap { Double($0) } }
        #expect(times.count == expected, "\(r.out)\(r.stderr)")
        #expect(PictureCheck.files(dir + "/t").count == expected)
        #expect(times == times.sorted() && Set(times).count == times.count, "\(times)")
        // each time is one of the file's frames (ffprobe's times, printed to the millisecond)
        #expect(times.allSatisfy { t in reference.contains { abs($0 - t) < 0.0015 } }, "\(times) vs \(reference)")
        if count >= frames {
            // every frame, the last one included
            #expect(times.count == reference.count && zip(times, reference).allSatisfy { abs($0 - $1) < 0.0015 }, "\(times) vs \(reference)")
        }
        if count > frames {
            #expect(r.stderr.contains("warning: \(frames) of \(count) pictures: the file has only \(frames) distinct frame"), "\(r.stderr)")
        } else {
            #expect(!r.stderr.contains("warning"), "\(r.stderr)")
        }
        let last = try #require(PictureCheck.files(dir + "/t").last)
        let p = try CLI.probe(dir + "/t/" + last, "width,height,codec_name")
        #expect(p["width"] == "160" && p["height"] == "120" && p["codec_name"] == "png", "\(p)")
    }

    /// A file cut short (its header still says 10 s) says so instead of "too few frames", and one
    /// that yields no picture at all is an error (exit 1) that says why, not a silent success.
    @Test func aFileCutShortSaysSoAndNoPictureIsAnError() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=10",
                               "-c:v", "libx264", "-g", "25", dir + "/full.mkv"])
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=10",
                               "-c:v", "libx264", "-g", "25", "-movflags", "+faststart", dir + "/full.mp4"])
        for ext in ["mkv", "mp4"] {
            let full = try #require(FileManager.default.contents(atPath: dir + "/full.\(ext)"))
            #expect(FileManager.default.createFile(atPath: dir + "/half.\(ext)", contents: full.prefix(full.count / 2)))
            // where the data really stops, by ffprobe: the last frame it can read
            let lastFrame = try #require(try Self.frameTimes(dir + "/half.\(ext)").last)
            #expect(lastFrame > 2 && lastFrame < 8, "\(lastFrame)")
            let r = try CLI.run(CLI.binary, ["thumbnails", "half.\(ext)", "-n", "10", "-o", "\(ext)-%02d.jpg"], cwd: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let made = PictureCheck.files(dir, prefix: "\(ext)-").count
            #expect(made > 2 && made < 10, "\(made) pictures")
            let m = try #require(r.stderr.firstMatch(of: /warning: (\d+) of 10 pictures: the file ends early: it was cut short at about ([0-9.]+) s of the 10 s it declares/),
                                 "\(r.stderr)")
            #expect(Int(m.output.1) == made)
            #expect(Double(m.output.2).map { abs($0 - lastFrame) <= 0.5 } == true, "said \(m.output.2) s, ffprobe's last frame is at \(lastFrame) s")
            #expect(!r.stderr.contains("too few frames"))
        }
        // cut inside the first frame: nothing decodes, exit 1 and why
        let full = try #require(FileManager.default.contents(atPath: dir + "/full.mkv"))
        #expect(FileManager.default.createFile(atPath: dir + "/stub.mkv", contents: full.prefix(1500)))
        let r = try CLI.run(CLI.binary, ["thumbnails", "stub.mkv", "-n", "3", "-o", "stub-%02d.jpg", "--sheet", "stub-sheet.jpg"], cwd: dir)
        #expect(r.status == 1, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("error: thumbnails: 'stub.mkv': no picture could be made: "), "\(r.stderr)")
        #expect(r.stderr.contains("cut short at about 0 s of the 10 s it declares") || r.stderr.contains("no decodable frame"), "\(r.stderr)")
        #expect(PictureCheck.files(dir, prefix: "stub-").isEmpty, "no sheet or picture is left")
    }
}
