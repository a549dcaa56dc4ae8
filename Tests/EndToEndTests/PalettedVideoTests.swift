import Foundation
import Testing

/// Paletted (pal8) video decodes to rgba, the palette (AVFrame data[1], 256 ARGB words) expanded
/// with its alpha, as ffmpeg decodes it: not to gray (the indices' luma, no colour), and from AVI
/// not black (its palette comes as the first packet's side data, which the decoder must get).
/// Every file is made by ffmpeg here; ours is compared with ffmpeg's decode of the same file.
@Suite struct PalettedVideoTests {
    static let width = 320, height = 240

    /// The files QA reported: raw pal8 in NUT (palette in every packet), PNG pal8 in MOV (in each
    /// PNG), raw pal8 in AVI (top-down; palette as side data of the first packet); also a
    /// bottom-up AVI, raw pal8 in MOV (palette from the sample description, as side data) and a
    /// palette with transparent entries.
    enum Clip: String, CaseIterable, CustomStringConvertible {
        case nut = "p-pal8.nut", pngInMOV = "p8-png.mov", avi = "p8-raw.avi", bottomUpAVI = "p8-flip.avi",
             rawMOV = "p8-raw.mov", transparent = "p8-alpha.mov"
        var description: String { rawValue }

        func make(in dir: String) throws {
            let source = ["-f", "lavfi", "-i", "testsrc2=size=\(PalettedVideoTests.width)x\(PalettedVideoTests.height):rate=25:duration=2"]
            let args: [String]
            switch self {
            case .nut: args = source + ["-c:v", "rawvideo", "-pix_fmt", "pal8"]
            case .pngInMOV: args = source + ["-pix_fmt", "pal8", "-c:v", "png"]
            case .avi, .rawMOV: args = source + ["-pix_fmt", "pal8", "-c:v", "rawvideo"]
            case .bottomUpAVI: args = source + ["-pix_fmt", "pal8", "-c:v", "rawvideo", "-flipped_raw_rgb", "1"]
            case .transparent:
                // the left half transparent: paletteuse gives it the palette's transparent entry
                args = ["-f", "lavfi", "-i", "testsrc2=size=\(PalettedVideoTests.width)x\(PalettedVideoTests.height):rate=25:duration=2,format=rgba,"
                        + "geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(X,160),0,255)',split[a][b];"
                        + "[a]palettegen=reserve_transparent=1[p];[b][p]paletteuse=alpha_threshold=128", "-c:v", "png"]
            }
            try CLI.run("ffmpeg", ["-v", "error", "-y"] + args + [dir + "/" + rawValue])
        }
    }

    /// Lowest PSNR over the frames of two rgba files of the same length (inf when identical).
    static func minimumPSNR(_ a: Data, _ b: Data, frameBytes: Int) -> Double {
        if a == b { return .infinity }
        var worst = Double.infinity
        a.withUnsafeBytes { (pa: UnsafeRawBufferPointer) in
            b.withUnsafeBytes { (pb: UnsafeRawBufferPointer) in
                let x = pa.bindMemory(to: UInt8.self), y = pb.bindMemory(to: UInt8.self)
                var start = 0
                while start + frameBytes <= min(x.count, y.count) {
                    var sum = 0
                    for i in start..<(start + frameBytes) {
                        let d = Int(x[i]) - Int(y[i])
                        sum += d * d
                    }
                    let psnr = sum == 0 ? Double.infinity : 10 * log10(255 * 255 * Double(frameBytes) / Double(sum))
                    worst = min(worst, psnr)
                    start += frameBytes
                }
            }
        }
        return worst
    }

