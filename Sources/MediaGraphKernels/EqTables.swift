#if canImport(Glibc)
import Glibc
#endif

/// ffmpeg 5.1's `eq` filter as three byte tables (Y', Cb, Cr) for `PlaneCurvesKernel`: its
/// arithmetic works on the stored values of each plane alone, so a table per plane gives its
/// bytes exactly.
///
/// Each plane has a contrast, a brightness, a gamma and the gamma weight. Y' takes the contrast,
/// the brightness and gamma·gamma_g; Cb and Cr take the saturation as their contrast, no
/// brightness, and √(gamma_b/gamma_g) and √(gamma_r/gamma_g). A plane with contrast 1,
/// brightness 0 and gamma 1 is unchanged; with gamma 1 and |contrast| < 7.9 it goes through
/// ffmpeg's fixed point (contrast in 1/4096ths, `(v·c >> 12) + b`, clamped); otherwise through
/// its double-precision curve, truncated.
public struct EqTables: Equatable, Sendable {
    public var contrast = 1.0, brightness = 0.0, saturation = 1.0
    public var gamma = 1.0, gammaR = 1.0, gammaG = 1.0, gammaB = 1.0, gammaWeight = 1.0

    public init() {}

    /// The settings as ffmpeg keeps them: each clamped to its range as a float (`av_clipf`), so
    /// a value carries float precision (1.2 becomes 1.2000000476837158). A NaN is the default.
    public mutating func set(contrast c: Double, brightness b: Double, saturation s: Double, gamma g: Double,
                             gammaR r: Double, gammaG gg: Double, gammaB bb: Double, gammaWeight w: Double) {
        func clip(_ v: Double, _ lo: Float, _ hi: Float, _ fallback: Double) -> Double {
            if v.isNaN { return fallback }
            let f = Float(v)
            return Double(f < lo ? lo : f > hi ? hi : f)
        }
        contrast = clip(c, -1000, 1000, 1)
        brightness = clip(b, -1, 1, 0)
        saturation = clip(s, 0, 3, 1)
        gamma = clip(g, 0.1, 10, 1)
        gammaR = clip(r, 0.1, 10, 1)
        gammaG = clip(gg, 0.1, 10, 1)
        gammaB = clip(bb, 0.1, 10, 1)
        gammaWeight = clip(w, 0, 1, 1)
    }

    /// Whether every plane is left as it is.
    public var isIdentity: Bool {
        Self.unchanged(contrast, brightness, gamma * gammaG)
            && Self.unchanged(saturation, 0, (gammaB / gammaG).squareRoot())
            && Self.unchanged(saturation, 0, (gammaR / gammaG).squareRoot())
    }

    /// The three tables.
    public var curves: PlaneCurves {
        let y = Self.table(contrast: contrast, brightness: brightness, gamma: gamma * gammaG, weight: gammaWeight)
        let cb = Self.table(contrast: saturation, brightness: 0, gamma: (gammaB / gammaG).squareRoot(), weight: gammaWeight)
        let cr = Self.table(contrast: saturation, brightness: 0, gamma: (gammaR / gammaG).squareRoot(), weight: gammaWeight)
        return PlaneCurves(y: y, cb: cb, cr: cr)!
    }

    static func unchanged(_ c: Double, _ b: Double, _ g: Double) -> Bool { c == 1 && b == 0 && g == 1 }

    /// One plane's table, as ffmpeg's eq picks its path.
    static func table(contrast c: Double, brightness b: Double, gamma g: Double, weight w: Double) -> [UInt8] {
        if unchanged(c, b, g) { return (0...255).map { UInt8($0) } }
        if g == 1 && abs(c) < 7.9 {
            // fixed point: contrast in 1/4096ths; the brightness from whole hundredths
            let ci = Int(c * 256 * 16)
            let bi = Int(100 * b + 100) * 511 / 200 - 128 - ci / 32
            return (0...255).map { v in
                let pel = ((v * ci) >> 12) + bi
                return UInt8(max(0, min(255, pel)))
            }
        }
        let inverse = 1 / g, linear = 1 - w
        return (0...255).map { i in
            var v = Double(i) / 255
            v = c * (v - 0.5) + 0.5 + b
            if v <= 0 { return 0 }
            v = v * linear + pow(v, inverse) * w
            if v >= 1 { return 255 }
            return v.isNaN ? 0 : UInt8(256 * v)
        }
    }
}
