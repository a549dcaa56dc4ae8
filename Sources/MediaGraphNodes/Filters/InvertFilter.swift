import MediaGraphCore
import MediaGraphKernels

/// `invert`: rgb' = 1 - rgb (alpha kept); on YUV and gray, 255 - x on every plane (as ffmpeg's negate).
public final class InvertFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("invert", "Inverts colours: 255 - x on YUV/gray planes, rgb' = 1 - rgb on RGBA (alpha kept).",
                                            formats: InvertKernel.formats)
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel { InvertKernel() }
}
