import MediaGraphCore
import MediaGraphKernels

/// `hue`: rotation of the chroma in YIQ, as GPUImage's hue filter.
public final class HueFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("hue", "Rotates hue in YIQ space by degrees (GPUImage's hue filter).", formats: ColorMatrixKernel.formats,
                                            params: [.double("degrees", -3600...3600, default: 0, doc: "rotation in degrees")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try param("degrees") { try .hue(degrees: p.double("degrees", default: 0)) })
    }
}
