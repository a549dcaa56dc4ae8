import MediaGraphCore
import MediaGraphKernels

/// `contrast`: rgb' = (rgb - 0.5) * amount + 0.5.
public final class ContrastFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("contrast", "rgb' = (rgb - 0.5) * amount + 0.5.", formats: ColorMatrixKernel.formats,
                                            params: [.double("amount", 0...4, default: 1, doc: "1 = unchanged")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try param("amount") { try .contrast(p.double("amount", default: 1)) })
    }
}
