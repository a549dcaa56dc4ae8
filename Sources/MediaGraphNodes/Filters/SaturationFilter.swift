import MediaGraphCore
import MediaGraphKernels

/// `saturation`: rgb' = mix(luminance, rgb, amount).
public final class SaturationFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("saturation", "rgb' = mix(luminance, rgb, amount) (Rec. 709 luminance).", formats: ColorMatrixKernel.formats,
                                            params: [.double("amount", 0...2, default: 1, doc: "0 = gray, 1 = unchanged, 2 = doubled")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try param("amount") { try .saturation(p.double("amount", default: 1)) })
    }
}
