import MediaGraphCore
import MediaGraphKernels

/// `lut3d`: a 3D LUT from a .cube file, as ffmpeg's lut3d.
public final class LUT3DFilter: KernelFilter, RegisteredNode {
    static let file = Param<String?>.path("file", role: .input, required: true, doc: ".cube file")
    static let interpolation = Param<LUT3DKernel.Interpolation>("interpolation", default: .tetrahedral, doc: "interpolation between LUT points")
    public static let typeInfo = filterInfo(
        "lut3d", "Applies a 3D LUT from a .cube file (sizes 2…65), trilinear or tetrahedral, as ffmpeg's lut3d.",
        formats: LUT3DKernel.formats, params: [file, interpolation])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        guard let path = p[file] else { throw NodeFailure("param 'file': missing") }
        let lut: CubeLUT
        do { lut = try CubeLUT(contentsOfFile: path) } catch { throw NodeFailure("param 'file': \(error)") }
        return LUT3DKernel(lut, interpolation: p[interpolation])
    }
}
