import MediaGraphCore
import MediaGraphKernels

/// `contrast`: rgb' = (rgb - 0.5) * amount + 0.5.
public final class ContrastFilter: KernelFilter, RegisteredNode {
    static let amount = Param<Double>("amount", ColorTransform.contrastRange, default: 1, live: true, doc: "1 = unchanged")
    public static let typeInfo = filterInfo("contrast", "rgb' = (rgb - 0.5) * amount + 0.5.", formats: colorMapFormats,
                                            params: [amount])
    override public class func colorTransform(_ p: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? {
        try .contrast(p[amount])
    }
}
