import MediaGraphCore
import MediaGraphKernelsAVX2

/// Runs several colour maps on rgba/bgra frames in one pass: each pixel goes through every map
/// in turn in Float, clamped to 0…255 between maps but not rounded, then rounded once to 8 bits
/// (ties to even) and clamped. One map is `ColorMatrixKernel` itself.
///
/// The fusion of colour filters composes every stretch whose intermediates cannot leave 0…1
/// into one map (`ColorTransform.then`), so a map here ends where a clamp is needed. On AVX2+FMA
/// CPUs C loops take every map in registers (`Loop`, the fastest that fits): on CPUs with
/// AVX-512 VNNI in 32-bit fixed point (`ColorChainFixedPoint`, 16 pixels per step in integer dot
/// products); else, for colour-only maps, in 16-bit fixed point (`ColorChainFixed16`, 16 pixels
/// per step, each channel in 16-bit lanes); else in Float (`colorChainRowAVX2`, 8 pixels per
/// step). Each adds `arithmeticError` to what the fusion states. Elsewhere pixels
/// go through in chunks (unpacked to four Float rows on the stack, each map one loop over the
/// chunk, then packed), which does not vectorize and is slower than separate passes —
/// `isOnePassFast` says which, and the fusion plans accordingly. Two maps whose first can leave
/// 0…255 in few channels take their composition: in the VNNI loop wherever 16 pixels keep the
/// first map inside its clamp range (no clamp would act); in the Float and 16-bit loops
/// everywhere, corrected by what the clamp takes off the one channel that can leave the range.
/// Maps whose first has rank one run in the 16-bit loop as piecewise-linear functions of one
/// value (`ColorChainRankOne`), any number of maps.
public struct ColorChainKernel: Sendable {
    /// The maps, first applied first.
    public let transforms: [ColorTransform]
    private let single: ColorMatrixKernel?
    private let rgba: [ColorMatrixKernel.Matrix]
    private let bgra: [ColorMatrixKernel.Matrix]
    private let rgbaStorage: [[Float]]
    private let bgraStorage: [[Float]]
    private let keepsAlpha: Bool
    /// Every map's 20 coefficients one after another, for the AVX2 loop.
    private let rgbaFlat: [Float]
    private let bgraFlat: [Float]
    /// Whether a map reads alpha (for a colour-only chain).
    private let readsAlpha: Bool
    private let avx2: Bool
    /// The fixed-point form for each memory order, where it runs.
    private let rgbaFixed: ColorChainFixedPoint?
    private let bgraFixed: ColorChainFixedPoint?
    /// The 16-bit fixed-point form (AVX2) for each memory order, where it runs.
    private let rgbaFixed16: ColorChainFixed16?
    private let bgraFixed16: ColorChainFixed16?
    /// For two maps in the AVX2 loop, per memory order: their composition and the first map's
    /// one channel that can leave 0…255.
    private let rgbaShortcut: FloatShortcut?
    private let bgraShortcut: FloatShortcut?

    struct FloatShortcut {
        let coefficients: [Float]
        /// The one channel (memory order) of the first map that can leave 0…255.
        let tested: Int32

        /// nil unless two maps of which the first can take exactly one channel out of 0…255 (by
        /// more than Float's rounding, 10⁻⁴: skipping its clamp changes nothing the bounds' margin
        /// sees). With more such channels the correction costs more than applying both maps.
        init?(_ transforms: [ColorTransform], order: [Int], keepsAlpha: Bool) {
            guard transforms.count == 2 else { return nil }
            let first = ColorMatrixKernel.coefficients(transforms[0], order: order)
            let outputs = keepsAlpha ? 3 : 4
            let leaving = (0..<outputs).filter { c in
                var least = Double(first[16 + c]), most = least
                for k in 0..<4 {
                    least += 255 * min(0, Double(first[4 * c + k]))
                    most += 255 * max(0, Double(first[4 * c + k]))
                }
                return least < -1e-4 || most > 255 + 1e-4
            }
            guard leaving.count == 1 else { return nil }
            coefficients = ColorMatrixKernel.coefficients(transforms[0].then(transforms[1]), order: order)
            tested = Int32(leaving[0])
        }
    }