    /// Runs filesrc → rawsink (rgba: the decoder's own output, no convert) and compares with
    /// ffmpeg's decode to rgba: the same number of frames, each identical or above 45 dB.
    static func checkRGBA(_ dir: String, _ file: String, start: Double? = nil, frames: Int) throws {
        let params = start.map { ", \"start\": \($0)" } ?? ""
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(file)"\(params) } },
                     "out": { "type": "rawsink", "params": { "path": "ours.rgba" } } },
          "chains": [["in.video", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("→ rgba after 'in.video'"), "decoded to rgba: \(r.stderr)")
        let seek = start.map { ["-ss", "\($0)"] } ?? []
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/" + file] + seek + ["-f", "rawvideo", "-pix_fmt", "rgba", dir + "/theirs.rgba"])
        let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/ours.rgba"))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: dir + "/theirs.rgba"))
        let frameBytes = width * height * 4
        #expect(theirs.count == frames * frameBytes, "ffmpeg's decode: \(theirs.count) bytes")
        #expect(ours.count == theirs.count, "\(file): ours \(ours.count / frameBytes) frames, ffmpeg's \(theirs.count / frameBytes)")
        let psnr = minimumPSNR(ours, theirs, frameBytes: frameBytes)
        #expect(psnr > 45, "\(file): the worst frame is \(psnr) dB from ffmpeg's decode to rgba")
    }

    @Test(arguments: Clip.allCases)
    func decodesToRGBAAsFFmpeg(_ clip: Clip) throws {
        let dir = CLI.tempDir()
        try clip.make(in: dir)
        let probe = try CLI.mediagraph("probe", dir + "/" + clip.rawValue)
        #expect(probe.status == 0 && probe.out.contains("pal8 (decoded as rgba)"), "\(probe.out)\(probe.stderr)")
        try Self.checkRGBA(dir, clip.rawValue, frames: 50)
    }

    /// The AVI's palette comes once, with the first packet, which a trimmed start seeks past: the
    /// demuxer gives it again with the first packet after the seek (ffmpeg's -ss before -i
    /// decodes this file black; after -i, as here, it decodes all of it and drops the lead-in).
    @Test func aTrimmedAVIKeepsItsPalette() throws {
        let dir = CLI.tempDir()
        try Clip.avi.make(in: dir)
        try Self.checkRGBA(dir, Clip.avi.rawValue, start: 1, frames: 25)
    }

    /// Downstream of the decoder: y4msink (an inserted convert to yuv420p) gets the colours.
    /// ffmpeg converts pal8 to yuv420p directly, with other chroma filtering than rgba → yuv420p
    /// (chroma about 40 dB apart), so the bar is 40 dB on the frame's average; gray was 10 dB.
    @Test(arguments: [Clip.nut, Clip.pngInMOV, Clip.avi])
    func y4mOutputHasTheColours(_ clip: Clip) throws {
        let dir = CLI.tempDir()
        try clip.make(in: dir)
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(clip.rawValue)" } },
                     "out": { "type": "y4msink", "params": { "path": "ours.y4m" } } },
          "chains": [["in.video", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/" + clip.rawValue, "-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", dir + "/theirs.y4m"])
        let frames = try CLI.probe(dir + "/ours.y4m", "nb_read_frames", countFrames: true)
        #expect(frames["nb_read_frames"] == "50", "\(frames)")
        let psnr = try UprightInputTests.minimumPSNR(dir + "/ours.y4m", dir + "/theirs.y4m")
        #expect(psnr > 40, "\(clip): the worst frame is \(psnr) dB from ffmpeg's yuv420p")
    }

    /// `thumbnails` seeks before it decodes (a fresh decoder per picture): the AVI's pictures
    /// are in colour, each the frame ffmpeg decodes at the time it prints.
    @Test func thumbnailsOfAnAVIAreInColour() throws {
        let dir = CLI.tempDir()
        try Clip.avi.make(in: dir)
        let r = try CLI.mediagraph("thumbnails", dir + "/" + Clip.avi.rawValue, "--count", "2", "--output", dir + "/thumb-%d.png")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2, "\(r.out)")
        for (k, line) in lines.enumerated() {
            guard let seconds = line.split(separator: "\t").last.flatMap({ Double($0) }) else {
                Issue.record("no time in '\(line)'")
                continue
            }
            let frame = Int((seconds * 25).rounded())
            try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/" + Clip.avi.rawValue, "-vf", "select=eq(n\\,\(frame))",
                                   "-frames:v", "1", dir + "/theirs-\(k + 1).png"])
            let psnr = try UprightInputTests.minimumPSNR(dir + "/thumb-\(k + 1).png", dir + "/theirs-\(k + 1).png")
            #expect(psnr > 45, "thumbnail \(k + 1) (frame \(frame)): \(psnr) dB from ffmpeg's frame")
        }
    }
}
