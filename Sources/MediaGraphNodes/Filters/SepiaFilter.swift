import MediaGraphCore
import MediaGraphKernels

/// `sepia`: GPUImage's sepia colour matrix, mixed with the input by intensity.
public final class SepiaFilter: KernelFilter, RegisteredNode {
    static let intensity = Param<Double>("intensity", ColorTransform.intensityRange, default: 1, live: true,
                                         doc: "0 = input, 1 = full sepia")
    public static let typeInfo = filterInfo("sepia", "Sepia tone (GPUImage's matrix), mixed with the input by intensity.",
                                            formats: colorMapFormats, params: [intensity])
    override public class func colorTransform(_ p: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? {
        try .sepia(intensity: p[intensity])
    }
}
