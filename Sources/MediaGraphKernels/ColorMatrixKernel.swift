import MediaGraphCore
import MediaGraphKernelsAVX2

/// Runs a `ColorTransform` on rgba/bgra frames: every pixel's (r, g, b, a) goes through one 4x4
/// matrix and offset, clamped to 0…255 and rounded to nearest (ties to even).
///
/// The row loop is written per pixel in Float, four pixels per step, and vectorized by LLVM.
/// When the transform keeps alpha, alpha bytes are copied bit-exactly.
public struct ColorMatrixKernel: Sendable {
    /// Pixel formats the kernel accepts.
    public static let formats: [PixelFormat] = [.rgba, .bgra]

    /// The transform this kernel applies.
    public let transform: ColorTransform
    /// Coefficients in memory channel order, for rgba and for bgra: 4 rows of 4, then 4 offsets
    /// (in 0…255 units).
    private let rgbaCoefficients: [Float]
    private let bgraCoefficients: [Float]
    private let keepsAlpha: Bool

    /// `vectorPath` chooses the row loops (tests compare them); by default the CPU's best.
    public init(_ transform: ColorTransform, vectorPath: VectorPath = .detected) {
        self.transform = transform
        self.vectorPath = vectorPath
        keepsAlpha = transform.keepsAlpha
        rgbaCoefficients = Self.coefficients(transform, order: [0, 1, 2, 3])
        bgraCoefficients = Self.coefficients(transform, order: [2, 1, 0, 3])
    }

    /// `order[k]` is the colour channel (0 r, 1 g, 2 b, 3 a) stored in byte k of a pixel.
    static func coefficients(_ t: ColorTransform, order: [Int]) -> [Float] {
        let rows = t.effectiveRows, offset = t.effectiveOffset
        var c: [Float] = []
        for i in 0..<4 {
            for j in 0..<4 { c.append(Float(rows[order[i]][order[j]])) }
        }
        for i in 0..<4 { c.append(Float(offset[order[i]] * 255)) }
        return c
    }

