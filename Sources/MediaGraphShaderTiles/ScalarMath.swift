#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The meaning of each lane operation on one Float: used to fold constants at compile time and
/// by the kernel for the operations it runs lane by lane. GLSL's definitions are kept where it
/// gives one (mod, fract, sign, inversesqrt, step-like comparisons).
package enum ScalarMath {
    @inline(__always)
    package static func unary(_ op: Op, _ x: Float) -> Float {
        switch op {
        case .neg: return -x
        case .floor: return x.rounded(.down)
        case .ceil: return x.rounded(.up)
        case .trunc: return x.rounded(.towardZero)
        case .fract: return x - x.rounded(.down)
        case .abs: return Swift.abs(x)
        case .sign: return x > 0 ? 1 : (x < 0 ? -1 : 0)
        case .sqrt: return x.squareRoot()
        case .rsqrt: return 1 / x.squareRoot()
        case .sin: return sinf(x)
        case .cos: return cosf(x)
        case .tan: return tanf(x)
        case .asin: return asinf(x)
        case .acos: return acosf(x)
        case .atan: return atanf(x)
        case .exp: return expf(x)
        case .log: return logf(x)
        case .exp2: return exp2f(x)
        case .log2: return log2f(x)
        case .not: return x != 0 ? 0 : 1
        default: return x
        }
    }

    @inline(__always)
    package static func binary(_ op: Op, _ x: Float, _ y: Float) -> Float {
        switch op {
        case .add: return x + y
        case .sub: return x - y
        case .mul: return x * y
        case .div: return x / y
        case .min: return y < x ? y : x
        case .max: return x < y ? y : x
        case .mod: return x - y * (x / y).rounded(.down)
        case .atan2: return atan2f(x, y)
        case .pow: return powf(x, y)
        case .lt: return x < y ? 1 : 0
        case .le: return x <= y ? 1 : 0
        case .eq: return x == y ? 1 : 0
        case .ne: return x != y ? 1 : 0
        case .and: return (x != 0 && y != 0) ? 1 : 0
        case .or: return (x != 0 || y != 0) ? 1 : 0
        case .xor: return ((x != 0) != (y != 0)) ? 1 : 0
        default: return x
        }
    }

    static func evaluate(_ op: Op, _ a: Float, _ b: Float, _ c: Float) -> Float {
        switch op.operandCount {
        case 1: return unary(op, a)
        case 2: return binary(op, a, b)
        default: return a != 0 ? b : c
        }
    }
}
