/// An affine colour map on (r, g, b, a) in 0…1 units: `out = mix(in, M·in + offset, intensity)`,
/// clamped to 0…1 and rounded to the nearest 8-bit value by `ColorMatrixKernel`.
///
/// Because `mix` is linear, the whole map is one matrix and one offset (`effectiveRows`,
/// `effectiveOffset`); the kernel runs that, so every linear filter costs the same.
public struct ColorTransform: Equatable, Sendable {
    /// Rows of M (always 4): `out.r = dot(rows[0], in)` and so on, `in` = (r, g, b, a).
    public private(set) var rows: [SIMD4<Double>]
    /// Added after the matrix, in 0…1 units.
    public private(set) var offset: SIMD4<Double>
    /// 0 keeps the input, 1 gives M·in + offset.
    public internal(set) var intensity: Double

    /// The identity map.
    public static let identity = ColorTransform(
        uncheckedRows: [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)],
        offset: .zero, intensity: 1)

    init(uncheckedRows rows: [SIMD4<Double>], offset: SIMD4<Double>, intensity: Double) {
        self.rows = rows
        self.offset = offset
        self.intensity = intensity
    }

    /// A general colour matrix (`colormatrix` node). `matrix` holds 16 numbers row by row (the
    /// first four make the new red from r, g, b, a); `offset` 4 numbers in 0…1 units;
    /// `intensity` 0…1.
    public static func matrix(_ matrix: [Double], offset: [Double] = [0, 0, 0, 0],
                              intensity: Double = 1) throws -> ColorTransform {
        guard matrix.count == 16 else {
            throw KernelError.invalidParameter(name: "matrix",
                                               detail: "expected 16 numbers (4 rows of r, g, b, a), found \(matrix.count)")
        }
        guard offset.count == 4 else {
            throw KernelError.invalidParameter(name: "offset", detail: "expected 4 numbers (r, g, b, a), found \(offset.count)")
        }
        for (i, v) in matrix.enumerated() {
            try KernelError.check("matrix[\(i)]", v, in: matrixElementRange)
        }
        for (i, v) in offset.enumerated() {
            try KernelError.check("offset[\(i)]", v, in: matrixElementRange)
        }
        try KernelError.check("intensity", intensity, in: intensityRange)
        let rows = (0..<4).map { SIMD4(matrix[4 * $0], matrix[4 * $0 + 1], matrix[4 * $0 + 2], matrix[4 * $0 + 3]) }
        return ColorTransform(uncheckedRows: rows, offset: SIMD4(offset[0], offset[1], offset[2], offset[3]),
                              intensity: intensity)
    }

    /// M after mixing with the identity by `intensity`: `(1 - t)·I + t·M`.
    public var effectiveRows: [SIMD4<Double>] {
        let t = intensity
        return (0..<4).map { i in
            var unit = SIMD4<Double>.zero
            unit[i] = 1
            return unit * (1 - t) + rows[i] * t
        }
    }

    /// The offset after mixing: `t·offset`.
    public var effectiveOffset: SIMD4<Double> { offset * intensity }

    /// Whether the map changes nothing (every frame passes through as it is): the filters then
    /// forward the buffer without running the kernel.
    public var isIdentity: Bool {
        intensity == 0 || (rows == ColorTransform.identity.rows && offset == .zero)
    }

    /// Whether alpha passes through unchanged (alpha row (0, 0, 0, 1), no alpha offset): the
    /// kernel then copies alpha bytes exactly.
    public var keepsAlpha: Bool {
        effectiveRows[3] == SIMD4(0, 0, 0, 1) && effectiveOffset[3] == 0
    }

    /// `self` followed by `next`, as one map with intensity 1. No clamping or rounding happens
    /// between the two (unlike running two kernels one after the other). The kernel is exact
    /// while |M·in + offset| stays below 16000 (in 0…1 units) for every input, which any chain of
    /// a few filters from their documented ranges does.
    public func then(_ next: ColorTransform) -> ColorTransform {
        let a = effectiveRows, b = next.effectiveRows
        let ao = effectiveOffset, bo = next.effectiveOffset
        var rows: [SIMD4<Double>] = []
        var offset = SIMD4<Double>.zero
        for i in 0..<4 {
            var row = SIMD4<Double>.zero
            for k in 0..<4 { row += b[i][k] * a[k] }
            rows.append(row)
            offset[i] = (b[i] * ao).sum() + bo[i]
        }
        return ColorTransform(uncheckedRows: rows, offset: offset, intensity: 1)
    }
}
