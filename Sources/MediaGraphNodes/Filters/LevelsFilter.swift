import MediaGraphCore
import MediaGraphKernels

/// `levels`: Photoshop/GPUImage levels, for all channels or per channel.
public final class LevelsFilter: KernelFilter, RegisteredNode {
    static let names = ["input-min", "input-max", "gamma", "output-min", "output-max"]
    public static let typeInfo = filterInfo(
        "levels", "Levels as GPUImage/Photoshop: out = mix(outMin, outMax, ((in - inMin)/(inMax - inMin))^(1/gamma)); all channels, or per channel with red-/green-/blue- prefixed params.",
        formats: ChannelCurvesKernel.formats,
        params: [.double("input-min", 0...1, default: 0, doc: "input black point"),
                 .double("input-max", 0...1, default: 1, doc: "input white point"),
                 .double("gamma", 0.01...10, default: 1, doc: "midtone gamma"),
                 .double("output-min", 0...1, default: 0, doc: "output black point"),
                 .double("output-max", 0...1, default: 1, doc: "output white point")]
            + ["red", "green", "blue"].flatMap { c in names.map { .double("\(c)-\($0)", $0 == "gamma" ? 0.01...10 : 0...1, doc: "\(c) channel \($0) (overrides \($0))") } })

    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        func levels(_ prefix: String) -> ChannelCurves.Levels {
            func v(_ n: String, _ d: Double) -> Double { p.double(prefix + n) ?? p.double(n, default: d) }
            return ChannelCurves.Levels(inputMin: v("input-min", 0), inputMax: v("input-max", 1), gamma: v("gamma", 1),
                                        outputMin: v("output-min", 0), outputMax: v("output-max", 1))
        }
        return ChannelCurvesKernel(try param("input-min") {
            try .levels(red: levels("red-"), green: levels("green-"), blue: levels("blue-"))
        })
    }
}
