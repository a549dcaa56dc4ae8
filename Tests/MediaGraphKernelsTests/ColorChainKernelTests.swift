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
        for loop in ColorChainKernel.availableLoops { try Self.check(maps, format: format, seed: 3, loop: loop) }
        // The filters' maps: small beside the 8-bit roundings a fused chain skips,
        // 0.5·Σⱼ Πᵢ₌ⱼ₊₁…ₖ gainᵢ (ColorMapFusion.preRoundingBound), which it is added to.
        var skipped = 0.0, product = 1.0
        for j in stride(from: maps.count - 1, to: 0, by: -1) {
            product *= maps[j].gain
            skipped += 0.5 * product
        }
        for loop in ColorChainKernel.availableLoops {
            let error = ColorChainKernel(maps, loop: loop).arithmeticError
            #expect(error < 0.1 * skipped, "\(loop): stated error \(error) against \(skipped) skipped")
        }
    }

    /// Random maps (entries up to ±2.5, offsets up to ±0.6, some reading alpha, some writing
    /// it), two to five in a chain: every byte within the kernel's stated arithmetic error of the
    /// definition, in both the fixed-point and the float loops' range of coefficients, in every
    /// loop this CPU has (a chain a fixed-point loop does not fit runs in the float one).
    @Test(arguments: [PixelFormat.rgba, .bgra])
    func randomChainsMatchTheDefinition(format: PixelFormat) throws {
        var units = SeededUnits(format == .rgba ? 0x9E37_79B9 : 0x7F4A_7C15)
        func unit() -> Double { units.next() }
        var fixedPoint: [ColorChainKernel.Loop: Int] = [:]
        for k in 0..<24 {
            let drawn = (0..<(2 + k % 4)).map { _ -> (entries: [Double], offset: [Double], readsAlpha: Bool, writesAlpha: Bool) in
                let range = k % 3 == 2 ? 2.5 : 1.2
                let entries = (0..<16).map { _ in (2 * unit() - 1) * range }
                return (entries, (0..<4).map { _ in (2 * unit() - 1) * 0.6 }, unit() >= 0.6, unit() >= 0.6)
            }
            // as drawn, and the same colour maps alone (alpha neither read nor written)
            func chain(colourOnly: Bool) throws -> [ColorTransform] {
                try drawn.map { d in
                    var entries = d.entries, offset = d.offset
                    if colourOnly || !d.readsAlpha { entries[3] = 0; entries[7] = 0; entries[11] = 0 }
                    if colourOnly || !d.writesAlpha { entries[12...15] = [0, 0, 0, 1]; offset[3] = 0 }
                    return try ColorTransform.matrix(entries, offset: offset)
                }
            }
            let maps = try chain(colourOnly: false), colourOnly = try chain(colourOnly: true)
            for loop in ColorChainKernel.availableLoops {
                if ColorChainKernel(maps, loop: loop).loop == loop { fixedPoint[loop, default: 0] += 1 }
                try Self.check(maps, format: format, seed: UInt64(k + 10), loop: loop)
                try Self.check(colourOnly, format: format, seed: UInt64(k + 40), loop: loop)
            }
        }
        // The VNNI loop takes most of them. (The 16-bit loop takes few: it refuses alpha, and
        // the growth of its larger error through such gains; filterChains… checks it.)
        if ColorChainKernel.availableLoops.contains(.fixedPointVNNI) {
            #expect(fixedPoint[.fixedPointVNNI, default: 0] >= 20, "only \(fixedPoint) of 24 chains in fixed point")
        }
    }

    /// Chains of 2–5 colour filters with random params, each filter its own map (clamped between,
    /// the most the fusion leaves separate): every byte within the stated error in every loop,
    /// and the 16-bit loop takes most of them (not the longest with gains above 1, whose error it
    /// would grow past 0.25 LSB).
    @Test(arguments: [PixelFormat.rgba, .bgra])
    func filterChainsMatchTheDefinition(format: PixelFormat) throws {
        var units = SeededUnits(format == .rgba ? 0x51ED_2701 : 0x2545_F491)
        func unit() -> Double { units.next() }
        func filter() throws -> ColorTransform {
            switch Int(unit() * 8) {
            case 0: return .invert
            case 1: return try .sepia(intensity: unit())
            case 2: return try .grayscale(intensity: unit())
            case 3: return try .brightness(0.6 * unit() - 0.3)
            case 4: return try .contrast(0.4 + 1.4 * unit())
            case 5: return try .saturation(0.2 + 1.6 * unit())
            case 6: return try .exposure(ev: 2 * unit() - 1)
            default: return try .hue(degrees: 360 * unit())
            }
        }
        var in16 = 0
        for k in 0..<24 {
            let maps = try (0..<(2 + k % 4)).map { _ in try filter() }
            if ColorChainKernel(maps, loop: .fixedPoint16).loop == .fixedPoint16 { in16 += 1 }
            for loop in ColorChainKernel.availableLoops { try Self.check(maps, format: format, seed: UInt64(k + 70), loop: loop) }
        }
        if ColorChainKernel.availableLoops.contains(.fixedPoint16) {
            #expect(in16 >= 14, "only \(in16) of 24 filter chains in 16-bit fixed point")
        }
    }

    /// invert+sepia then contrast+saturation (the fusion's two maps for that chain): only the
    /// first map's red can leave 0…255 (on dark pixels). In fixed point 16 pixels whose red stays
    /// inside take the composition alone and any other step both maps with their clamp; the AVX2
    /// loops take the composition everywhere, corrected by what the clamp takes off red.
    /// Rows of pixels that all stay inside (bright), that all leave (dark), and the seeded mix:
    /// every byte within the stated error of the definition either way, in every loop this CPU
    /// has (the 16-bit one, like the float one, corrects the composition where red clamps).
    @Test(arguments: [PixelFormat.rgba, .bgra], ColorChainKernel.Loop.allCases)
    func twoMapsTakeTheirComposition(format: PixelFormat, loop: ColorChainKernel.Loop) throws {
        guard ColorChainKernel.availableLoops.contains(loop) else { return }
        let maps = [ColorTransform.invert.then(try ColorTransform.sepia()),
                    try ColorTransform.contrast(0.8).then(try ColorTransform.saturation(0.8))]
        let kernel = ColorChainKernel(maps, loop: loop)
        #expect(kernel.loop == loop)
        #expect(kernel.takesComposition)
        #expect(kernel.takesRankOne == (loop == .fixedPoint16))
        try Self.check(maps, format: format, seed: 7, loop: loop) { frame in
            for y in 0..<frame.height where y % 3 != 2 {
                for x in 0..<4 * frame.width {
                    let v = frame[plane: 0, x: x, y: y]
                    // bright rows: 70…255 (inverted red after sepia stays below 255); dark: 0…40
                    frame[plane: 0, x: x, y: y] = y % 3 == 0 ? 70 + v % 186 : v % 41
                }
            }
        }
    }

    /// Two maps whose first has rank one (sepia at full strength, grayscale, saturation 0, after
    /// invert, brightness, contrast or exposure; its channels leave 0…255 together or one alone)
    /// and a random second map: the 16-bit loop takes each as functions of one value, every byte within
    /// the stated error of the definition, dark and bright rows included (where the clamp acts
    /// and where it does not). Sepia at half strength has rank three: not taken so; sepia after a
    /// strong exposure, whose channels leave 0…255 at three values of y, is (four segments).
    @Test(arguments: [PixelFormat.rgba, .bgra])
    func rankOneFirstMapsRunAsFunctionsOfOneValue(format: PixelFormat) throws {
        guard ColorChainKernel.availableLoops.contains(.fixedPoint16) else { return }
        var units = SeededUnits(format == .rgba ? 0x1357_9BDF : 0x2468_ACE0)
        func unit() -> Double { units.next() }
        let firsts: [ColorTransform] = [
            ColorTransform.invert.then(try .sepia()), try .sepia(), try ColorTransform.grayscale().then(try .brightness(0.3)),
            try ColorTransform.brightness(-0.2).then(try .grayscale()), try ColorTransform.contrast(0.9).then(try .sepia()),
            try ColorTransform.saturation(0).then(try .contrast(1.6)), ColorTransform.invert.then(try .grayscale()).then(try .exposure(ev: 1)),
        ]
        for (k, first) in firsts.enumerated() {
            for n in 0..<3 {
                // the third with gains above 1 (errors grow with them)
                let second = try ColorTransform.contrast(n == 2 ? 1.5 : 0.5 + unit()).then(try .saturation(n == 2 ? 1.5 : 2 * unit()))
                    .then(try .hue(degrees: 360 * unit())).then(try .brightness(0.4 * unit() - 0.2))
                let maps = [first, second]
                let kernel = ColorChainKernel(maps, loop: .fixedPoint16)
                #expect(kernel.takesRankOne, "map \(k) with second map \(n) not taken as a function of one value")
                try Self.check(maps, format: format, seed: UInt64(100 + 3 * k + n), loop: .fixedPoint16, shape: Self.brightAndDarkRows)
            }
        }
        let halfSepia = [ColorTransform.invert.then(try .sepia(intensity: 0.5)), try ColorTransform.contrast(0.8)]
        #expect(!ColorChainKernel(halfSepia, loop: .fixedPoint16).takesRankOne)
        // sepia after exposure +0.8: its three channels leave 0…255 at three values of y (four segments)
        let threeClamps = [try ColorTransform.exposure(ev: 0.8).then(try .sepia()), try ColorTransform.contrast(0.8)]
        #expect(ColorChainKernel(threeClamps, loop: .fixedPoint16).takesRankOne)
        try Self.check(threeClamps, format: format, seed: 99, loop: .fixedPoint16)
    }

    /// Three and four maps whose first has rank one (grayscale or sepia, then contrast,
    /// brightness, saturation with random params, clamped between): every byte within the
    /// stated error of the definition in the 16-bit loop, and most run as functions of one value.
    @Test(arguments: [PixelFormat.rgba, .bgra])
    func longerChainsAfterARankOneMapMatchTheDefinition(format: PixelFormat) throws {
        guard ColorChainKernel.availableLoops.contains(.fixedPoint16) else { return }
        var units = SeededUnits(format == .rgba ? 0x7777_1234 : 0x3141_5926)
        func unit() -> Double { units.next() }
        var taken = 0
        for k in 0..<16 {
            let first = k % 2 == 0 ? try ColorTransform.grayscale().then(try .brightness(0.4 * unit() - 0.2))
                : ColorTransform.invert.then(try .sepia())
            var maps = [first, try ColorTransform.contrast(0.6 + unit()).then(try .brightness(0.3 * unit() - 0.15)),
                        try ColorTransform.saturation(1.5 * unit()).then(try .hue(degrees: 360 * unit()))]
            if k % 4 >= 2 { maps.append(try ColorTransform.contrast(0.8 + 0.5 * unit())) }
            if ColorChainKernel(maps, loop: .fixedPoint16).takesRankOne { taken += 1 }
            try Self.check(maps, format: format, seed: UInt64(300 + k), loop: .fixedPoint16, shape: Self.brightAndDarkRows)
        }
        #expect(taken >= 10, "only \(taken) of 16 chains as functions of one value")
    }

    /// Random colour matrices of rank one (rows v_i·w, random offsets) before a random second
    /// map: every byte within the stated error in the 16-bit loop, whichever form it takes; those
    /// whose rows are equal (one clamp for all three channels) and leave 0…255 run as functions
    /// of one value.
    @Test(arguments: [PixelFormat.rgba, .bgra])
    func randomRankOneMatricesMatchTheDefinition(format: PixelFormat) throws {
        guard ColorChainKernel.availableLoops.contains(.fixedPoint16) else { return }
        var units = SeededUnits(format == .rgba ? 0x0BAD_CAFE : 0x5EED_F00D)
        func unit() -> Double { units.next() }
        var taken = 0
        for k in 0..<16 {
            let equalRows = k % 2 == 0
            // Σ|w| ≥ 1.5: y spans more than 255, so it leaves 0…255
            let drawn = (0..<3).map { _ in 2 * unit() - 1 }
            let w = drawn.map { $0 * max(1, 1.5 / drawn.map(abs).reduce(0, +)) }
            let v = equalRows ? [1.0, 1.0, 1.0] : (0..<3).map { _ in 2.4 * unit() - 1.2 }
            let o = equalRows ? [Double](repeating: 0.6 * unit() - 0.3, count: 3) : (0..<3).map { _ in 0.6 * unit() - 0.3 }
            var entries = [Double](repeating: 0, count: 16)
            for i in 0..<3 { for j in 0..<3 { entries[4 * i + j] = v[i] * w[j] } }
            entries[15] = 1
            let first = try ColorTransform.matrix(entries, offset: o + [0])
            let second = try ColorTransform.contrast(0.5 + unit()).then(try .saturation(1.5 * unit())).then(try .hue(degrees: 360 * unit()))
            let maps = [first, second]
            let kernel = ColorChainKernel(maps, loop: .fixedPoint16)
            if kernel.takesRankOne { taken += 1 }
            if equalRows { #expect(kernel.takesRankOne, "equal rows \(k) not taken as a function of one value") }
            try Self.check(maps, format: format, seed: UInt64(200 + k), loop: .fixedPoint16)
        }
        #expect(taken >= 8, "only \(taken) of 16 rank-one chains as functions of one value")
    }

    /// Rows 0, 3, 6 bright (200…255), rows 1, 4, 7 dark (0…55), the rest as seeded: where
    /// channels after a rank-one map meet 255 and 0, and where they do not.
    static func brightAndDarkRows(_ frame: TestFrame) {
        for y in 0..<frame.height where y % 3 != 2 {
            for x in 0..<4 * frame.width {
                let v = frame[plane: 0, x: x, y: y]
                frame[plane: 0, x: x, y: y] = y % 3 == 0 ? 200 + v % 56 : v % 56
            }
        }
    }

    /// The kernel on a 67x9 frame (four 16-pixel steps and a tail of 3) against the definition:
    /// each byte is what rounding the exact value moved by at most the stated arithmetic error
    /// gives, so a tie may go either way but nothing else may.
    static func check(_ maps: [ColorTransform], format: PixelFormat, seed: UInt64, loop: ColorChainKernel.Loop? = nil,
                      shape: (TestFrame) -> Void = { _ in }) throws {
        let kernel = ColorChainKernel(maps, loop: loop)
        let tolerance = kernel.arithmeticError + 1e-9
        let writesAlpha = !maps.allSatisfy(\.keepsAlpha)
        let src = TestFrame(format, 67, 9, seed: seed)
        shape(src)
        let dst = TestFrame(format, 67, 9, seed: nil)
        try kernel.run(source: src.planesValue, destination: dst.planesValue, threads: 1)
        let order = format == .bgra ? [2, 1, 0, 3] : [0, 1, 2, 3]
        func byte(_ v: Double) -> Double { min(max(v.rounded(.toNearestOrEven), 0), 255) }
        var wrong = 0
        for y in 0..<9 {
            for x in 0..<67 {
                var p = SIMD4<Double>()
                for c in 0..<4 { p[c] = Double(src[plane: 0, x: 4 * x + order[c], y: y]) }
                let want = Self.reference(maps, p)
                for c in 0..<4 {
                    let got = Double(dst[plane: 0, x: 4 * x + order[c], y: y])
                    if c == 3 && !writesAlpha {
                        if got != p[3] { wrong += 1 }
                    } else if got < byte(want[c] - tolerance) || got > byte(want[c] + tolerance) {
                        wrong += 1
                    }
                }
            }
            // nothing written past the row
            for x in 4 * 67..<4 * 67 + 13 { #expect(dst[plane: 0, x: x, y: y] == TestFrame.sentinel) }
        }
        #expect(wrong == 0, "\(wrong) values further than \(tolerance) from the definition (\(maps.count) maps, \(String(describing: kernel.loop)))")
    }
}

/// Repeatable numbers in 0..<1 for the random chains (a 64-bit linear congruential generator).
struct SeededUnits {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}
