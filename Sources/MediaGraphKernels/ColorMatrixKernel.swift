import MediaGraphCore

/// Runs a `ColorTransform` on rgba/bgra frames: every pixel's (r, g, b, a) goes through one 4x4
/// matrix and offset, clamped to 0…255 and rounded to nearest (halves up).
///
/// Eight pixels at a time: channels are split out of `SIMD8<UInt32>` lanes, the matrix runs in
/// `SIMD8<Float>` (16 multiply-adds per 8 pixels) and the bytes are packed back. When the
/// transform keeps alpha, alpha bytes are copied bit-exactly.
public struct ColorMatrixKernel: Sendable {
    /// Pixel formats the kernel accepts.
    public static let formats: [PixelFormat] = [.rgba, .bgra]

    /// The transform this kernel applies.
    public let transform: ColorTransform
    /// Coefficients in memory channel order, for rgba and for bgra: 4 rows of 4, then 4 offsets
    /// (in 0…255 units, with the +0.5 of rounding folded in).
    private let rgbaCoefficients: [Float]
    private let bgraCoefficients: [Float]
    private let keepsAlpha: Bool

    public init(_ transform: ColorTransform) {
        self.transform = transform
        keepsAlpha = transform.keepsAlpha
        rgbaCoefficients = Self.coefficients(transform, order: [0, 1, 2, 3])
        bgraCoefficients = Self.coefficients(transform, order: [2, 1, 0, 3])
    }

    /// `order[k]` is the colour channel (0 r, 1 g, 2 b, 3 a) stored in byte k of a pixel.
    private static func coefficients(_ t: ColorTransform, order: [Int]) -> [Float] {
        let rows = t.effectiveRows, offset = t.effectiveOffset
        var c: [Float] = []
        for i in 0..<4 {
            for j in 0..<4 { c.append(Float(rows[order[i]][order[j]])) }
        }
        for i in 0..<4 { c.append(Float(offset[order[i]] * 255 + 0.5)) }
        return c
    }

    /// Applies the transform from `source` into `destination` (same format and size; may be the
    /// same memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "colormatrix", source: source, destination: destination,
                                accepted: Self.formats)
        let coefficients = source.format == .bgra ? bgraCoefficients : rgbaCoefficients
        let keepsAlpha = keepsAlpha
        coefficients.withUnsafeBufferPointer { c in
            let m = Matrix(c)
            RowBands.run(rows: source.height, threads: threads) { band in
                for y in band {
                    let s = UnsafeRawPointer(source.data0 + y * source.stride0)
                    let d = UnsafeMutableRawPointer(destination.data0 + y * destination.stride0)
                    if keepsAlpha {
                        Self.row(s, d, width: source.width, m, keepAlpha: true)
                    } else {
                        Self.row(s, d, width: source.width, m, keepAlpha: false)
                    }
                }
            }
        }
    }

    /// The coefficients splatted into vectors once per frame.
    struct Matrix {
        let m00, m01, m02, m03, m10, m11, m12, m13: SIMD8<Float>
        let m20, m21, m22, m23, m30, m31, m32, m33: SIMD8<Float>
        let o0, o1, o2, o3: SIMD8<Float>
        init(_ c: UnsafeBufferPointer<Float>) {
            func v(_ i: Int) -> SIMD8<Float> { SIMD8(repeating: c[i]) }
            m00 = v(0); m01 = v(1); m02 = v(2); m03 = v(3)
            m10 = v(4); m11 = v(5); m12 = v(6); m13 = v(7)
            m20 = v(8); m21 = v(9); m22 = v(10); m23 = v(11)
            m30 = v(12); m31 = v(13); m32 = v(14); m33 = v(15)
            o0 = v(16); o1 = v(17); o2 = v(18); o3 = v(19)
        }
    }

    @inline(__always)
    static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, width: Int, _ m: Matrix,
                    keepAlpha: Bool) {
        var x = 0
        while x + 8 <= width {
            let px = s.loadUnaligned(fromByteOffset: 4 * x, as: SIMD8<UInt32>.self)
            d.storeBytes(of: pixels8(px, m, keepAlpha: keepAlpha), toByteOffset: 4 * x, as: SIMD8<UInt32>.self)
            x += 8
        }
        if x < width {
            // The last 1…7 pixels go through the same vector code via a small stack copy.
            var tail = SIMD8<UInt32>.zero
            let n = width - x
            withUnsafeMutableBytes(of: &tail) { t in
                t.baseAddress!.copyMemory(from: s + 4 * x, byteCount: 4 * n)
            }
            let out = pixels8(tail, m, keepAlpha: keepAlpha)
            withUnsafeBytes(of: out) { o in
                (d + 4 * x).copyMemory(from: o.baseAddress!, byteCount: 4 * n)
            }
        }
    }

    @inline(__always)
    static func pixels8(_ px: SIMD8<UInt32>, _ m: Matrix, keepAlpha: Bool) -> SIMD8<UInt32> {
        let mask = SIMD8<UInt32>(repeating: 0xFF)
        let c0 = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: px & mask))
        let c1 = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: (px &>> 8) & mask))
        let c2 = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: (px &>> 16) & mask))
        let c3 = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: px &>> 24))
        let r0 = m.m00 * c0 + m.m01 * c1 + m.m02 * c2 + m.m03 * c3 + m.o0
        let r1 = m.m10 * c0 + m.m11 * c1 + m.m12 * c2 + m.m13 * c3 + m.o1
        let r2 = m.m20 * c0 + m.m21 * c1 + m.m22 * c2 + m.m23 * c3 + m.o2
        var out = toByte(r0) | (toByte(r1) &<< 8) | (toByte(r2) &<< 16)
        if keepAlpha {
            out |= px & SIMD8(repeating: 0xFF00_0000)
        } else {
            let r3 = m.m30 * c0 + m.m31 * c1 + m.m32 * c2 + m.m33 * c3 + m.o3
            out |= toByte(r3) &<< 24
        }
        return out
    }

    /// Clamps to 0…255 and truncates; the +0.5 of rounding is already in the offset.
    @inline(__always)
    static func toByte(_ v: SIMD8<Float>) -> SIMD8<UInt32> {
        let c = v.clamped(lowerBound: SIMD8(repeating: 0), upperBound: SIMD8(repeating: 255))
        return SIMD8<UInt32>(truncatingIfNeeded: SIMD8<Int32>(c, rounding: .towardZero))
    }
}
