import Foundation
import MediaGraphCore

/// The shapes of ffmpeg's `afade` curve option, by its names, and the gain each gives at a point
/// of a fade. The formulas and their order of operations are libavfilter's (af_afade.c), in
/// double with glibc's libm as ffmpeg uses it, so the gains (and the float samples) are the same.
enum AudioFadeCurve: String, CaseIterable {
    case tri, qsin, esin, hsin, log, ipar, qua, cub, squ, cbr, par, exp, iqsin, ihsin, dese, desi, losi, sinc, isinc, nofade

    /// A param naming a curve (afade's `curve`, concat's crossfade curves): one list of names.
    static func param(_ name: String, doc: String) -> Param<String> {
        Param<String>(name, oneOf: allCases.map(\.rawValue), default: "tri",
                      doc: doc + ", by ffmpeg's names: tri (linear), qsin, hsin, esin, log, exp, par, ipar, qua, cub, squ, cbr, iqsin, ihsin, dese, desi, losi, sinc, isinc; nofade keeps the sound as it is")
    }

    /// The gain `index` samples into a fade of `range` samples (0 at the silent end, 1 at the
    /// full one); the position is clamped to 0…1 first, as ffmpeg does.
    func gain(_ index: Int64, _ range: Int64) -> Double {
        let g = max(0, min(1, 1.0 * Double(index) / Double(range)))
        func cube(_ a: Double) -> Double { a * a * a }
        switch self {
        case .tri: return g
        case .qsin: return sin(g * Double.pi / 2.0)
        case .iqsin: return 0.6366197723675814 * asin(g)
        case .esin: return 1.0 - cos(Double.pi / 4.0 * (cube(2.0 * g - 1) + 1))
        case .hsin: return (1.0 - cos(g * Double.pi)) / 2.0
        case .ihsin: return 0.3183098861837907 * acos(1 - 2 * g)
        case .exp: return Foundation.exp(-11.512925464970227 * (1 - g))
        case .log: return max(0, min(1, 1 + 0.2 * log10(g)))
        case .par: return 1 - sqrt(1 - g)
        case .ipar: return 1 - (1 - g) * (1 - g)
        case .qua: return g * g
        case .cub: return cube(g)
        case .squ: return sqrt(g)
        case .cbr: return cbrt(g)
        case .dese: return g <= 0.5 ? cbrt(2 * g) / 2 : 1 - cbrt(2 * (1 - g)) / 2
        case .desi: return g <= 0.5 ? cube(2 * g) / 2 : 1 - cube(2 * (1 - g)) / 2
        case .losi:
            let a = 1.0 / (1.0 - 0.787) - 1
            let A = 1.0 / (1.0 + Foundation.exp(0 - ((g - 0.5) * a * 2.0)))
            let B = 1.0 / (1.0 + Foundation.exp(a)), C = 1.0 / (1.0 + Foundation.exp(0 - a))
            return (A - B) / (C - B)
        case .sinc: return g >= 1.0 ? 1.0 : sin(Double.pi * (1.0 - g)) / (Double.pi * (1.0 - g))
        case .isinc: return g <= 0.0 ? 0.0 : 1.0 - sin(Double.pi * g) / (Double.pi * g)
        case .nofade: return 1.0
        }
    }
}
