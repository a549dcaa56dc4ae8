/// The intermediate form the shader compiles to: straight-line SSA over scalar lanes. Every value
/// is one Float per pixel (vectors and matrices are split into components; ints are whole-number
/// floats; bools are 0 or 1). Control flow is already gone: loops are unrolled, functions inlined,
/// branches turned into `select` under masks.
enum Op: UInt8 {
    // Sources.
    case const, uniform, frameWidth, frameHeight, texelWidth, texelHeight
    /// ((x + dx) + 0.5) / width of each lane's pixel; dx in `imm`.
    case coordX
    /// ((y + dy) + 0.5) / height of the row; dy in `imm`.
    case coordY
    /// Placeholder for an unknown value while checking a function on its own.
    case opaque
    // Arithmetic.
    case add, sub, mul, div, neg, min, max, floor, ceil, trunc, fract, mod, abs, sign
    case sqrt, rsqrt, sin, cos, tan, asin, acos, atan, atan2, pow, exp, log, exp2, log2
    // Comparisons and logic: 1 or 0.
    case lt, le, eq, ne, and, or, not, xor
    /// a != 0 ? b : c
    case select
    /// Bilinear, clamp-to-edge sample at (a, b); four results (this and the next three values,
    /// which are `.channel`).
    case texture
    /// The texel at (x + imm, y + imm2), clamped to the frame; four results like `.texture`.
    case loadPixel
    /// Result `imm2` of the multi-result instruction at `a`.
    case channel

    var operandCount: Int {
        switch self {
        case .const, .uniform, .frameWidth, .frameHeight, .texelWidth, .texelHeight, .coordX, .coordY, .opaque, .loadPixel, .channel: return 0
        case .add, .sub, .mul, .div, .min, .max, .mod, .atan2, .pow, .lt, .le, .eq, .ne, .and, .or, .xor, .texture: return 2
        case .select: return 3
        default: return 1
        }
    }

    var isCommutative: Bool {
        switch self {
        case .add, .mul, .min, .max, .eq, .ne, .and, .or, .xor: return true
        default: return false
        }
    }

    /// Values fixed for the whole frame: computed once per frame, not per pixel.
    var isFrameSource: Bool {
        switch self {
        case .const, .uniform, .frameWidth, .frameHeight, .texelWidth, .texelHeight: return true
        default: return false
        }
    }

    /// Results of a multi-result instruction.
    var resultCount: Int { self == .texture || self == .loadPixel ? 4 : 1 }
}

/// One SSA value: an operation on earlier values.
struct Node: Hashable {
    var op: Op
    var a: Int32 = -1
    var b: Int32 = -1
    var c: Int32 = -1
    var imm: Float = 0
    var imm2: Int32 = 0
}
