import Foundation
import Testing

/// `mediagraph thumbnails`: pictures spread over the file, near-black frames skipped, a contact
/// sheet of the right geometry, ffprobe reading every output.
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
    }
}
