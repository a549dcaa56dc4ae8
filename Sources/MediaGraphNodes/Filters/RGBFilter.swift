import MediaGraphCore
import MediaGraphKernels

/// `rgb`: per-channel gains.
public final class RGBFilter: KernelFilter, RegisteredNode {
    public static let typeInfo = filterInfo("rgb", "Per-channel multiply: r' = r*red, g' = g*green, b' = b*blue.", formats: ColorMatrixKernel.formats,
                                            params: [.double("red", 0...4, default: 1, doc: "red gain"),
                                                     .double("green", 0...4, default: 1, doc: "green gain"),
                                                     .double("blue", 0...4, default: 1, doc: "blue gain")])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        ColorMatrixKernel(try param("red") {
            try .rgbGains(r: p.double("red", default: 1), g: p.double("green", default: 1), b: p.double("blue", default: 1))
        })
    }
}
