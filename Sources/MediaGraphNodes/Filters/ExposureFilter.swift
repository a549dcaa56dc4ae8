import MediaGraphCore
import MediaGraphKernels

/// `exposure`: rgb' = rgb * 2^ev.
public final class ExposureFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("exposure", "rgb' = rgb * 2^ev.", formats: ColorMatrixKernel.formats,
                                            params: [.double("ev", -10...10, default: 0, doc: "exposure value in stops")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try param("ev") { try .exposure(ev: p.double("ev", default: 0)) })
    }
}
