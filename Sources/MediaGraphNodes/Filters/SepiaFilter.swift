import MediaGraphCore
import MediaGraphKernels

/// `sepia`: GPUImage's sepia colour matrix, mixed with the input by intensity.
public final class SepiaFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("sepia", "Sepia tone (GPUImage's matrix), mixed with the input by intensity.",
                                            formats: ColorMatrixKernel.formats,
                                            params: [.double("intensity", 0...1, default: 1, doc: "0 = input, 1 = full sepia")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try param("intensity") { try .sepia(intensity: p.double("intensity", default: 1)) })
    }
}
