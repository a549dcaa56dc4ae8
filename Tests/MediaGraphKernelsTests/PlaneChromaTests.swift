import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// Hue on Y'CbCr planes (`PlaneChroma`): Cb and Cr turned together by a 2x2 map about 128, Y'
/// left alone, against the turn of YIQ's chroma written out from its definition.
@Suite struct PlaneChromaTests {
    /// Hue by `degrees` on one (Cb, Cr) pair, unrounded and clamped, from YIQ's definition: (U, V) =
    /// (0.492111·(B' − Y'), 0.877283·(R' − Y')), GPUImage turns (I, Q) by −degrees, and (I, Q) is
    /// (U, V) reflected, so (U, V) turns by +degrees.
    static func turned(cb: Int, cr: Int, degrees: Double, luma w: SIMD3<Double>, fullRange: Bool) -> (Double, Double) {
        let span = fullRange ? 255.0 : 224
        let du = 0.492111 * 2 * (1 - w.z), dv = 0.877283 * 2 * (1 - w.x)
        let u = du * Double(cb - 128) / span, v = dv * Double(cr - 128) / span
        let h = degrees * Double.pi / 180
        let u2 = u * cos(h) - v * sin(h), v2 = u * sin(h) + v * cos(h)
        let (low, high) = fullRange ? (0.0, 255.0) : (16.0, 240.0)
        return (min(max(128 + span * u2 / du, low), high), min(max(128 + span * v2 / dv, low), high))
    }

    /// Every (Cb, Cr) pair: within the stated error of the turn before rounding, so the byte is
    /// the turn rounded to nearest except next to a half.
    @Test(arguments: [(YCbCrMatrix.bt601, false), (.bt709, false), (.bt2020nc, true)])
    func everyPairIsTheTurnRounded(_ matrix: YCbCrMatrix, _ fullRange: Bool) throws {
        for degrees in [30.0, -75, 180, 359, 1234] {
            let chroma = try #require(PlaneChroma(try .hue(degrees: degrees, luma: matrix.lumaWeights), matrix: matrix, fullRange: fullRange))
            #expect(chroma.keepsLuma && !chroma.isIdentity)
            #expect(chroma.error < 0.01, "\(chroma.error)")
            var offNearest = 0
            for cb in 0..<256 {
                for cr in 0..<256 {
                    let out = chroma.output(cb: UInt8(cb), cr: UInt8(cr))
                    let exact = Self.turned(cb: cb, cr: cr, degrees: degrees, luma: matrix.lumaWeights, fullRange: fullRange)
                    for (byte, value) in [(out.cb, exact.0), (out.cr, exact.1)] {
                        #expect(abs(Double(byte) - value) <= 0.5 + chroma.error + 1e-9, "\(matrix) \(degrees)° (\(cb), \(cr)): \(byte) for \(value)")
                        if Double(byte) != (value + 0.5).rounded(.down) { offNearest += 1 }
                    }
                }
            }
            // only values within the error of a half round the other way
            #expect(offNearest < 2 * 65536 / 40, "\(matrix) \(degrees)°: \(offNearest) bytes not the nearest")
        }
    }

    /// The vector loop and the one-pair-at-a-time arithmetic write the same bytes at every width
    /// (the last pairs of a row go one by one), in place and into another frame, nothing past a
    /// row, Y' untouched.
    @Test(arguments: [PixelFormat.yuv420p, .yuv422p, .yuv444p])
    func everyPathWritesTheSameArithmetic(_ format: PixelFormat) throws {
        let chroma = try #require(PlaneChroma(try .hue(degrees: 137, luma: YCbCrMatrix.bt709.lumaWeights), matrix: .bt709, fullRange: false))
        for path in VectorPath.detected == .avx2 ? [VectorPath.avx2, .sse2] : [.sse2] {
            let kernel = PlaneChromaKernel(chroma, vectorPath: path)
            for w in [1, 2, 31, 32, 33, 63, 64, 65, 385] {
                let reference: (TestFrame) -> TestFrame = { source in
                    let out = source.copy()
                    for y in 0..<source.planeSize(1).height {
                        for x in 0..<source.rowBytes(1) {
                            let o = chroma.output(cb: source[plane: 1, x: x, y: y], cr: source[plane: 2, x: x, y: y])
                            out[plane: 1, x: x, y: y] = o.cb
                            out[plane: 2, x: x, y: y] = o.cr
                        }
                    }
                    return out
                }
                let worst = try checkKernel(format, w, 7, seed: UInt64(w), threads: 2,
                                            run: { try kernel.run(source: $0, destination: $1, threads: $2) }, reference: reference)
                #expect(worst == 0, "\(path) \(format) width \(w): \(worst.map(String.init) ?? "source or padding written")")
            }
        }
    }

    /// Maps that make Y' from chroma (sepia) have no such form; whole turns are the identity.
    @Test func onlyMapsThatKeepYApartFromChroma() throws {
        #expect(PlaneChroma(try .sepia(intensity: 1), matrix: .bt709, fullRange: false) == nil)
        let none = try #require(PlaneChroma(try .hue(degrees: 720, luma: YCbCrMatrix.bt601.lumaWeights), matrix: .bt601, fullRange: false))
        #expect(none.isIdentity)
    }
}
