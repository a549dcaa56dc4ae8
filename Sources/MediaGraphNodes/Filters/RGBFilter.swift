import MediaGraphCore
import MediaGraphKernels

/// `rgb`: per-channel gains.
public final class RGBFilter: KernelFilter, RegisteredNode {
    static let red = Param<Double>("red", ColorTransform.gainRange, default: 1, live: true, doc: "red gain")
    static let green = Param<Double>("green", ColorTransform.gainRange, default: 1, live: true, doc: "green gain")
    static let blue = Param<Double>("blue", ColorTransform.gainRange, default: 1, live: true, doc: "blue gain")
    public static let typeInfo = filterInfo("rgb", "Per-channel multiply: r' = r*red, g' = g*green, b' = b*blue.",
                                            formats: colorMapFormats, params: [red, green, blue])
    override public class func colorTransform(_ p: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? {
        try .rgbGains(r: p[red], g: p[green], b: p[blue])
    }
}
