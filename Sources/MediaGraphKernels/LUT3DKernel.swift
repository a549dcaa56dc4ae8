import MediaGraphCore
import MediaGraphKernelsAVX2
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Applies a 3D LUT (`CubeLUT`) to rgba/bgra frames with trilinear or tetrahedral interpolation,
/// as ffmpeg's `lut3d` filter does (it truncates the result; we round to nearest, so the two
/// differ by at most 1). Alpha is copied.
///
/// Everything that depends on one input byte (grid index, neighbour step, fraction) is looked up
/// in per-channel tables of 256 entries built once, so a pixel costs 3 small look-ups, 4 or 8
/// grid loads and a few `SIMD4<Float>` multiply-adds.
public struct LUT3DKernel: Sendable {
    public enum Interpolation: String, CaseIterable, Sendable {
        case trilinear, tetrahedral
    }

    /// Pixel formats the kernel accepts.
    public static let formats: [PixelFormat] = [.rgba, .bgra]

    public let interpolation: Interpolation
    public let size: Int
    /// Grid colours ×255 in (r, g, b, 0) lanes, index r + g·size + b·size².
    private let grid: [SIMD4<Float>]
    /// For each channel (r, g, b) and input byte: grid offset of the lower point, offset to the
    /// upper one, and the fraction between them.
    private let axes: [Axis]

    typealias Axis = LUT3DAxis

    /// The row loops this kernel runs (AVX2+FMA only where the CPU has them).
    public let vectorPath: VectorPath

    /// How far the output can move, in output bytes per channel, when each input byte moves by
    /// one: Σ over r, g, b of the largest step between neighbouring grid colours along that axis
    /// times grid steps per input byte (both interpolations move along grid edges). An input that
    /// differs by d gives an output that differs by at most ⌊slope·d⌋ + 1 (`ColorMapFusion`).
    public let slope: Double

    /// `vectorPath` chooses the row loops (tests compare them); by default the CPU's best.
    public init(_ lut: CubeLUT, interpolation: Interpolation = .tetrahedral,
                vectorPath: VectorPath = .detected) {
        self.interpolation = interpolation
        self.vectorPath = vectorPath
        size = lut.size
        grid = lut.table.map { SIMD4($0.x * 255, $0.y * 255, $0.z * 255, 0) }
        var axes: [Axis] = []
        let n = lut.size
        let strides = [1, n, n * n]
        for c in 0..<3 {
            let lo = lut.domainMin[c], hi = lut.domainMax[c]
            for v in 0..<256 {
                let t = min(max((Double(v) / 255 - lo) / (hi - lo), 0), 1) * Double(n - 1)
                let i0 = min(Int(t), n - 1)
                let i1 = min(i0 + 1, n - 1)
                axes.append(Axis(low: Int32(i0 * strides[c]), step: Int32((i1 - i0) * strides[c]),
                                 fraction: Float(t - Double(i0))))
            }
        }
        self.axes = axes
        var slope = 0.0
        for c in 0..<3 {
            var largest: Float = 0
            let stride = strides[c]
            for i in grid.indices where (i / stride) % n + 1 < n {
                let step = grid[i + stride] - grid[i]
                largest = max(largest, abs(step.x), abs(step.y), abs(step.z))
            }
            slope += Double(largest) * Double(n - 1) / (255 * (lut.domainMax[c] - lut.domainMin[c]))
        }
        self.slope = slope
    }

