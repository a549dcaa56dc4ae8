import MediaGraphCore
import MediaGraphKernels

/// `grayscale`: Rec. 709 luminance (0.2125, 0.7154, 0.0721) on every channel, as GPUImage.
public final class GrayscaleFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("grayscale", "Luminance with Rec. 709 weights on every channel (GPUImage).",
                                            formats: ColorMatrixKernel.formats)
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel { ColorMatrixKernel(try .grayscale()) }
}
