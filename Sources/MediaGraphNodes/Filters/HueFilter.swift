import MediaGraphCore
import MediaGraphKernels

/// `hue`: rotation of the chroma in YIQ, as GPUImage's hue filter; on YUV frames Cb and Cr turn
/// together about the frame's own Y' (`PlaneChroma`), with no conversion to RGB.
public final class HueFilter: KernelFilter, RegisteredNode {
    static let degrees = Param<Double>("degrees", ColorTransform.hueRange, default: 0, live: true, doc: "rotation in degrees")
    public static let typeInfo = filterInfo("hue", "Rotates hue in YIQ space by degrees (GPUImage's hue filter); on YUV frames Cb and Cr turn together about their own Y', with no conversion.",
                                            formats: colorMapFormats, params: [degrees])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try .hue(degrees: p[degrees]))
    }
    override public class func colorTransform(_ p: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? {
        try .hue(degrees: p[degrees], luma: luma)
    }
}