    /// Applies the LUT from `source` into `destination` (same format and size; may be the same
    /// memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "lut3d", source: source, destination: destination,
                                accepted: Self.formats)
        // Bit position of red and blue in a little-endian pixel word.
        let redShift: UInt32 = source.format == .rgba ? 0 : 16
        let tetrahedral = interpolation == .tetrahedral
        let avx2 = vectorPath == .avx2 && CPUFeatures.hasAVX2FMA
        grid.withUnsafeBufferPointer { g in
            axes.withUnsafeBufferPointer { a in
                let grid = g.baseAddress!, axes = a.baseAddress!
                RowBands.run(rows: source.height, threads: threads) { band in
                    for y in band {
                        let s = UnsafeRawPointer(source.data0 + y * source.stride0)
                        let d = UnsafeMutableRawPointer(destination.data0 + y * destination.stride0)
                        #if arch(x86_64)
                        if avx2 {
                            lut3dRowAVX2(s, d, width: source.width, grid: grid, axes: axes,
                                         bgra: redShift != 0, tetrahedral: tetrahedral)
                            continue
                        }
                        #endif
                        if tetrahedral {
                            Self.tetrahedralRow(s, d, source.width, grid, axes, redShift)
                        } else {
                            Self.trilinearRow(s, d, source.width, grid, axes, redShift)
                        }
                    }
                }
            }
        }
    }

    // One loop per interpolation (the flag a literal inside each).
    @inline(__always)
    static func tetrahedralRow(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                               _ grid: UnsafePointer<SIMD4<Float>>, _ axes: UnsafePointer<Axis>, _ redShift: UInt32) {
        row(s, d, width, grid, axes, redShift, tetrahedral: true)
    }

    @inline(__always)
    static func trilinearRow(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                             _ grid: UnsafePointer<SIMD4<Float>>, _ axes: UnsafePointer<Axis>, _ redShift: UInt32) {
        row(s, d, width, grid, axes, redShift, tetrahedral: false)
    }

    @inline(__always)
    static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ width: Int,
                    _ grid: UnsafePointer<SIMD4<Float>>, _ axes: UnsafePointer<Axis>,
                    _ redShift: UInt32, tetrahedral: Bool) {
        let blueShift = 16 - redShift
        for x in 0..<width {
            let p = s.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
            let ar = axes[Int((p >> redShift) & 0xFF)]
            let ag = axes[256 + Int((p >> 8) & 0xFF)]
            let ab = axes[512 + Int((p >> blueShift) & 0xFF)]
            let c = tetrahedral ? tetra(grid, ar, ag, ab) : trilinear(grid, ar, ag, ab)
            let out = bytes(redShift == 0 ? c : SIMD4(c.z, c.y, c.x, c.w)) | (p & 0xFF00_0000)
            d.storeBytes(of: out, toByteOffset: 4 * x, as: UInt32.self)
        }
    }

    /// Lanes 0…2 of `c` as bytes 0…2 of a word (lane 3 is 0), each rounded to nearest and clamped
    /// to 0…255. On x86-64 a conversion and two saturating packs do all three lanes at once.
    @inline(__always)
    static func bytes(_ c: SIMD4<Float>) -> UInt32 {
        #if arch(x86_64)
        let i = _mm_cvtps_epi32(c)
        let w = _mm_packs_epi32(i, i)
        return UInt32(bitPattern: _mm_cvtsi128_si32(_mm_packus_epi16(w, w)))
        #else
        return toByte(c.x) | toByte(c.y) << 8 | toByte(c.z) << 16
        #endif
    }

    /// Rounds to nearest and clamps to 0…255 without branches: adding 1.5·2^23 leaves the rounded
    /// integer in the low mantissa bits (ties to even), then an integer clamp (compare-and-move).
    /// Float compares with branches here mispredicted often enough to cost a quarter of the time.
    @inline(__always)
    static func toByte(_ v: Float) -> UInt32 {
        let i = Int32(bitPattern: (v + 12_582_912).bitPattern) &- 0x4B40_0000
        let low = i > 0 ? i : 0
        return UInt32(bitPattern: low < 255 ? low : 255)
    }

    /// Interpolation inside the tetrahedron of the unit cube that holds the point (chosen by the
    /// order of the three fractions); 4 grid points.
    @inline(__always)
    static func tetra(_ grid: UnsafePointer<SIMD4<Float>>, _ r: Axis, _ g: Axis, _ b: Axis) -> SIMD4<Float> {
        let base = Int(r.low + g.low + b.low)
        let sr = Int(r.step), sg = Int(g.step), sb = Int(b.step)
        let fr = r.fraction, fg = g.fraction, fb = b.fraction
        let c000 = grid[base], c111 = grid[base + sr + sg + sb]
        if fr > fg {
            if fg > fb {
                return c000 * (1 - fr) + grid[base + sr] * (fr - fg) + grid[base + sr + sg] * (fg - fb) + c111 * fb
            } else if fr > fb {
                return c000 * (1 - fr) + grid[base + sr] * (fr - fb) + grid[base + sr + sb] * (fb - fg) + c111 * fg
            } else {
                return c000 * (1 - fb) + grid[base + sb] * (fb - fr) + grid[base + sr + sb] * (fr - fg) + c111 * fg
            }
        } else {
            if fb > fg {
                return c000 * (1 - fb) + grid[base + sb] * (fb - fg) + grid[base + sg + sb] * (fg - fr) + c111 * fr
            } else if fb > fr {
                return c000 * (1 - fg) + grid[base + sg] * (fg - fb) + grid[base + sg + sb] * (fb - fr) + c111 * fr
            } else {
                return c000 * (1 - fg) + grid[base + sg] * (fg - fr) + grid[base + sr + sg] * (fr - fb) + c111 * fb
            }
        }
    }

    /// Interpolation between the 8 corners of the cell: along red, then green, then blue.
    @inline(__always)
    static func trilinear(_ grid: UnsafePointer<SIMD4<Float>>, _ r: Axis, _ g: Axis, _ b: Axis) -> SIMD4<Float> {
        let base = Int(r.low + g.low + b.low)
        let sr = Int(r.step), sg = Int(g.step), sb = Int(b.step)
        #if arch(x86_64)
        // Plain vector instructions: from SIMD4 operators LLVM split the lanes and shuffled
        // them about (measured 1.8x slower).
        let fr = _mm_set1_ps(r.fraction), fg = _mm_set1_ps(g.fraction), fb = _mm_set1_ps(b.fraction)
        @inline(__always) func lerp(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: SIMD4<Float>) -> SIMD4<Float> {
            _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(b, a), t))
        }
        #else
        let fr = SIMD4(repeating: r.fraction), fg = SIMD4(repeating: g.fraction), fb = SIMD4(repeating: b.fraction)
        @inline(__always) func lerp(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: SIMD4<Float>) -> SIMD4<Float> {
            a + (b - a) * t
        }
        #endif
        let c00 = lerp(grid[base], grid[base + sr], fr)
        let c10 = lerp(grid[base + sg], grid[base + sr + sg], fr)
        let c01 = lerp(grid[base + sb], grid[base + sr + sb], fr)
        let c11 = lerp(grid[base + sg + sb], grid[base + sr + sg + sb], fr)
        return lerp(lerp(c00, c10, fg), lerp(c01, c11, fg), fb)
    }
}
