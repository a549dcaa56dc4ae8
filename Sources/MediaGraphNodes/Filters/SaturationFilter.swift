import MediaGraphCore
import MediaGraphKernels

/// `saturation`: rgb' = mix(luminance, rgb, amount).
public final class SaturationFilter: KernelFilter, RegisteredNode {
    static let amount = Param<Double>("amount", ColorTransform.saturationRange, default: 1, live: true,
                                      doc: "0 = gray, 1 = unchanged, 2 = doubled")
    public static let typeInfo = filterInfo("saturation", "rgb' = mix(luminance, rgb, amount) (Rec. 709 luminance; on YUV frames their own Y', so Cb and Cr scale about 128).",
                                            formats: colorMapFormats, params: [amount])
    override public class func colorTransform(_ p: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? {
        try .saturation(p[amount], luma: luma)
    }
}
