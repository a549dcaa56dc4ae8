import MediaGraphCore
import MediaGraphKernels

/// `colormatrix`: out = mix(in, M·in + offset, intensity), M a 4x4 matrix (rows, r g b a) or a preset.
public final class ColorMatrixFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo(
        "colormatrix", "out = mix(in, M·in + offset, intensity) on (r, g, b, a) in 0…1; M given as 16 numbers (row by row) or a preset.",
        formats: ColorMatrixKernel.formats,
        params: [.choice("preset", ColorTransform.presetNames, doc: "a named matrix (instead of matrix)"),
                 .numbers("matrix", count: 16...16, doc: "4x4 matrix, row by row: r' = m0 r + m1 g + m2 b + m3 a, …"),
                 .numbers("offset", count: 4...4, default: [0, 0, 0, 0], doc: "added after the matrix (0…1 units)"),
                 .double("intensity", 0...1, default: 1, doc: "mix with the input")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        let intensity = p.double("intensity", default: 1)
        if let preset = p.string("preset") {
            if p.has("matrix") { throw NodeFailure("param 'matrix': give either 'preset' or 'matrix', not both") }
            return ColorMatrixKernel(try param("preset") { try .preset(named: preset, intensity: intensity) })
        }
        guard let m = p.numbers("matrix") else { throw NodeFailure("param 'matrix': expected 16 numbers or a 'preset', found neither") }
        return ColorMatrixKernel(try param("matrix") {
            try .matrix(m, offset: p.numbers("offset") ?? [0, 0, 0, 0], intensity: intensity)
        })
    }
}
