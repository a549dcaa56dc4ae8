import Foundation
import Testing

/// Pictures of a stream with a display rotation come out upright, as ffmpeg's autorotation writes
/// them: `thumbnails` (pictures and contact sheet tiles) and `snapshot` give the display's width
/// and height, and the pixels of ffmpeg's autorotated frame of the same time (PSNR by ffmpeg's
/// `psnr` filter, the bounds measured below).
@Suite struct UprightPictureTests {
    /// A 320x240 clip, key frames every second, copied with a `rotate` tag of `degrees`.
    static func rotated(_ degrees: Int, in dir: String) throws -> String {
        let plain = dir + "/plain.mp4", out = dir + "/rot\(degrees).mp4"
        if !FileManager.default.fileExists(atPath: plain) {
            try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=4",
                                   "-c:v", "libx264", "-g", "25", "-crf", "12", plain])
        }
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", out])
        return out
    }

    /// ffmpeg's autorotated frame at `seconds` of `file` as a PNG, scaled to `size` when given.
    static func reference(_ file: String, seconds: Double, size: (Int, Int)? = nil) throws -> String {
        let out = CLI.tempDir() + "/ref.png"
        var args = ["-v", "error", "-y", "-ss", String(format: "%.3f", seconds), "-i", file]
        if let size { args += ["-vf", "scale=\(size.0):\(size.1)"] }
        let r = try CLI.run("ffmpeg", args + ["-frames:v", "1", out])
        #expect(r.status == 0, "\(r.stderr)")
        return out
    }

    /// ffmpeg's `psnr` filter on two pictures of one size: the average over Y, U and V (inf when equal).
    static func psnr(_ a: String, _ b: String) throws -> Double {
        let r = try CLI.run("ffmpeg", ["-v", "info", "-i", a, "-i", b, "-lavfi", "[0][1]psnr", "-f", "null", "-"])
        guard let m = r.stderr.firstMatch(of: /PSNR .* average:(inf|[0-9.]+)/) else { return -1 }
        return m.output.1 == "inf" ? .infinity : Double(m.output.1) ?? -1
    }

    static func size(_ file: String) throws -> String {
        let p = try CLI.probe(file, "width,height")
        return "\(p["width"] ?? "?")x\(p["height"] ?? "?")"
    }

    /// Bounds measured 2026-11-27 (ffmpeg 5.1): a PNG at the video's size is ffmpeg's
    /// autorotated frame exactly (inf dB) for 90, 180 and 270, and so is one scaled to 120 wide
    /// (the same bicubic libswscale after the same turn); a contact sheet tile (rgba, then PNG)
    /// 48.1–51.1 dB; a snapshot JPEG at quality 100 41.5–42.2 dB. A picture turned the wrong way
    /// scores 0.6 dB, and a sideways one has the wrong size.
    @Test(arguments: [90, 180, 270])
    func thumbnailsAreUprightWithTheDisplaySize(degrees: Int) throws {
        let dir = CLI.tempDir()
        let file = try Self.rotated(degrees, in: dir)
        let quarter = degrees != 180
        let display = quarter ? (240, 320) : (320, 240)
        // -w 0: the video's own size, turned
        let r = try CLI.run(CLI.binary, ["thumbnails", file, "-n", "2", "-w", "0", "-o", dir + "/full-%02d.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.out.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(lines.count == 2, "\(r.out)")
        for (i, line) in lines.enumerated() {
            let seconds = try #require(line.count > 1 ? Double(line[1]) : nil)
            let ours = dir + "/full-0\(i + 1).png"
            #expect(try Self.size(ours) == "\(display.0)x\(display.1)")
            let psnr = try Self.psnr(ours, try Self.reference(file, seconds: seconds))
            #expect(psnr > 60, "\(degrees)°: picture \(i + 1) at \(seconds) s: \(psnr) dB against ffmpeg's autorotated frame")
        }
        // -w 120 is the displayed width; the height follows the display aspect ratio
        let scaledHeight = quarter ? 160 : 90
        let s = try CLI.run(CLI.binary, ["thumbnails", file, "-n", "2", "-w", "120", "-o", dir + "/small-%02d.png",
                                         "--sheet", dir + "/sheet.png", "--columns", "2"])
        #expect(s.status == 0, "\(s.stderr)")
        let first = try #require(s.out.split(separator: "\n").first?.split(separator: "\t").dropFirst().first.flatMap { Double($0) })
        #expect(try Self.size(dir + "/small-01.png") == "120x\(scaledHeight)")
        let reference = try Self.reference(file, seconds: first, size: (120, scaledHeight))
        let scaled = try Self.psnr(dir + "/small-01.png", reference)
        #expect(scaled > 45, "\(degrees)°: \(scaled) dB")
        // the sheet: 2 * (120 + 6) + 6 wide; one row of the tile, its label (7 + 12) and 6
        #expect(try Self.size(dir + "/sheet.png") == "258x\(scaledHeight + 19 + 6)")
        let tile = dir + "/tile.png"
        #expect(try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/sheet.png", "-vf", "crop=120:\(scaledHeight):6:6", tile]).status == 0)
        let tilePSNR = try Self.psnr(tile, reference)
        #expect(tilePSNR > 40, "\(degrees)°: sheet tile \(tilePSNR) dB")
    }

    @Test(arguments: [90, 180, 270])
    func snapshotPicturesAreUpright(degrees: Int) throws {
        let dir = CLI.tempDir()
        let file = try Self.rotated(degrees, in: dir)
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "rot\(degrees).mp4" } },
                     "snap": { "type": "snapshot", "params": { "path": "s-%d.png", "times": [1.0, 2.5], "when-busy": "wait" } },
                     "small": { "type": "snapshot", "params": { "path": "w-%d.jpg", "times": [1.0], "width": 120, "height": 160, "quality": 100 } } },
          "chains": [["src.video", "snap"], ["src.video", "small"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let display = degrees == 180 ? "320x240" : "240x320"
        for (n, seconds) in [(1, 1.0), (2, 2.5)] {
            let ours = dir + "/s-\(n).png"
            #expect(try Self.size(ours) == display)
            let psnr = try Self.psnr(ours, try Self.reference(file, seconds: seconds))
            #expect(psnr > 60, "\(degrees)°: snapshot at \(seconds) s: \(psnr) dB against ffmpeg's autorotated frame")
        }
        // width and height are the written (upright) picture's
        #expect(try Self.size(dir + "/w-1.jpg") == "120x160")
        let psnr = try Self.psnr(dir + "/w-1.jpg", try Self.reference(file, seconds: 1.0, size: (120, 160)))
        #expect(psnr > 36, "\(degrees)°: scaled snapshot \(psnr) dB")
    }

    /// 4:2:2 has no quarter turn of its own (it would be 4:4:0): it goes to 4:4:4 first, where
    /// ffmpeg converts it to RGB before its transpose, so the chroma is interpolated differently
    /// (measured: 45.9 dB on luma, 30.2 over RGB at testsrc2's hard colour edges). 10-bit 4:2:0
    /// HEVC turns as 8-bit does: 47.3 dB on luma, measured against ffmpeg's 16-bit PNG (inf
    /// against its frame made rgb24, as ours is).
    @Test func fourTwoTwoAndTenBitAreUprightToo() throws {
        let dir = CLI.tempDir()
        let cases: [(name: String, encode: [String], degrees: Int, minimum: Double)] = [
            ("422", ["-pix_fmt", "yuv422p", "-c:v", "libx264", "-crf", "12"], 90, 42),
            ("10bit", ["-pix_fmt", "yuv420p10le", "-c:v", "libx265", "-x265-params", "log-level=0"], 270, 42),
        ]
        for c in cases {
            try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-g", "25"]
                        + c.encode + [dir + "/\(c.name)-plain.mp4"])
            let file = dir + "/\(c.name).mp4"
            try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/\(c.name)-plain.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=\(c.degrees)", file])
            let r = try CLI.run(CLI.binary, ["thumbnails", file, "-n", "1", "-w", "0", "-o", dir + "/\(c.name)-%02d.png"])
            #expect(r.status == 0, "\(r.stderr)")
            let seconds = try #require(r.out.split(separator: "\t").dropFirst().first.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
            let ours = dir + "/\(c.name)-01.png"
            #expect(try Self.size(ours) == "240x320", "\(c.name)")
            // luma only: the 4:2:2 chroma path differs by design (above)
            let gray = { (file: String, name: String) throws -> String in
                let out = dir + "/\(name).pgm"
                #expect(try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", file, "-pix_fmt", "gray", out]).status == 0)
                return out
            }
            let psnr = try Self.psnr(try gray(ours, c.name + "-ours"), try gray(try Self.reference(file, seconds: seconds), c.name + "-ref"))
            #expect(psnr > c.minimum, "\(c.name): \(psnr) dB on luma against ffmpeg's autorotated frame")
        }
    }
}
