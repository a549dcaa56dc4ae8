import MediaGraphCore
import MediaGraphKernels

/// `lut3d`: a 3D LUT from a .cube file, as ffmpeg's lut3d.
public final class LUT3DFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo(
        "lut3d", "Applies a 3D LUT from a .cube file (sizes 2…65), trilinear or tetrahedral, as ffmpeg's lut3d.",
        formats: LUT3DKernel.formats,
        params: [.path("file", role: .input, required: true, doc: ".cube file"),
                 .choice("interpolation", LUT3DKernel.Interpolation.allCases.map(\.rawValue), default: "tetrahedral", doc: "interpolation between LUT points")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        let lut: CubeLUT
        do { lut = try CubeLUT(contentsOfFile: p.path("file")!) } catch { throw NodeFailure("param 'file': \(error)") }
        return LUT3DKernel(lut, interpolation: LUT3DKernel.Interpolation(rawValue: p.string("interpolation", default: "tetrahedral")) ?? .tetrahedral)
    }
}
