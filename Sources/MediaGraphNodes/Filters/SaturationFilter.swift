import MediaGraphCore
import MediaGraphKernels

/// `saturation`: rgb' = mix(luminance, rgb, amount).
public final class SaturationFilter: KernelFilter, RegisteredNode {
    static let amount = Param<Double>("amount", ColorTransform.saturationRange, default: 1, live: true,
                                      doc: "0 = gray, 1 = unchanged, 2 = doubled")
    public static let typeInfo = filterInfo("saturation", "rgb' = mix(luminance, rgb, amount) (Rec. 709 luminance).",
                                            formats: ColorMatrixKernel.formats, params: [amount])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try .saturation(p[amount]))
    }
}
