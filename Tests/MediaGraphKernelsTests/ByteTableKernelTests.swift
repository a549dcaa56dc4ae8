import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// The table kernels are look-ups, so their output is exactly each byte through its channel's (or
/// plane's) table, whichever loop runs (AVX-512 VBMI 64 bytes at a time, the pair tables for the
/// rest of a row): random tables on random frames of widths around the 64-byte steps, out of place
/// and in place, padding untouched.
@Suite struct ByteTableKernelTests {
    static func randomTable(_ seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<256).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    static let widths = [1, 15, 16, 17, 31, 33, 63, 64, 65, 129, 385]

    @Test(arguments: [PixelFormat.rgba, .bgra])
    func channelTablesAreExact(_ format: PixelFormat) throws {
        let (r, g, b) = (Self.randomTable(1), Self.randomTable(2), Self.randomTable(3))
        let kernel = ChannelCurvesKernel(ChannelCurves(red: r, green: g, blue: b)!)
        let order = format == .rgba ? [r, g, b] : [b, g, r]
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
                            "\(format) width \(w) byte \(x) row \(y)")
                }
            }
            #expect(destination.paddingIntact && source.paddingIntact)
        }
    }

    @Test(arguments: [PixelFormat.yuv420p, .yuv422p, .yuv444p])
    func planeTablesAreExact(_ format: PixelFormat) throws {
        let tables = [Self.randomTable(4), Self.randomTable(5), Self.randomTable(6)]
        let kernel = PlaneCurvesKernel(PlaneCurves(y: tables[0], cb: tables[1], cr: tables[2])!)
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
                                "\(format) width \(w) plane \(p) byte \(x) row \(y)")
                    }
                }
            }
            #expect(destination.paddingIntact && source.paddingIntact)
        }
    }
}
