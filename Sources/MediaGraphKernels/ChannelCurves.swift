import Foundation

/// One 256-entry table per colour channel: any per-channel curve on 8-bit values (gamma,
/// levels, tone curves). Built once from the formula in Double, rounded to nearest.
public struct ChannelCurves: Equatable, Sendable {
    /// Output byte for each input byte, for red, green and blue.
    public let red: [UInt8], green: [UInt8], blue: [UInt8]

    /// Tables from three functions on 0…1 values; results are clamped to 0…1 and rounded.
    public init(red: (Double) -> Double, green: (Double) -> Double, blue: (Double) -> Double) {
        func table(_ f: (Double) -> Double) -> [UInt8] {
            (0..<256).map { v in
                let y = f(Double(v) / 255)
                let c = y.isNaN ? 0 : min(max(y, 0), 1)
                return UInt8((c * 255).rounded(.toNearestOrAwayFromZero))
            }
        }
        self.red = table(red)
        self.green = table(green)
        self.blue = table(blue)
    }

    /// Tables given directly: 256 entries each, or nil.
    public init?(red: [UInt8], green: [UInt8], blue: [UInt8]) {
        guard red.count == 256, green.count == 256, blue.count == 256 else { return nil }
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// These curves, then `next`: each table looked up through the next one's. Exactly what the
    /// two applied one after the other give, as both map bytes to bytes.
    public func then(_ next: ChannelCurves) -> ChannelCurves {
        func compose(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { a.map { b[Int($0)] } }
        return ChannelCurves(red: compose(red, next.red), green: compose(green, next.green), blue: compose(blue, next.blue))!
    }

    /// The exponent range of `gamma(_:)`.
    public static let gammaRange: ClosedRange<Double> = 0...3

    /// Whether every table maps each value to itself: the filters then forward the frame untouched.
    public var isIdentity: Bool {
        for v in 0..<256 where red[v] != UInt8(v) || green[v] != UInt8(v) || blue[v] != UInt8(v) { return false }
        return true
    }

    /// rgb' = rgb^gamma (gamma in `gammaRange`), GPUImage's gamma filter.
    public static func gamma(_ gamma: Double) throws -> ChannelCurves {
        try KernelError.check("gamma.gamma", gamma, in: gammaRange)
        let f: (Double) -> Double = { pow($0, gamma) }
        return ChannelCurves(red: f, green: f, blue: f)
    }

    /// GPUImage's (Photoshop's) levels on one channel, all values in 0…1 units:
    /// `x' = mix(outputMin, outputMax, pow(min(max(x - inputMin, 0) / (inputMax - inputMin), 1), 1 / gamma))`.
    public struct Levels: Equatable, Sendable {
        public var inputMin: Double, inputMax: Double, gamma: Double, outputMin: Double, outputMax: Double

        /// Range of the input and output points (0…1 units).
        public static let pointRange: ClosedRange<Double> = 0...1
        /// Range of the midtone gamma.
        public static let gammaRange: ClosedRange<Double> = 0.01...10

        /// inputMin < inputMax, both in `pointRange`; gamma in `gammaRange` (the midtone slider:
        /// > 1 brightens); outputMin and outputMax in `pointRange` (outputMin > outputMax inverts).
        public init(inputMin: Double = 0, inputMax: Double = 1, gamma: Double = 1,
                    outputMin: Double = 0, outputMax: Double = 1) {
            self.inputMin = inputMin
            self.inputMax = inputMax
            self.gamma = gamma
            self.outputMin = outputMin
            self.outputMax = outputMax
        }

        func validated(_ channel: String) throws -> Levels {
            try KernelError.check("levels.\(channel).inputMin", inputMin, in: Levels.pointRange)
            try KernelError.check("levels.\(channel).inputMax", inputMax, in: Levels.pointRange)
            try KernelError.check("levels.\(channel).gamma", gamma, in: Levels.gammaRange)
            try KernelError.check("levels.\(channel).outputMin", outputMin, in: Levels.pointRange)
            try KernelError.check("levels.\(channel).outputMax", outputMax, in: Levels.pointRange)
            guard inputMin < inputMax else {
                throw KernelError.invalidParameter(
                    name: "levels.\(channel).inputMin",
                    detail: "inputMin \(inputMin) must be below inputMax \(inputMax)")
            }
            return self
        }

        func apply(_ x: Double) -> Double {
            let t = min(max(x - inputMin, 0) / (inputMax - inputMin), 1)
            let g = pow(t, 1 / gamma)
            return outputMin + (outputMax - outputMin) * g
        }
    }

    /// Levels with the same settings on red, green and blue.
    public static func levels(_ all: Levels) throws -> ChannelCurves {
        let l = try all.validated("all")
        return ChannelCurves(red: l.apply, green: l.apply, blue: l.apply)
    }

    /// Levels with settings per channel.
    public static func levels(red: Levels, green: Levels, blue: Levels) throws -> ChannelCurves {
        let r = try red.validated("red"), g = try green.validated("green"), b = try blue.validated("blue")
        return ChannelCurves(red: r.apply, green: g.apply, blue: b.apply)
    }
}
