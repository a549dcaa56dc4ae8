import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// Colour maps that mix Y' with chroma on Y'CbCr planes (`PlaneColorChain`) against the R'G'B'
/// route written out from the definitions in Double: each pixel with the chroma sample covering
/// it to R'G'B' (clamped), each map clamped, back to Y'CbCr; chroma the mean over the sample's pixels.
@Suite struct PlaneColorChainTests {
    /// The route for one frame, unrounded: Y', Cb, Cr planes in Double.
    static func route(_ frame: TestFrame, _ maps: [ColorTransform], matrix: YCbCrMatrix, fullRange: Bool) -> [[Double]] {
        let w = matrix.lumaWeights, (kr, kg, kb) = (w.x, w.y, w.z)
        let (black, lumaSpan, chromaSpan) = fullRange ? (0.0, 255.0, 255.0) : (16.0, 219.0, 224.0)
        let shift = frame.format.chromaShift, chroma = frame.planeSize(1)
        var out = [[Double]](repeating: [], count: 3)
        out[0] = [Double](repeating: 0, count: frame.width * frame.height)
        out[1] = [Double](repeating: 0, count: chroma.width * chroma.height)
        out[2] = out[1]
        for cy in 0..<chroma.height {
            for cx in 0..<chroma.width {
                let pb = (Double(frame[plane: 1, x: cx, y: cy]) - 128) / chromaSpan, pr = (Double(frame[plane: 2, x: cx, y: cy]) - 128) / chromaSpan
                var sums = (0.0, 0.0), count = 0.0
                for y in (cy << shift.y)..<min(frame.height, (cy + 1) << shift.y) {
                    for x in (cx << shift.x)..<min(frame.width, (cx + 1) << shift.x) {
                        let luma = (Double(frame[plane: 0, x: x, y: y]) - black) / lumaSpan
                        let r = luma + 2 * (1 - kr) * pr, b = luma + 2 * (1 - kb) * pb
                        var c = SIMD4(r, (luma - kr * r - kb * b) / kg, b, 1)
                        c = c.clamped(lowerBound: .zero, upperBound: .one)
                        for m in maps {
                            let rows = m.effectiveRows
                            c = SIMD4((0..<3).map { (rows[$0] * c).sum() + m.effectiveOffset[$0] } + [1])
                            c = c.clamped(lowerBound: .zero, upperBound: .one)
                        }
                        let y2 = kr * c.x + kg * c.y + kb * c.z
                        out[0][y * frame.width + x] = black + lumaSpan * y2
                        sums.0 += 128 + chromaSpan * (c.z - y2) / (2 * (1 - kb))
                        sums.1 += 128 + chromaSpan * (c.x - y2) / (2 * (1 - kr))
                        count += 1
                    }
                }
                out[1][cy * chroma.width + cx] = sums.0 / count
                out[2][cy * chroma.width + cx] = sums.1 / count
            }
        }
        return out
    }

    static let cases: [(name: String, maps: [ColorTransform])] = {
        let matrix = try! ColorTransform.matrix([0.9, 0.3, -0.2, 0, -0.4, 1.2, 0.1, 0, 0.2, -0.5, 1.4, 0.3, 0, 0, 0, 1],
                                               offset: [0.05, -0.1, 0.02, 0])
        return [("sepia", [try! .sepia(intensity: 1)]), ("sepia 0.4", [try! .sepia(intensity: 0.4)]),
                ("gains", [try! .rgbGains(r: 1.4, g: 0.7, b: 1.1)]), ("matrix", [matrix]),
                ("invert then sepia", [.invert, try! .sepia(intensity: 1)]),
                ("three", [try! .rgbGains(r: 0.6, g: 1.3, b: 0.9), matrix, try! .sepia(intensity: 0.7)])]
    }()

    /// Every byte, on random (mostly out-of-gamut) frames of odd and even sizes, is the route's
    /// value rounded to nearest, within Float's 10⁻³ LSB of a tie.
    @Test(arguments: [(PixelFormat.yuv420p, YCbCrMatrix.bt709, false), (.yuv422p, .bt601, true), (.yuv444p, .bt2020nc, false),
                      (.yuv420p, .bt601, true)])
    func everyByteIsTheRGBRouteRounded(_ format: PixelFormat, _ matrix: YCbCrMatrix, _ fullRange: Bool) throws {
        for (name, maps) in Self.cases {
            let kernel = PlaneColorChainKernel(PlaneColorChain(maps, matrix: matrix, fullRange: fullRange))
            for (w, h) in [(385, 37), (64, 9), (17, 3), (1, 1)] {
                let source = TestFrame(format, w, h, seed: UInt64(w * 31 + h))
                let out = TestFrame(format, w, h, seed: 5)
                try kernel.run(source: source.planesValue, destination: out.planesValue, threads: 2)
                let exact = Self.route(source, maps, matrix: matrix, fullRange: fullRange)
                var offNearest = 0, worst = 0.0, total = 0
                for p in 0..<3 {
                    let size = source.planeSize(p)
                    for y in 0..<size.height {
                        for x in 0..<size.width {
                            let value = exact[p][y * size.width + x], byte = Double(out[plane: p, x: x, y: y])
                            worst = max(worst, abs(byte - value))
                            if byte != (value + 0.5).rounded(.down) { offNearest += 1 }
                            total += 1
                        }
                    }
                }
                #expect(worst <= 0.5 + 1e-3, "\(name) \(format) \(w)x\(h): worst \(worst)")
                #expect(offNearest * 500 <= total, "\(name) \(format) \(w)x\(h): \(offNearest) of \(total) not the nearest")
            }
        }
    }

    /// The AVX2 loop and the pixel-at-a-time arithmetic write the same bytes at every width (a
    /// row's last samples go one by one), in place and into another frame, nothing past a row.
    @Test(arguments: [PixelFormat.yuv420p, .yuv422p, .yuv444p])
    func everyPathWritesTheSameBytes(_ format: PixelFormat) throws {
        let chain = PlaneColorChain(Self.cases[5].maps, matrix: .bt709, fullRange: false)
        let portable = PlaneColorChainKernel(chain, vectorPath: .portable)
        for path in VectorPath.detected == .avx2 ? [VectorPath.avx2, .portable] : [.portable] {
            let kernel = PlaneColorChainKernel(chain, vectorPath: path)
            for (w, h) in [(1, 1), (2, 3), (15, 2), (16, 5), (17, 7), (31, 4), (33, 9), (385, 11)] {
                let worst = try checkKernel(format, w, h, seed: UInt64(w), threads: 2,
                                            run: { try kernel.run(source: $0, destination: $1, threads: $2) },
                                            reference: { source in
                                                let out = source.copy()
                                                try! portable.run(source: source.planesValue, destination: out.planesValue, threads: 1)
                                                return out
                                            })
                #expect(worst == 0, "\(path) \(format) \(w)x\(h): \(worst.map(String.init) ?? "source or padding written")")
            }
        }
    }
}
