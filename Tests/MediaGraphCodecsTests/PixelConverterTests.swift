import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

struct ConversionCase: CustomStringConvertible, Sendable {
    var from: PixelFormat, fromWidth: Int, fromHeight: Int
    var to: PixelFormat, toWidth: Int, toHeight: Int
    var algorithm: ScalingAlgorithm
    var fromRange: ColorRange? = nil, toRange: ColorRange? = nil
    var fromMatrix: YCbCrMatrix = .bt601, toMatrix: YCbCrMatrix = .bt601

    var description: String {
        "\(from) \(fromWidth)x\(fromHeight) → \(to) \(toWidth)x\(toHeight) \(algorithm.rawValue)"
    }

    /// ffmpeg's scale filter with the same settings.
    var scaleFilter: String {
        var f = "scale=\(toWidth):\(toHeight):flags=\(algorithm.ffmpegName)"
        if let fromRange { f += ":in_range=\(fromRange == .full ? "full" : "limited")" }
        if let toRange { f += ":out_range=\(toRange == .full ? "full" : "limited")" }
        f += ":in_color_matrix=\(fromMatrix.rawValue):out_color_matrix=\(toMatrix.rawValue)"
        return f
    }
}

@Suite struct PixelConverterTests {
    static let cases: [ConversionCase] = [
        ConversionCase(from: .rgba, fromWidth: 385, fromHeight: 289, to: .yuv420p, toWidth: 192, toHeight: 108, algorithm: .bicubic),
        ConversionCase(from: .rgba, fromWidth: 384, fromHeight: 288, to: .yuv420p, toWidth: 192, toHeight: 108, algorithm: .bicubic),
        ConversionCase(from: .rgba, fromWidth: 385, fromHeight: 289, to: .yuv420p, toWidth: 192, toHeight: 108, algorithm: .bilinear),
        ConversionCase(from: .rgba, fromWidth: 385, fromHeight: 289, to: .yuv444p, toWidth: 192, toHeight: 108, algorithm: .bicubic),
        ConversionCase(from: .yuv420p, fromWidth: 385, fromHeight: 289, to: .yuv420p, toWidth: 640, toHeight: 360, algorithm: .bicubic),
        ConversionCase(from: .yuv420p, fromWidth: 640, fromHeight: 360, to: .yuv420p, toWidth: 320, toHeight: 180, algorithm: .area),
        ConversionCase(from: .yuv420p, fromWidth: 640, fromHeight: 360, to: .yuv420p, toWidth: 333, toHeight: 201, algorithm: .lanczos),
        ConversionCase(from: .yuv420p, fromWidth: 320, fromHeight: 240, to: .yuv420p, toWidth: 480, toHeight: 270, algorithm: .bilinear),
        ConversionCase(from: .yuv420p, fromWidth: 385, fromHeight: 289, to: .rgba, toWidth: 385, toHeight: 289, algorithm: .bicubic),
        ConversionCase(from: .rgba, fromWidth: 320, fromHeight: 240, to: .yuv420p, toWidth: 320, toHeight: 240, algorithm: .bilinear),
        ConversionCase(from: .rgba, fromWidth: 385, fromHeight: 289, to: .yuv420p, toWidth: 192, toHeight: 108, algorithm: .bicubic,
                       toMatrix: .bt709),
        ConversionCase(from: .yuv420p, fromWidth: 320, fromHeight: 240, to: .rgba, toWidth: 320, toHeight: 240, algorithm: .bicubic,
                       fromRange: .full, fromMatrix: .bt709, toMatrix: .bt709),
        ConversionCase(from: .yuv420p, fromWidth: 385, fromHeight: 289, to: .bgra, toWidth: 640, toHeight: 480, algorithm: .lanczos,
                       fromMatrix: .bt709),
        ConversionCase(from: .yuv420p, fromWidth: 320, fromHeight: 240, to: .yuv420p, toWidth: 320, toHeight: 240, algorithm: .bicubic,
                       fromRange: .limited, toRange: .full),
        ConversionCase(from: .yuv422p, fromWidth: 320, fromHeight: 240, to: .yuv420p, toWidth: 160, toHeight: 120, algorithm: .point),
        ConversionCase(from: .bgra, fromWidth: 320, fromHeight: 240, to: .rgba, toWidth: 200, toHeight: 150, algorithm: .fastBilinear),
        // libswscale takes gray as full range unless told otherwise: say which.
        ConversionCase(from: .gray, fromWidth: 100, fromHeight: 75, to: .yuv444p, toWidth: 100, toHeight: 75, algorithm: .bicubic,
                       fromRange: .limited),
        ConversionCase(from: .gray, fromWidth: 100, fromHeight: 75, to: .yuv420p, toWidth: 50, toHeight: 38, algorithm: .area,
                       fromRange: .full, toRange: .limited),
    ]

    @Test(arguments: cases)
    func sameBytesAsFFmpegScale(_ c: ConversionCase) throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let src = TestFrame(format: c.from, width: c.fromWidth, height: c.fromHeight, padding: 0, alignment: c.from.isRGB ? 1 : 64)
        let dst = TestFrame(format: c.to, width: c.toWidth, height: c.toHeight, padding: 0, alignment: 64)
        let converter = try PixelConverter(
            from: VideoFormat(pixelFormat: c.from, width: c.fromWidth, height: c.fromHeight, range: c.fromRange, matrix: c.fromMatrix),
            to: VideoFormat(pixelFormat: c.to, width: c.toWidth, height: c.toHeight, range: c.toRange, matrix: c.toMatrix),
            algorithm: c.algorithm)
        var raw: [UInt8] = [], ours: [UInt8] = []
        for i in 0..<2 {
            src.fill(index: i)
            raw += src.packed()
            try converter.convert(source: src.framePlanes, destination: dst.framePlanes)
            ours += dst.packed()
        }
        try writeFile(dir.path("in.raw"), raw)
        let r = try runTool("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", c.from.ffmpegName,
                                       "-s", "\(c.fromWidth)x\(c.fromHeight)", "-i", dir.path("in.raw"),
                                       "-vf", c.scaleFilter, "-pix_fmt", c.to.ffmpegName, "-f", "rawvideo", dir.path("out.raw")])
        #expect(r.status == 0, "\(r.stderr)")
        let reference = try readFile(dir.path("out.raw"))
        #expect(ours.count == reference.count)
        let diff = firstDifference(ours, reference)
        #expect(diff == nil, "\(c): first difference at byte \(diff ?? -1)")
    }
}

@Suite struct PixelConverterErrorTests {
    @Test func badSizesAndFramesAreErrors() throws {
        expectMessage("convert: param 'destination width': expected 1...16384, found 0") {
            _ = try PixelConverter(from: VideoFormat(pixelFormat: .yuv420p, width: 64, height: 48),
                                   to: VideoFormat(pixelFormat: .rgba, width: 0, height: 48))
        }
        let converter = try PixelConverter(from: VideoFormat(pixelFormat: .yuv420p, width: 64, height: 48),
                                           to: VideoFormat(pixelFormat: .rgba, width: 32, height: 24), algorithm: .area)
        let src = TestFrame(format: .yuv420p, width: 64, height: 48)
        let wrong = TestFrame(format: .bgra, width: 32, height: 24)
        expectMessage("convert: frame 0: expected destination rgba 32x24, found bgra 32x24") {
            try converter.convert(source: src.framePlanes, destination: wrong.framePlanes)
        }
    }
}
