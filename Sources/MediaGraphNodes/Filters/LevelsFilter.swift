import MediaGraphCore
import MediaGraphKernels

/// `levels`: Photoshop/GPUImage levels, for all channels or per channel.
public final class LevelsFilter: KernelFilter, RegisteredNode {
    /// One slider: its param for all channels and the red-, green-, blue- overrides.
    struct Slider: Sendable {
        let all: Param<Double>
        let perChannel: [Param<Double?>]

        init(_ name: String, _ range: ClosedRange<Double>, default d: Double, doc: String) {
            all = Param(name, range, default: d, live: true, doc: doc)
            perChannel = LevelsFilter.channels.map { Param("\($0)-\(name)", range, live: true, doc: "\($0) channel \(name) (overrides \(name))") }
        }

        /// The value for channel `c` and the param it came from.
        func value(_ p: ParamValues, channel c: Int) -> (Double, String) {
            if let v = p[perChannel[c]] { return (v, perChannel[c].name) }
            return (p[all], all.name)
        }
    }

    static let channels = ["red", "green", "blue"]
    static let inputMin = Slider("input-min", ChannelCurves.Levels.pointRange, default: 0, doc: "input black point")
    static let inputMax = Slider("input-max", ChannelCurves.Levels.pointRange, default: 1, doc: "input white point")
    static let gamma = Slider("gamma", ChannelCurves.Levels.gammaRange, default: 1, doc: "midtone gamma")
    static let outputMin = Slider("output-min", ChannelCurves.Levels.pointRange, default: 0, doc: "output black point")
    static let outputMax = Slider("output-max", ChannelCurves.Levels.pointRange, default: 1, doc: "output white point")
    static let sliders = [inputMin, inputMax, gamma, outputMin, outputMax]

    public static let typeInfo = filterInfo(
        "levels", "Levels as GPUImage/Photoshop: out = mix(outMin, outMax, ((in - inMin)/(inMax - inMin))^(1/gamma)); all channels, or per channel with red-/green-/blue- prefixed params.",
        formats: ChannelCurvesKernel.formats,
        params: sliders.map(\.all) + channels.indices.flatMap { c in sliders.map { $0.perChannel[c] } })

    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        let levels = try channels.indices.map { c in
            let (lo, loName) = inputMin.value(p, channel: c), (hi, hiName) = inputMax.value(p, channel: c)
            guard lo < hi else { throw NodeFailure("param '\(loName)': \(loName) \(lo) must be below \(hiName) \(hi)") }
            return ChannelCurves.Levels(inputMin: lo, inputMax: hi, gamma: gamma.value(p, channel: c).0,
                                        outputMin: outputMin.value(p, channel: c).0, outputMax: outputMax.value(p, channel: c).0)
        }
        return ChannelCurvesKernel(try .levels(red: levels[0], green: levels[1], blue: levels[2]))
    }
}
