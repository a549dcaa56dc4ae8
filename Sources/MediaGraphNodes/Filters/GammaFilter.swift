import MediaGraphCore
import MediaGraphKernels

/// `gamma`: rgb' = rgb^gamma.
public final class GammaFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("gamma", "rgb' = rgb^gamma (alpha kept).", formats: ChannelCurvesKernel.formats,
                                            params: [.double("gamma", 0...3, default: 1, doc: "exponent; 1 = unchanged")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ChannelCurvesKernel(try param("gamma") { try .gamma(p.double("gamma", default: 1)) })
    }
}