    /// The largest difference the kernel's arithmetic adds to the maps computed exactly, before
    /// the final rounding, in LSB: the fixed-point form's where it runs, else Float's
    /// (`floatError`; 0 for one map, which is its own stage-by-stage reference).
    public var arithmeticError: Double {
        if single != nil { return 0 }
        let fixed = [rgbaFixed?.error, bgraFixed?.error, rgbaFixed16?.error, bgraFixed16?.error].compactMap { $0 }
        return fixed.isEmpty ? Self.floatError(transforms) : fixed.max()!
    }

    /// A bound on what Float's rounding (unit 2⁻²⁴) adds: per map and channel at most eight
    /// roundings of the largest partial sum |o| + 255·Σ|c| (the coefficients' own, four
    /// multiply-adds, and as many again for a two-map composition and its correction), grown by
    /// the gains of the maps after it. About 10⁻⁴ LSB for the filters' maps; with a `colormatrix`
    /// of large entries it reaches hundredths.
    static func floatError(_ transforms: [ColorTransform]) -> Double {
        var total = 0.0, growth = 1.0
        for t in transforms.reversed() {
            let rows = t.effectiveRows, offset = t.effectiveOffset * 255
            let largestSum = (0..<4).map { abs(offset[$0]) + 255 * (abs(rows[$0][0]) + abs(rows[$0][1]) + abs(rows[$0][2]) + abs(rows[$0][3])) }.max()!
            total += 8 * largestSum * growth
            growth *= t.gain
        }
        return total * 0x1p-24
    }

    /// The vector row loops a chain of maps runs in.
    public enum Loop: Sendable, CaseIterable {
        /// 16 pixels a step in 32-bit integer dot products (AVX-512 VNNI; `ColorChainFixedPoint`).
        case fixedPointVNNI
        /// 16 pixels a step, each channel in 16-bit lanes (AVX2; `ColorChainFixed16`).
        case fixedPoint16
        /// 8 pixels a step in Float (AVX2 and FMA).
        case float
    }

    /// The loops this CPU has, fastest first.
    public static var availableLoops: [Loop] {
        guard isOnePassFast else { return [] }
        return (CPUFeatures.hasAVX512VNNI ? [.fixedPointVNNI] : []) + [.fixedPoint16, .float]
    }

    /// The loop the maps run in here: nil for one map (`ColorMatrixKernel`) or where no vector
    /// loop runs (the portable chunks).
    public var loop: Loop? {
        if single != nil { return nil }
        if rgbaFixed != nil { return .fixedPointVNNI }
        if rgbaFixed16 != nil { return .fixedPoint16 }
        return avx2 ? .float : nil
    }

    /// Whether two maps take their composition here (see the type's description) rather than
    /// each in turn.
    public var takesComposition: Bool {
        switch loop {
        case .fixedPointVNNI: rgbaFixed?.shortcut != nil
        case .float: rgbaShortcut != nil
        case .fixedPoint16: rgbaFixed16?.pair != nil || rgbaFixed16?.rankOne != nil
        default: false
        }
    }

    /// Whether the maps run as piecewise-linear functions of one value because the first has
    /// rank one (the 16-bit loop; `ColorChainRankOne`).
    public var takesRankOne: Bool { loop == .fixedPoint16 && rgbaFixed16?.rankOne != nil }

    /// `arithmeticError` of the kernel these maps would make.
    public static func arithmeticError(_ transforms: [ColorTransform]) -> Double {
        ColorChainKernel(transforms).arithmeticError
    }

    /// Whether several maps run in one pass at about the price of one (the AVX2 loop runs here).
    public static var isOnePassFast: Bool { VectorPath.detected == .avx2 && CPUFeatures.hasAVX2FMA }