    /// Applies the transform from `source` into `destination` (same format and size; may be the
    /// same memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "colormatrix", source: source, destination: destination,
                                accepted: Self.formats)
        let coefficients = source.format == .bgra ? bgraCoefficients : rgbaCoefficients
        let keepsAlpha = keepsAlpha
        // Most colour filters ignore alpha as an input: skipping it saves a quarter of the maths.
        let readsAlpha = coefficients[3] != 0 || coefficients[7] != 0 || coefficients[11] != 0
        let avx2 = vectorPath == .avx2 && CPUFeatures.hasAVX2FMA
        coefficients.withUnsafeBufferPointer { c in
            let m = Matrix(c)
            #if arch(x86_64)
            if avx2 {
                let base = c.baseAddress!
                RowBands.run(rows: source.height, threads: threads) { band in
                    for y in band {
                        let s = UnsafeRawPointer(source.data0 + y * source.stride0)
                        let d = UnsafeMutableRawPointer(destination.data0 + y * destination.stride0)
                        let done = colorMatrixRowAVX2(s, d, width: source.width, coefficients: base,
                                                      keepAlpha: keepsAlpha, readAlpha: readsAlpha)
                        if done < source.width {
                            Self.row(s + 4 * done, d + 4 * done, width: source.width - done, m, keepsAlpha, readsAlpha)
                        }
                    }
                }
                return
            }
            #endif
            RowBands.run(rows: source.height, threads: threads) { band in
                for y in band {
                    let s = UnsafeRawPointer(source.data0 + y * source.stride0)
                    let d = UnsafeMutableRawPointer(destination.data0 + y * destination.stride0)
                    if s != UnsafeRawPointer(d) || Self.vectorRowsAllowInPlace {
                        Self.row(s, d, width: source.width, m, keepsAlpha, readsAlpha)
                    } else {
                        // In place, LLVM's overlap check sends the loop to its slow unvectorized
                        // version (measured 2x slower); going through a small copy in L1 keeps the
                        // source and destination of the fast loop apart.
                        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.chunk) { buffer in
                            let b = UnsafeMutableRawPointer(buffer.baseAddress!)
                            var x = 0
                            while x < source.width {
                                let n = min(Self.chunk, source.width - x)
                                b.copyMemory(from: s + 4 * x, byteCount: 4 * n)
                                Self.row(UnsafeRawPointer(b), d + 4 * x, width: n, m, keepsAlpha, readsAlpha)
                                x += n
                            }
                        }
                    }
                }
            }
        }
    }

    /// Pixels per step of the in-place path (1 KiB on the stack).
    static let chunk = 256

    /// The path this kernel runs (AVX2 only where the CPU has it).
    public let vectorPath: VectorPath

    /// The SSE2 rows load a whole step before storing it, so they run in place as they are.
    #if arch(x86_64)
    static let vectorRowsAllowInPlace = true
    #else
    static let vectorRowsAllowInPlace = false
    #endif

    /// Each case gets its own specialised loop (the Bools are constants inside each).
    @inline(__always)
    static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, width: Int, _ m: Matrix,
                    _ keepsAlpha: Bool, _ readsAlpha: Bool) {
        switch (keepsAlpha, readsAlpha) {
        case (true, false): rowKeepingAlpha(s, d, width: width, m)
        case (true, true): rowReadingAlpha(s, d, width: width, m)
        default: rowWritingAlpha(s, d, width: width, m)
        }
    }

    /// The coefficients as scalars (kept in registers across a row).
    struct Matrix {
        let m00, m01, m02, m03, m10, m11, m12, m13: Float
        let m20, m21, m22, m23, m30, m31, m32, m33: Float
        let o0, o1, o2, o3: Float
        init(_ c: UnsafeBufferPointer<Float>) {
            m00 = c[0]; m01 = c[1]; m02 = c[2]; m03 = c[3]
            m10 = c[4]; m11 = c[5]; m12 = c[6]; m13 = c[7]
            m20 = c[8]; m21 = c[9]; m22 = c[10]; m23 = c[11]
            m30 = c[12]; m31 = c[13]; m32 = c[14]; m33 = c[15]
            o0 = c[16]; o1 = c[17]; o2 = c[18]; o3 = c[19]
        }
    }

    // One compiled loop per case: with the flags as literals inside, each loop is specialised
    // (a runtime flag inside the loop stopped the vectorizer and cost 3x).
    @inline(never)
    static func rowKeepingAlpha(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, width: Int, _ m: Matrix) {
        row(s, d, width: width, m, keepAlpha: true, readAlpha: false)
    }

    @inline(never)
    static func rowReadingAlpha(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, width: Int, _ m: Matrix) {
        row(s, d, width: width, m, keepAlpha: true, readAlpha: true)
    }

    @inline(never)
    static func rowWritingAlpha(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, width: Int, _ m: Matrix) {
        row(s, d, width: width, m, keepAlpha: false, readAlpha: true)
    }

    /// Four pixels per iteration, all four loaded before any is stored, so source and
    /// destination may be the same memory; LLVM's SLP vectorizer turns the four identical pixel
    /// computations into 4-lane vector code (Swift's generic SIMD conversions would not).
    @inline(__always)
    static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, width: Int, _ m: Matrix,
                    keepAlpha: Bool, readAlpha: Bool) {
        #if arch(x86_64)
        var x = ColorMatrixSSE2.row(s, d, width: width, m, keepAlpha: keepAlpha, readAlpha: readAlpha)
        #else
        var x = 0
        #endif
        while x + 4 <= width {
            let p0 = s.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
            let p1 = s.loadUnaligned(fromByteOffset: 4 * x + 4, as: UInt32.self)
            let p2 = s.loadUnaligned(fromByteOffset: 4 * x + 8, as: UInt32.self)
            let p3 = s.loadUnaligned(fromByteOffset: 4 * x + 12, as: UInt32.self)
            let q0 = pixel(p0, m, keepAlpha, readAlpha), q1 = pixel(p1, m, keepAlpha, readAlpha)
            let q2 = pixel(p2, m, keepAlpha, readAlpha), q3 = pixel(p3, m, keepAlpha, readAlpha)
            d.storeBytes(of: q0, toByteOffset: 4 * x, as: UInt32.self)
            d.storeBytes(of: q1, toByteOffset: 4 * x + 4, as: UInt32.self)
            d.storeBytes(of: q2, toByteOffset: 4 * x + 8, as: UInt32.self)
            d.storeBytes(of: q3, toByteOffset: 4 * x + 12, as: UInt32.self)
            x += 4
        }
        while x < width {
            let p = s.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
            d.storeBytes(of: pixel(p, m, keepAlpha, readAlpha), toByteOffset: 4 * x, as: UInt32.self)
            x += 1
        }
    }

    @inline(__always)
    static func pixel(_ p: UInt32, _ m: Matrix, _ keepAlpha: Bool, _ readAlpha: Bool) -> UInt32 {
        let c0 = Float(Int32(bitPattern: p & 0xFF))
        let c1 = Float(Int32(bitPattern: (p >> 8) & 0xFF))
        let c2 = Float(Int32(bitPattern: (p >> 16) & 0xFF))
        let c3 = Float(Int32(bitPattern: p >> 24))
        var r0 = m.m00 * c0 + m.m01 * c1 + m.m02 * c2 + m.o0
        var r1 = m.m10 * c0 + m.m11 * c1 + m.m12 * c2 + m.o1
        var r2 = m.m20 * c0 + m.m21 * c1 + m.m22 * c2 + m.o2
        if readAlpha {
            r0 += m.m03 * c3
            r1 += m.m13 * c3
            r2 += m.m23 * c3
        }
        let rgb = toByte(r0) | toByte(r1) << 8 | toByte(r2) << 16
        if keepAlpha { return rgb | (p & 0xFF00_0000) }
        let r3 = m.m30 * c0 + m.m31 * c1 + m.m32 * c2 + m.m33 * c3 + m.o3
        return rgb | toByte(r3) << 24
    }

    /// Rounds to nearest and clamps to 0…255. Adding 1.5·2^23 puts the rounded integer in the
    /// low mantissa bits (exact for |v| < 2^22, far beyond any valid matrix): one vector add,
    /// where Swift's Float-to-Int conversion brings range checks along; the clamp is done on
    /// integers (Float min/max with NaN rules measured 2.5x slower). Ties round to even, so an
    /// exact .5 may go either way: within the documented 1 LSB.
    @inline(__always)
    static func toByte(_ v: Float) -> UInt32 {
        let i = Int32(bitPattern: (v + 12_582_912).bitPattern) &- 0x4B40_0000
        let low = i > 0 ? i : 0
        return UInt32(bitPattern: low < 255 ? low : 255)
    }
}
