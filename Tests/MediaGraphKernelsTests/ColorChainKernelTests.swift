import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// `ColorChainKernel` (the one-pass form of a fused run of colour filters: AVX2 rows of 32 pixels
/// and a portable tail) against the definition computed here in Double: each map in turn,
/// clamped to 0…255 between maps, rounded once (ties to even) and clamped at the end.
@Suite struct ColorChainKernelTests {
    static func reference(_ maps: [ColorTransform], _ pixel: SIMD4<Double>) -> SIMD4<Double> {
        var v = pixel
        for (k, m) in maps.enumerated() {
            let rows = m.effectiveRows, offset = m.effectiveOffset * 255
            var r = SIMD4<Double>((0..<4).map { (rows[$0] * v).sum() + offset[$0] })
            if k < maps.count - 1 { r = r.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255)) }
            v = r
        }
        return v
    }

    @Test(arguments: [PixelFormat.rgba, .bgra], [false, true])
    func matchesTheDefinition(format: PixelFormat, writesAlpha: Bool) throws {
        var maps = [try ColorTransform.sepia(), try ColorTransform.contrast(1.8), try ColorTransform.saturation(1.6)]
        if writesAlpha {
            maps.append(try ColorTransform.matrix([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.2, 0.3, 0.1, 0.5], offset: [0, 0, 0, 0.05]))
        }
        let kernel = ColorChainKernel(maps)
        // 67 wide: two 32-pixel steps of the vector loop and a tail of 3
        let src = TestFrame(format, 67, 9, seed: 3)
        let dst = TestFrame(format, 67, 9, seed: nil)
        try kernel.run(source: src.planesValue, destination: dst.planesValue, threads: 1)
        let order = format == .bgra ? [2, 1, 0, 3] : [0, 1, 2, 3]
        var worst = 0.0, off = 0
        for y in 0..<9 {
            for x in 0..<67 {
                var p = SIMD4<Double>()
                for c in 0..<4 { p[c] = Double(src[plane: 0, x: 4 * x + order[c], y: y]) }
                let want = Self.reference(maps, p)
                for c in 0..<4 {
                    let got = Double(dst[plane: 0, x: 4 * x + order[c], y: y])
                    let expected = c == 3 && !writesAlpha ? p[3] : min(max(want[c].rounded(.toNearestOrEven), 0), 255)
                    // Float arithmetic may land on the other side of a rounding tie: 1 at most
                    worst = max(worst, abs(got - expected))
                    if got != expected { off += 1 }
                }
            }
            // nothing written past the row
            for x in 4 * 67..<4 * 67 + 13 { #expect(dst[plane: 0, x: x, y: y] == TestFrame.sentinel) }
        }
        #expect(worst <= 1, "largest difference \(worst)")
        #expect(off <= 67 * 9 * 4 / 100, "\(off) values off by one (float ties)")
    }
}
