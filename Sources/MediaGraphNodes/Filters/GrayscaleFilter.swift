import MediaGraphCore
import MediaGraphKernels

/// `grayscale`: Rec. 709 luminance (0.2125, 0.7154, 0.0721) on every channel, as GPUImage.
public final class GrayscaleFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("grayscale", "Luminance with Rec. 709 weights on every channel (GPUImage); on YUV frames Cb = Cr = 128.",
                                            formats: colorMapFormats)
    override public class func colorTransform(_ p: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? {
        try .grayscale(luma: luma)
    }
}
