import MediaGraphCore
import MediaGraphKernels

/// `brightness`: rgb' = rgb + amount.
public final class BrightnessFilter: KernelFilter, RegisteredNode {
    static let amount = Param<Double>("amount", ColorTransform.brightnessRange, default: 0, live: true,
                                      doc: "added to every channel (0…1 units)")
    public static let typeInfo = filterInfo("brightness", "rgb' = rgb + amount.", formats: colorMapFormats,
                                            params: [amount])
    override public class func colorTransform(_ p: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? {
        try .brightness(p[amount])
    }
}
