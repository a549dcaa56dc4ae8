import MediaGraphCore
import MediaGraphKernels

/// `exposure`: rgb' = rgb * 2^ev.
public final class ExposureFilter: KernelFilter, RegisteredNode {
    static let ev = Param<Double>("ev", ColorTransform.exposureRange, default: 0, live: true, doc: "exposure value in stops")
    public static let typeInfo = filterInfo("exposure", "rgb' = rgb * 2^ev.", formats: ColorMatrixKernel.formats, params: [ev])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try .exposure(ev: p[ev]))
    }
}
