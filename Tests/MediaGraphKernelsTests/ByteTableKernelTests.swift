import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// The table kernels are look-ups, so their output is exactly each byte through its channel's (or
/// plane's) table, whichever loop runs (AVX-512 VBMI 64 bytes at a time; AVX2 32 bytes at a time
/// through one table, or 32 pixels made planar through three; the rest of a row byte by byte, or
/// all of it through the pair tables without those loops; each loop this CPU has is run): random
/// tables on random frames of widths around the 32-, 64- and 128-byte steps, out of place and in
/// place, padding untouched.
@Suite struct ByteTableKernelTests {
    /// The loops to run: the best this CPU has, then AVX2 without AVX-512, then the pairs alone.
    static let loops: [(VectorPath, avx512: Bool)] = [(.detected, true), (.avx2, false), (.sse2, false)]

    static func randomTable(_ seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<256).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    static let widths = [1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129, 385]

    /// `shared`: red, green and blue through one table (gamma's case, which AVX2 runs in registers).
    @Test(arguments: [PixelFormat.rgba, .bgra], [false, true])
    func channelTablesAreExact(_ format: PixelFormat, shared: Bool) throws {
        let (r, g, b) = shared ? (Self.randomTable(1), Self.randomTable(1), Self.randomTable(1))
                               : (Self.randomTable(1), Self.randomTable(2), Self.randomTable(3))
        let order = format == .rgba ? [r, g, b] : [b, g, r]
        for (path, avx512) in Self.loops {
            let kernel = ChannelCurvesKernel(ChannelCurves(red: r, green: g, blue: b)!, vectorPath: path, avx512: avx512)
            for w in Self.widths {
                let source = TestFrame(format, w, 3, seed: UInt64(w))
                let original = source.copy()
                let destination = TestFrame(format, w, 3, seed: 99)
                try kernel.run(source: source.planesValue, destination: destination.planesValue, threads: 1)
                try kernel.run(source: source.planesValue, destination: source.planesValue, threads: 1)
                for y in 0..<3 {
                    for x in 0..<(4 * w) {
                        let v = original[plane: 0, x: x, y: y]
                        let expected = x % 4 == 3 ? v : order[x % 4][Int(v)]
                        #expect(destination[plane: 0, x: x, y: y] == expected && source[plane: 0, x: x, y: y] == expected,
                                "\(format) \(path) width \(w) byte \(x) row \(y)")
                    }
                }
                #expect(destination.paddingIntact && source.paddingIntact)
            }
        }
    }

    @Test(arguments: [PixelFormat.yuv420p, .yuv422p, .yuv444p])
    func planeTablesAreExact(_ format: PixelFormat) throws {
        let tables = [Self.randomTable(4), Self.randomTable(5), Self.randomTable(6)]
        for (path, avx512) in Self.loops {
            let kernel = PlaneCurvesKernel(PlaneCurves(y: tables[0], cb: tables[1], cr: tables[2])!, vectorPath: path, avx512: avx512)
            for w in Self.widths + [130, 258] {
                let source = TestFrame(format, w, 4, seed: UInt64(w))
                let original = source.copy()
                let destination = TestFrame(format, w, 4, seed: 99)
                try kernel.run(source: source.planesValue, destination: destination.planesValue, threads: 1)
                try kernel.run(source: source.planesValue, destination: source.planesValue, threads: 1)
                for p in 0..<3 {
                    for y in 0..<source.planeSize(p).height {
                        for x in 0..<source.rowBytes(p) {
                            let expected = tables[p][Int(original[plane: p, x: x, y: y])]
                            #expect(destination[plane: p, x: x, y: y] == expected && source[plane: p, x: x, y: y] == expected,
                                    "\(format) \(path) width \(w) plane \(p) byte \(x) row \(y)")
                        }
                    }
                }
                #expect(destination.paddingIntact && source.paddingIntact)
            }
        }
    }
}
