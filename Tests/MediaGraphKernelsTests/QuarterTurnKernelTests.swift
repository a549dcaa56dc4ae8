import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// `QuarterTurnKernel` against the plain per-pixel formula of each turn, on every format it takes
/// and odd sizes, on one thread and several; padding never written.
@Suite struct QuarterTurnKernelTests {
    /// Where source pixel (x, y) of a w x h plane goes, turned clockwise by `degrees`, then
    /// flipped left to right when `mirrored`.
    static func turned(_ x: Int, _ y: Int, w: Int, h: Int, degrees: Int, mirrored: Bool = false) -> (x: Int, y: Int) {
        let t: (x: Int, y: Int)
        switch degrees {
        case 0: t = (x, y)
        case 90: t = (h - 1 - y, x)
        case 180: t = (w - 1 - x, h - 1 - y)
        default: t = (y, w - 1 - x)
        }
        let width = degrees % 180 == 0 ? w : h
        return mirrored ? (width - 1 - t.x, t.y) : t
    }

    @Test(arguments: [(90, false), (180, false), (270, false), (0, true), (90, true), (180, true), (270, true)])
    func everyPixelLandsWhereTheFormulaSays(degrees: Int, mirrored: Bool) throws {
        let kernel = try #require(QuarterTurnKernel(degrees: degrees, mirrored: mirrored))
        for format in QuarterTurnKernel.formats(degrees: degrees) {
            for (w, h) in [(385, 289), (1, 1), (3, 2), (64, 18)] {
                let size = kernel.turnedSize(width: w, height: h)
                for threads in [1, 3] {
                    let source = TestFrame(format, w, h, seed: 3)
                    let destination = TestFrame(format, size.width, size.height, seed: nil)
                    try kernel.run(source: source.planesValue, destination: destination.planesValue, threads: threads)
                    #expect(destination.paddingIntact, "\(format) \(w)x\(h) \(degrees)°: a padding byte was written")
                    var wrong = 0
                    for p in 0..<format.planeCount {
                        let ps = source.planeSize(p), bytes = format.bytesPerPixel(plane: p)
                        for y in 0..<ps.height {
                            for x in 0..<ps.width {
                                let t = Self.turned(x, y, w: ps.width, h: ps.height, degrees: degrees, mirrored: mirrored)
                                for b in 0..<bytes where destination[plane: p, x: t.x * bytes + b, y: t.y] != source[plane: p, x: x * bytes + b, y: y] {
                                    wrong += 1
                                }
                            }
                        }
                    }
                    #expect(wrong == 0, "\(format) \(w)x\(h) \(degrees)°\(mirrored ? " mirrored" : "") on \(threads) threads: \(wrong) bytes misplaced")
                }
            }
        }
    }

    @Test func quarterTurnsRefuse422AndOnlyQuarterTurnsExist() throws {
        #expect(!QuarterTurnKernel.formats(degrees: 90).contains(.yuv422p))
        #expect(QuarterTurnKernel.formats(degrees: 180).contains(.yuv422p))
        #expect(QuarterTurnKernel(degrees: 45) == nil && QuarterTurnKernel(degrees: 0) == nil)
        let kernel = try #require(QuarterTurnKernel(degrees: 90))
        let source = TestFrame(.yuv422p, 8, 4), destination = TestFrame(.yuv422p, 4, 8, seed: nil)
        #expect(throws: KernelError.self) { try kernel.run(source: source.planesValue, destination: destination.planesValue) }
        // a destination of the unturned size is refused before any byte is touched
        let wrong = TestFrame(.yuv420p, 8, 4, seed: nil), src420 = TestFrame(.yuv420p, 8, 4)
        #expect(throws: KernelError.self) { try kernel.run(source: src420.planesValue, destination: wrong.planesValue) }
    }
}