    /// `loop`: the vector loop to run in, if this CPU has it and the maps fit it (tests); by
    /// default the fastest that does. A loop the maps do not fit falls back to the Float one.
    public init(_ transforms: [ColorTransform], loop requested: Loop? = nil) {
        self.transforms = transforms
        single = transforms.count == 1 ? ColorMatrixKernel(transforms[0]) : nil
        rgbaStorage = transforms.map { ColorMatrixKernel.coefficients($0, order: [0, 1, 2, 3]) }
        bgraStorage = transforms.map { ColorMatrixKernel.coefficients($0, order: [2, 1, 0, 3]) }
        rgba = rgbaStorage.map { c in c.withUnsafeBufferPointer { ColorMatrixKernel.Matrix($0) } }
        bgra = bgraStorage.map { c in c.withUnsafeBufferPointer { ColorMatrixKernel.Matrix($0) } }
        keepsAlpha = transforms.allSatisfy(\.keepsAlpha)
        rgbaFlat = rgbaStorage.flatMap { $0 }
        bgraFlat = bgraStorage.flatMap { $0 }
        readsAlpha = rgbaStorage.contains { $0[3] != 0 || $0[7] != 0 || $0[11] != 0 }
        avx2 = Self.isOnePassFast
        let loops = Self.availableLoops.filter { requested == nil || $0 == requested }
        let vnniRGBA = loops.contains(.fixedPointVNNI) ? ColorChainFixedPoint(transforms, order: [0, 1, 2, 3], keepsAlpha: keepsAlpha) : nil
        let vnniBGRA = loops.contains(.fixedPointVNNI) ? ColorChainFixedPoint(transforms, order: [2, 1, 0, 3], keepsAlpha: keepsAlpha) : nil
        let vnni = vnniRGBA != nil && vnniBGRA != nil
        rgbaFixed = vnni ? vnniRGBA : nil
        bgraFixed = vnni ? vnniBGRA : nil
        let sixteen = !vnni && loops.contains(.fixedPoint16)
        let fixed16RGBA = sixteen ? ColorChainFixed16(transforms, order: [0, 1, 2, 3]) : nil
        let fixed16BGRA = sixteen ? ColorChainFixed16(transforms, order: [2, 1, 0, 3]) : nil
        let has16 = fixed16RGBA != nil && fixed16BGRA != nil
        rgbaFixed16 = has16 ? fixed16RGBA : nil
        bgraFixed16 = has16 ? fixed16BGRA : nil
        rgbaShortcut = avx2 ? FloatShortcut(transforms, order: [0, 1, 2, 3], keepsAlpha: keepsAlpha) : nil
        bgraShortcut = avx2 ? FloatShortcut(transforms, order: [2, 1, 0, 3], keepsAlpha: keepsAlpha) : nil
    }

    /// Whether the maps together change nothing.
    public var isIdentity: Bool { transforms.allSatisfy(\.isIdentity) }

