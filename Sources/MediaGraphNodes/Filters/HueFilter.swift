import MediaGraphCore
import MediaGraphKernels

/// `hue`: rotation of the chroma in YIQ, as GPUImage's hue filter.
public final class HueFilter: KernelFilter, RegisteredNode {
    static let degrees = Param<Double>("degrees", ColorTransform.hueRange, default: 0, live: true, doc: "rotation in degrees")
    public static let typeInfo = filterInfo("hue", "Rotates hue in YIQ space by degrees (GPUImage's hue filter).",
                                            formats: ColorMatrixKernel.formats, params: [degrees])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try .hue(degrees: p[degrees]))
    }
}
