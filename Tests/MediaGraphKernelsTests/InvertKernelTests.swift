import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

@Suite struct InvertKernelTests {
    /// 255 - x on every byte of planar formats; on rgba/bgra bytes 0…2 of each pixel, alpha kept.
    static func reference(_ source: TestFrame) -> TestFrame {
        let out = source.copy()
        for p in 0..<source.format.planeCount {
            for y in 0..<source.planeSize(p).height {
                for x in 0..<source.rowBytes(p) where !(source.format.isRGB && x % 4 == 3) {
                    out[plane: p, x: x, y: y] = 255 - source[plane: p, x: x, y: y]
                }
            }
        }
        return out
    }

    @Test(arguments: InvertKernel.formats)
    func exactOnEveryFormatAndSize(format: PixelFormat) throws {
        for (w, h) in testSizes {
            let worst = try checkKernel(format, w, h, run: { try InvertKernel().run(source: $0, destination: $1, threads: $2) },
                                        reference: Self.reference)
            #expect(worst == 0, "\(format) \(w)x\(h)")
        }
    }

    @Test func sameResultOnOneThreadAndMany() throws {
        for threads in [1, 2, 3, 7] {
            let worst = try checkKernel(.yuv420p, 385, 289, threads: threads,
                                        run: { try InvertKernel().run(source: $0, destination: $1, threads: $2) },
                                        reference: Self.reference)
            #expect(worst == 0, "threads \(threads)")
        }
    }

    /// ffmpeg 5.1's negate on yuv and gray formats is 255 - x on every plane: byte-identical.
    @Test(.enabled(if: ffmpegPath != nil), arguments: [PixelFormat.yuv420p, .yuv422p, .yuv444p, .gray, .rgba, .bgra])
    func identicalToFFmpegNegate(format: PixelFormat) throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (w, h) in [(385, 289), (3, 2)] {
            let frame = TestFrame(format, w, h, seed: 42)
            try frame.packed.write(to: dir.appendingPathComponent("in.raw"))
            let (status, err) = try runFFmpeg(["-f", "rawvideo", "-pix_fmt", format.ffmpegName, "-s", "\(w)x\(h)",
                                               "-i", "in.raw", "-vf", "negate", "-f", "rawvideo",
                                               "-pix_fmt", format.ffmpegName, "out.raw"], in: dir)
            #expect(status == 0, "ffmpeg: \(err)")
            let theirs = try Data(contentsOf: dir.appendingPathComponent("out.raw"))
            try InvertKernel().run(source: frame.planesValue, destination: frame.planesValue)
            #expect(theirs == frame.packed, "\(format) \(w)x\(h)")
        }
    }

    @Test func rejectsMismatchedFrames() {
        let a = TestFrame(.rgba, 4, 4), b = TestFrame(.rgba, 4, 5), c = TestFrame(.yuv420p, 4, 4)
        #expect(throws: KernelError.mismatchedFrames(kernel: "invert", source: "rgba 4x4", destination: "rgba 4x5")) {
            try InvertKernel().run(source: a.planesValue, destination: b.planesValue)
        }
        #expect(throws: KernelError.mismatchedFrames(kernel: "invert", source: "rgba 4x4", destination: "yuv420p 4x4")) {
            try InvertKernel().run(source: a.planesValue, destination: c.planesValue)
        }
        var short = a.planesValue
        short.stride0 = 8
        #expect(throws: KernelError.badPlanes(kernel: "invert", detail: "plane 0 stride 8 is shorter than its row of 16 bytes")) {
            try InvertKernel().run(source: short, destination: short)
        }
    }
}