    /// Applies the maps from `source` into `destination` (same format and size; may be the same
    /// memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        if let single { return try single.run(source: source, destination: destination, threads: threads) }
        try FrameCheck.validate(kernel: "colorchain", source: source, destination: destination, accepted: ColorMatrixKernel.formats)
        let maps = source.format == .bgra ? bgra : rgba
        let keepsAlpha = keepsAlpha
        let width = source.width
        #if arch(x86_64)
        if let fixed = source.format == .bgra ? bgraFixed : rgbaFixed {
            let count = Int32(transforms.count)
            fixed.words.withUnsafeBufferPointer { words in
                (fixed.shortcut ?? []).withUnsafeBufferPointer { shortcut in
                    Self.eachRow(source, destination, threads: threads, maps: maps, keepsAlpha: keepsAlpha) { s, d in
                        colorChainRowVNNI(s, d, width: width, words: words.baseAddress!, count: count,
                                          keepAlpha: keepsAlpha, shortcut: shortcut.isEmpty ? nil : shortcut.baseAddress)
                    }
                }
            }
            return
        }
        if let fixed = source.format == .bgra ? bgraFixed16 : rgbaFixed16 {
            let count = Int32(transforms.count)
            fixed.words.withUnsafeBufferPointer { words in
                (fixed.rankOne?.words ?? fixed.pair ?? []).withUnsafeBufferPointer { composed in
                    let segments = Int32(fixed.rankOne?.segments ?? 0)
                    Self.eachRow(source, destination, threads: threads, maps: maps, keepsAlpha: true) { s, d in
                        if composed.isEmpty { return colorChainRowFixed16(s, d, width: width, maps: words.baseAddress!, count: count) }
                        return segments > 0 ? colorChainRankOneFixed16(s, d, width: width, words: composed.baseAddress!, segments: segments)
                            : colorChainPairFixed16(s, d, width: width, pair: composed.baseAddress!)
                    }
                }
            }
            return
        }
        if avx2 {
            let flat = source.format == .bgra ? bgraFlat : rgbaFlat
            let shortcut = source.format == .bgra ? bgraShortcut : rgbaShortcut
            let count = Int32(transforms.count), readsAlpha = readsAlpha || !keepsAlpha, tested = shortcut?.tested ?? 0
            flat.withUnsafeBufferPointer { k in
                (shortcut?.coefficients ?? []).withUnsafeBufferPointer { composed in
                    Self.eachRow(source, destination, threads: threads, maps: maps, keepsAlpha: keepsAlpha) { s, d in
                        colorChainRowAVX2(s, d, width: width, coefficients: k.baseAddress!, count: count,
                                          keepAlpha: keepsAlpha, readAlpha: readsAlpha,
                                          shortcut: composed.isEmpty ? nil : composed.baseAddress, tested: tested)
                    }
                }
            }
            return
        }
        #endif
        _ = maps.withUnsafeBufferPointer { maps in
            RowBands.run(rows: source.height, threads: threads) { band in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * Self.chunk) { buffer in
                    let c = buffer.baseAddress!
                    for y in band {
                        let s = UnsafeRawPointer(source.data0 + y * source.stride0)
                        let d = UnsafeMutableRawPointer(destination.data0 + y * destination.stride0)
                        var x = 0
                        while x < width {
                            let n = min(Self.chunk, width - x)
                            Self.unpack(s + 4 * x, n, c)
                            for k in 0..<maps.count {
                                if keepsAlpha {
                                    Self.applyRGB(maps[k], n, c, clamp: k < maps.count - 1)
                                } else {
                                    Self.applyRGBA(maps[k], n, c, clamp: k < maps.count - 1)
                                }
                            }
                            if keepsAlpha { Self.packKeepingAlpha(s + 4 * x, d + 4 * x, n, c) } else { Self.pack(d + 4 * x, n, c) }
                            x += n
                        }
                    }
                }
            }
        }
    }

    /// Every row of the frame in bands: `row` does what its vector loop can of the row and says
    /// how many pixels that was; the portable tail does the rest.
    static func eachRow(_ source: FramePlanes, _ destination: FramePlanes, threads: Int, maps: [ColorMatrixKernel.Matrix],
                        keepsAlpha: Bool, _ row: (UnsafeRawPointer, UnsafeMutableRawPointer) -> Int) {
        let width = source.width
        maps.withUnsafeBufferPointer { maps in
            _ = RowBands.run(rows: source.height, threads: threads) { band in
                for y in band {
                    let s = UnsafeRawPointer(source.data0 + y * source.stride0)
                    let d = UnsafeMutableRawPointer(destination.data0 + y * destination.stride0)
                    let done = row(s, d)
                    if done < width { rowTail(s + 4 * done, d + 4 * done, width - done, maps, keepsAlpha) }
                }
            }
        }
    }

    /// The last pixels of a row (fewer than 32) the portable way.
    static func rowTail(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ n: Int,
                        _ maps: UnsafeBufferPointer<ColorMatrixKernel.Matrix>, _ keepsAlpha: Bool) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * chunk) { buffer in
            let c = buffer.baseAddress!
            unpack(s, n, c)
            for k in 0..<maps.count {
                if keepsAlpha {
                    applyRGB(maps[k], n, c, clamp: k < maps.count - 1)
                } else {
                    applyRGBA(maps[k], n, c, clamp: k < maps.count - 1)
                }
            }
            if keepsAlpha { packKeepingAlpha(s, d, n, c) } else { pack(d, n, c) }
        }
    }

    /// Pixels per chunk: four Float rows of it (4 KiB) stay in L1.
    static let chunk = 256

    /// Bytes 0…3 of each pixel into rows c[0..<chunk], c[chunk..<2chunk], … (memory order).
    @inline(never)
    static func unpack(_ s: UnsafeRawPointer, _ n: Int, _ c: UnsafeMutablePointer<Float>) {
        let c1 = c + chunk, c2 = c + 2 * chunk, c3 = c + 3 * chunk
        for i in 0..<n {
            let p = s.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)
            c[i] = Float(Int32(bitPattern: p & 0xFF))
            c1[i] = Float(Int32(bitPattern: (p >> 8) & 0xFF))
            c2[i] = Float(Int32(bitPattern: (p >> 16) & 0xFF))
            c3[i] = Float(Int32(bitPattern: p >> 24))
        }
    }

    /// One map on the colour rows (alpha kept), clamped to 0…255 when another map follows.
    @inline(never)
    static func applyRGB(_ m: ColorMatrixKernel.Matrix, _ n: Int, _ c: UnsafeMutablePointer<Float>, clamp: Bool) {
        let c1 = c + chunk, c2 = c + 2 * chunk, c3 = c + 3 * chunk
        let readsAlpha = m.m03 != 0 || m.m13 != 0 || m.m23 != 0
        for i in 0..<n {
            let v0 = c[i], v1 = c1[i], v2 = c2[i]
            var r0 = m.m00 * v0 + m.m01 * v1 + m.m02 * v2 + m.o0
            var r1 = m.m10 * v0 + m.m11 * v1 + m.m12 * v2 + m.o1
            var r2 = m.m20 * v0 + m.m21 * v1 + m.m22 * v2 + m.o2
            if readsAlpha {
                let a = c3[i]
                r0 += m.m03 * a
                r1 += m.m13 * a
                r2 += m.m23 * a
            }
            if clamp {
                r0 = clamp255(r0)
                r1 = clamp255(r1)
                r2 = clamp255(r2)
            }
            c[i] = r0
            c1[i] = r1
            c2[i] = r2
        }
    }

    /// One map on all four rows.
    @inline(never)
    static func applyRGBA(_ m: ColorMatrixKernel.Matrix, _ n: Int, _ c: UnsafeMutablePointer<Float>, clamp: Bool) {
        let c1 = c + chunk, c2 = c + 2 * chunk, c3 = c + 3 * chunk
        for i in 0..<n {
            let v0 = c[i], v1 = c1[i], v2 = c2[i], v3 = c3[i]
            var r0 = m.m00 * v0 + m.m01 * v1 + m.m02 * v2 + m.m03 * v3 + m.o0
            var r1 = m.m10 * v0 + m.m11 * v1 + m.m12 * v2 + m.m13 * v3 + m.o1
            var r2 = m.m20 * v0 + m.m21 * v1 + m.m22 * v2 + m.m23 * v3 + m.o2
            var r3 = m.m30 * v0 + m.m31 * v1 + m.m32 * v2 + m.m33 * v3 + m.o3
            if clamp {
                r0 = clamp255(r0)
                r1 = clamp255(r1)
                r2 = clamp255(r2)
                r3 = clamp255(r3)
            }
            c[i] = r0
            c1[i] = r1
            c2[i] = r2
            c3[i] = r3
        }
    }

    /// `v > 0 ? v : 0` then `v < 255 ? v : 255`: the forms LLVM turns into maxps/minps.
    @inline(__always)
    static func clamp255(_ v: Float) -> Float {
        let low = v > 0 ? v : 0
        return low < 255 ? low : 255
    }

    /// Rounds and clamps the colour rows into bytes 0…2, alpha copied from the source pixel.
    @inline(never)
    static func packKeepingAlpha(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ n: Int, _ c: UnsafeMutablePointer<Float>) {
        let c1 = c + chunk, c2 = c + 2 * chunk
        for i in 0..<n {
            let alpha = s.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) & 0xFF00_0000
            let p = ColorMatrixKernel.toByte(c[i]) | ColorMatrixKernel.toByte(c1[i]) << 8 | ColorMatrixKernel.toByte(c2[i]) << 16
            d.storeBytes(of: p | alpha, toByteOffset: 4 * i, as: UInt32.self)
        }
    }

    /// Rounds and clamps all four rows into bytes.
    @inline(never)
    static func pack(_ d: UnsafeMutableRawPointer, _ n: Int, _ c: UnsafeMutablePointer<Float>) {
        let c1 = c + chunk, c2 = c + 2 * chunk, c3 = c + 3 * chunk
        for i in 0..<n {
            let p = ColorMatrixKernel.toByte(c[i]) | ColorMatrixKernel.toByte(c1[i]) << 8
                | ColorMatrixKernel.toByte(c2[i]) << 16 | ColorMatrixKernel.toByte(c3[i]) << 24
            d.storeBytes(of: p, toByteOffset: 4 * i, as: UInt32.self)
        }
    }
}
