import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// `colormatrix` takes entries and offsets anywhere in ±64, so a chain of them can throw colours
/// far outside 0…255 between its clamps. Each loop must then still give the definition within its
/// stated error, and building a kernel must never trap on a number that does not fit its words.
struct ColorChainExtremeMatrixTests {
    /// Grayscale (rank one), brightness −0.6, then a map that turns 255 down by half the
    /// channel: the rank-one form's addend was past an Int16 while every sum fitted (a trap,
    /// in `mediagraph run` too).
    @Test(arguments: [PixelFormat.rgba, .bgra])
    func aRankOneChainWhoseAddendIsLargeRuns(format: PixelFormat) throws {
        let halfDown = try ColorTransform.matrix([-0.5, 0, 0, 0, 0, -0.5, 0, 0, 0, 0, -0.5, 0, 0, 0, 0, 1], offset: [1, 1, 1, 0])
        let maps = [try ColorTransform.grayscale().then(try .brightness(-0.6)), halfDown]
        for loop in ColorChainKernel.availableLoops {
            try ColorChainKernelTests.check(maps, format: format, seed: 41, loop: loop, shape: ColorChainKernelTests.brightAndDarkRows)
        }
    }

    /// A first map whose red is −255 everywhere (clamped to 0) and a second whose red falls far
    /// below 0 only once that clamp acts: the two-map composition and its correction each fit an
    /// Int16, their difference did not and wrapped round to 255.
    @Test(arguments: [PixelFormat.rgba, .bgra])
    func aCorrectedCompositionFarBelowZeroPacksToZero(format: PixelFormat) throws {
        let first = try ColorTransform.matrix([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], offset: [-1, 0, 0, 0])
        let second = try ColorTransform.matrix([-0.99, 0.3, -0.4, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], offset: [-0.99, 0, 0, 0])
        if ColorChainKernel.availableLoops.contains(.fixedPoint16) {
            #expect(ColorChainKernel([first, second], loop: .fixedPoint16).takesComposition)
        }
        for loop in ColorChainKernel.availableLoops {
            try ColorChainKernelTests.check([first, second], format: format, seed: 42, loop: loop)
        }
    }

    /// Random chains of 2–4 matrices, entries and offsets log-uniform over three decades up to
    /// the range's ends (some zero, half the first maps of rank one, some reading alpha, some
    /// mixed with the input): every loop this CPU has, every byte within the stated error.
    @Test func randomChainsOfLargeMatricesStayWithinTheStatedError() throws {
        var units = SeededUnits(0xE7_7E_3E)
        func unit() -> Double { units.next() }
        func value(_ largest: Double) -> Double {
            if unit() < 0.2 { return 0 }
            let magnitude = largest * pow(10, -3 * unit())
            return unit() < 0.5 ? -magnitude : magnitude
        }
        for k in 0..<800 {
            var maps: [ColorTransform] = []
            for j in 0..<(2 + k % 3) {
                var entries = [Double](repeating: 0, count: 16)
                if j == 0 && k % 2 == 0 {
                    let w = (0..<3).map { _ in value(8) }, v = (0..<3).map { _ in value(8) }
                    for i in 0..<3 { for c in 0..<3 { entries[4 * i + c] = v[i] * w[c] } }
                } else {
                    for i in 0..<3 { for c in 0..<3 { entries[4 * i + c] = value(64) } }
                }
                entries[15] = 1
                if k % 7 == 0 { (entries[3], entries[12]) = (value(2), value(2)) }
                let offset = (0..<3).map { _ in value(64) } + [0]
                maps.append(try ColorTransform.matrix(entries, offset: offset, intensity: k % 5 == 0 ? unit() : 1))
            }
            for loop in ColorChainKernel.availableLoops {
                try ColorChainKernelTests.check(maps, format: k % 2 == 0 ? .rgba : .bgra, seed: UInt64(k), loop: loop,
                                                shape: ColorChainKernelTests.brightAndDarkRows)
            }
        }
    }
}
