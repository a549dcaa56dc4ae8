import MediaGraphCore
import MediaGraphKernels

/// `gamma`: rgb' = rgb^gamma.
public final class GammaFilter: KernelFilter, RegisteredNode {
    static let gamma = Param<Double>("gamma", ChannelCurves.gammaRange, default: 1, live: true, doc: "exponent; 1 = unchanged")
    public static let typeInfo = filterInfo("gamma", "rgb' = rgb^gamma (alpha kept).", formats: ChannelCurvesKernel.formats,
                                            params: [gamma])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ChannelCurvesKernel(try .gamma(p[gamma]))
    }
}
