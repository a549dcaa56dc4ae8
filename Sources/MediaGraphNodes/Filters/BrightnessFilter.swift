import MediaGraphCore
import MediaGraphKernels

/// `brightness`: rgb' = rgb + amount.
public final class BrightnessFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("brightness", "rgb' = rgb + amount.", formats: ColorMatrixKernel.formats,
                                            params: [.double("amount", -1...1, default: 0, doc: "added to every channel (0…1 units)")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try param("amount") { try .brightness(p.double("amount", default: 0)) })
    }
}
