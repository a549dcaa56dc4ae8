import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// The picture encoder against ffmpeg: a PNG holds exactly the pixels ffmpeg's own conversion of
/// the same raw frame gives; JPEG and WebP decode close to them; settings out of range are
/// errors that name them.
@Suite struct StillImageEncoderTests {
    /// Encodes one frame of `format` and returns (our picture decoded by ffmpeg, ffmpeg's own
    /// conversion of the same raw frame), both as `pixfmt`.
    static func both(_ settings: StillImageSettings, frame format: PixelFormat, width: Int, height: Int,
                     pixfmt: String, opaque: Bool = false) throws -> (ours: [UInt8], reference: [UInt8]) {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let src = TestFrame(format: format, width: width, height: height, padding: 40, alignment: 64)
        src.fill(index: 3)
        if opaque {
            // libwebp may change the colour under transparent pixels (it has no "exact" switch in
            // libavcodec): opaque pictures compare by colour alone
            for y in 0..<height { for x in 0..<width { src.planes[0][y * src.strides[0] + 4 * x + 3] = 255 } }
        }
        try writeFile(dir.path("in.raw"), src.packed())
        let encoder = try StillImageEncoder(settings: settings, source: VideoFormat(pixelFormat: format, width: width, height: height))
        let file = dir.path("pic." + settings.format.fileExtension)
        try writeFile(file, try encoder.encode(src.framePlanes))
        let size = settings.width.map { "\($0)x\(settings.height ?? 0)" }
        let scale = size.map { ["-vf", "scale=\($0.replacingOccurrences(of: "x", with: ":")):flags=bicubic"] } ?? []
        let a = try runTool("ffmpeg", ["-v", "error", "-i", file, "-f", "rawvideo", "-pix_fmt", pixfmt, dir.path("ours.raw")])
        let b = try runTool("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", format.ffmpegName, "-s", "\(width)x\(height)",
                                       "-i", dir.path("in.raw")] + scale + ["-f", "rawvideo", "-pix_fmt", pixfmt, dir.path("ref.raw")])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        return (try readFile(dir.path("ours.raw")), try readFile(dir.path("ref.raw")))
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return -1 }
        var sum = 0.0
        for i in 0..<a.count { let d = Double(a[i]) - Double(b[i]); sum += d * d }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 * Double(a.count) / sum)
    }

    @Test(arguments: [PixelFormat.yuv420p, .yuv444p, .rgba, .bgra])
    func pngHoldsFFmpegsPixels(_ format: PixelFormat) throws {
        let pixfmt = format.isRGB ? "rgba" : "rgb24"
        let (ours, reference) = try Self.both(StillImageSettings(format: .png), frame: format, width: 99, height: 67, pixfmt: pixfmt)
        #expect(!ours.isEmpty && ours == reference, "\(format): first difference at \(firstDifference(ours, reference) ?? -1)")
    }

    @Test func pngScaledHoldsFFmpegsScaledPixels() throws {
        let (ours, reference) = try Self.both(StillImageSettings(format: .png, width: 160, height: 90), frame: .yuv420p,
                                              width: 320, height: 180, pixfmt: "rgb24")
        // a Bool: on a failure Swift Testing would diff the two pictures' bytes for its message, for minutes
        let same = ours == reference
        #expect(!ours.isEmpty && same)
    }

    @Test func jpegAndWebPAreCloseToTheFrame() throws {
        let jpeg = try Self.both(StillImageSettings(format: .jpeg, quality: 100, fullChroma: true), frame: .yuv444p,
                                 width: 128, height: 96, pixfmt: "gray")
        #expect(Self.psnr(jpeg.ours, jpeg.reference) > 45)
        let lossless = try Self.both(StillImageSettings(format: .webp, lossless: true), frame: .rgba, width: 64, height: 48, pixfmt: "rgba", opaque: true)
        let losslessSame = lossless.ours == lossless.reference
        #expect(losslessSame)
        let lossy = try Self.both(StillImageSettings(format: .webp, quality: 90), frame: .rgba, width: 64, height: 48, pixfmt: "gray", opaque: true)
        // the test picture is mostly noise, the hardest case for a lossy coder
        #expect(Self.psnr(lossy.ours, lossy.reference) > 30)
    }

    @Test func settingsOutOfRangeAreErrors() {
        let f = VideoFormat(pixelFormat: .yuv420p, width: 64, height: 48)
        expectMessage("jpeg: param 'quality': expected 1...100, found 0") {
            _ = try StillImageEncoder(settings: StillImageSettings(format: .jpeg, quality: 0), source: f)
        }
        expectMessage("png: param 'effort': expected 0...9, found 12") {
            _ = try StillImageEncoder(settings: StillImageSettings(format: .png, effort: 12), source: f)
        }
        #expect(StillImageFormat(fileName: "a/b.JPEG") == .jpeg)
        #expect(StillImageFormat(fileName: "a.b/c") == nil)
        #expect(StillImageSettings.jpegQScale(quality: 100) == 1 && StillImageSettings.jpegQScale(quality: 1) == 31)
    }

    @Test func aFrameOfAnotherSizeIsAnError() throws {
        let encoder = try StillImageEncoder(settings: StillImageSettings(format: .png), source: VideoFormat(pixelFormat: .yuv420p, width: 64, height: 48))
        let wrong = TestFrame(format: .yuv420p, width: 32, height: 48)
        do {
            _ = try encoder.encode(wrong.framePlanes)
            Issue.record("no error")
        } catch {
            #expect("\(error)".hasPrefix("png: frame 0: expected"), "\(error)")
        }
    }
}
