import MediaGraphCore
import MediaGraphKernels

/// `exposure`: rgb' = rgb * 2^ev.
public final class ExposureFilter: KernelFilter, RegisteredNode {
    static let ev = Param<Double>("ev", ColorTransform.exposureRange, default: 0, live: true, doc: "exposure value in stops")
    public static let typeInfo = filterInfo("exposure", "rgb' = rgb * 2^ev.", formats: colorMapFormats, params: [ev])
    override public class func colorTransform(_ p: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? {
        try .exposure(ev: p[ev])
    }
}
