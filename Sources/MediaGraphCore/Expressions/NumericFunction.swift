#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The functions and constants of ffmpeg's expressions, with its meanings: comparisons give 1 or
/// 0, `if(c,a,b)` takes `a` where `c` is non-zero, `mod`
/// is the floored remainder (the divisor's sign), `round` rounds half away from zero.
public enum NumericFunction: String, CaseIterable, Sendable {
    case sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh
    case exp, log, pow, sqrt, abs, floor, ceil, trunc, round, hypot
    case min, max, mod, clip, between
    case `if`, ifnot, not, eq, gt, gte, lt, lte
    case isnan, isinf, sgn

    /// How many arguments each takes.
    public var arity: ClosedRange<Int> {
        switch self {
        case .atan2, .pow, .hypot, .min, .max, .mod, .eq, .gt, .gte, .lt, .lte: return 2...2
        case .if, .ifnot: return 2...3
        case .clip, .between: return 3...3
        default: return 1...1
        }
    }

    func apply(_ a: [Double]) -> Double {
        switch self {
        case .sin: return Glibc.sin(a[0])
        case .cos: return Glibc.cos(a[0])
        case .tan: return Glibc.tan(a[0])
        case .asin: return Glibc.asin(a[0])
        case .acos: return Glibc.acos(a[0])
        case .atan: return Glibc.atan(a[0])
        case .atan2: return Glibc.atan2(a[0], a[1])
        case .sinh: return Glibc.sinh(a[0])
        case .cosh: return Glibc.cosh(a[0])
        case .tanh: return Glibc.tanh(a[0])
        case .exp: return Glibc.exp(a[0])
        case .log: return Glibc.log(a[0])
        case .pow: return Glibc.pow(a[0], a[1])
        case .sqrt: return a[0].squareRoot()
        case .abs: return Swift.abs(a[0])
        case .floor: return a[0].rounded(.down)
        case .ceil: return a[0].rounded(.up)
        case .trunc: return a[0].rounded(.towardZero)
        case .round: return a[0].rounded(.toNearestOrAwayFromZero)
        case .hypot: return Glibc.hypot(a[0], a[1])
        case .min: return a[0] > a[1] ? a[1] : a[0]
        case .max: return a[0] > a[1] ? a[0] : a[1]
        // av_expr's floored remainder: the divisor's sign
        case .mod: return a[0] - (a[0] / a[1]).rounded(.down) * a[1]
        case .clip: return a[0].isNaN ? .nan : Swift.min(Swift.max(a[0], a[1]), a[2])
        case .between: return a[0] >= a[1] && a[0] <= a[2] ? 1 : 0
        case .if: return a[0] != 0 ? a[1] : (a.count > 2 ? a[2] : 0)
        case .ifnot: return a[0] == 0 ? a[1] : (a.count > 2 ? a[2] : 0)
        case .not: return a[0] == 0 ? 1 : 0
        case .eq: return a[0] == a[1] ? 1 : 0
        case .gt: return a[0] > a[1] ? 1 : 0
        case .gte: return a[0] >= a[1] ? 1 : 0
        case .lt: return a[0] < a[1] ? 1 : 0
        case .lte: return a[0] <= a[1] ? 1 : 0
        case .isnan: return a[0].isNaN ? 1 : 0
        case .isinf: return a[0].isInfinite ? 1 : 0
        case .sgn: return a[0] > 0 ? 1 : a[0] < 0 ? -1 : 0
        }
    }

    /// ffmpeg's named constants.
    static let constants: [String: Double] = ["PI": Double.pi, "E": 2.718281828459045, "PHI": 1.618033988749895]
}
