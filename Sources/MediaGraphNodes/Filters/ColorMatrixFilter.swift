import MediaGraphCore
import MediaGraphKernels

/// `colormatrix`: out = mix(in, M·in + offset, intensity), M a 4x4 matrix (rows, r g b a) or a preset.
public final class ColorMatrixFilter: KernelFilter, RegisteredNode {
    static let preset = Param<String?>("preset", oneOf: ColorTransform.presetNames, doc: "a named matrix (instead of matrix)")
    static let matrix = Param<[Double]?>.numbers("matrix", count: 16...16, doc: "4x4 matrix, row by row: r' = m0 r + m1 g + m2 b + m3 a, …")
    static let offset = Param<[Double]>.numbers("offset", count: 4...4, default: [0, 0, 0, 0], doc: "added after the matrix (0…1 units)")
    static let intensity = Param<Double>("intensity", ColorTransform.intensityRange, default: 1, live: true, doc: "mix with the input")
    public static let typeInfo = filterInfo(
        "colormatrix", "out = mix(in, M·in + offset, intensity) on (r, g, b, a) in 0…1; M given as 16 numbers (row by row) or a preset.",
        formats: colorMapFormats, params: [preset, matrix, offset, intensity])

    override public class func colorTransform(_ p: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? {
        if let name = p[preset] {
            if p[matrix] != nil { throw NodeFailure("param 'matrix': give either 'preset' or 'matrix', not both") }
            return try .preset(named: name, intensity: p[intensity])
        }
        guard let m = p[matrix] else { throw NodeFailure("param 'matrix': expected 16 numbers or a 'preset', found neither") }
        return try .matrix(m, offset: p[offset], intensity: p[intensity])
    }
}
