/// The operations of a compiled shader and the instructions the tile loop runs.
///
/// Every value is one Float per pixel (vectors and matrices are split into components; ints are
/// whole-number floats; bools are 0 or 1). The compiler (module MediaGraphShader) builds SSA over
/// these operations and schedules it into `Instruction`s; this module runs them.
package enum Op: UInt8 {
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
    /// Bilinear, clamp-to-edge sample of input `input` at (a, b); four results (this and the next three values,
    /// which are `.channel`).
    case texture
    /// The texel of input `input` at (x + imm, y + imm2), clamped to the frame (a bilinear sample
    /// there when that input's size differs from the destination's); four results like `.texture`.
    case loadPixel
    /// Result `imm2` of the multi-result instruction at `a`.
    case channel

    package var operandCount: Int {
        switch self {
        case .const, .uniform, .frameWidth, .frameHeight, .texelWidth, .texelHeight, .coordX, .coordY, .opaque, .loadPixel, .channel: return 0
        case .add, .sub, .mul, .div, .min, .max, .mod, .atan2, .pow, .lt, .le, .eq, .ne, .and, .or, .xor, .texture: return 2
        case .select: return 3
        default: return 1
        }
    }

    package var isCommutative: Bool {
        switch self {
        case .add, .mul, .min, .max, .eq, .ne, .and, .or, .xor: return true
        default: return false
        }
    }

    /// Values fixed for the whole frame: computed once per frame, not per pixel.
    package var isFrameSource: Bool {
        switch self {
        case .const, .uniform, .frameWidth, .frameHeight, .texelWidth, .texelHeight: return true
        default: return false
        }
    }

    /// Results of a multi-result instruction.
    package var resultCount: Int { self == .texture || self == .loadPixel ? 4 : 1 }
}

/// One instruction of the compiled kernel: operands and results are registers, each register
/// holding `Instruction.lanes` floats (one per pixel of a tile).
package struct Instruction {
    /// Pixels per tile: 64 floats per register keeps a shader's registers in the L1 cache.
    /// (Computed, so the tile loop's trip counts are constants it can unroll.)
    package static var lanes: Int { 64 }
    /// Bytes of one register.
    package static var registerBytes: Int { lanes * 4 }

    package var op: Op
    /// The input frame `.texture` and `.loadPixel` read (0: the first).
    package var input: UInt8 = 0
    package var dst: Int32
    package var a: Int32 = -1
    package var b: Int32 = -1
    package var c: Int32 = -1
    /// Extra results of `.texture` / `.loadPixel` (green, blue, alpha).
    package var dst1: Int32 = -1
    package var dst2: Int32 = -1
    package var dst3: Int32 = -1
    package var imm: Float = 0
    package var imm2: Int32 = 0

    package init(op: Op, dst: Int32, a: Int32 = -1, b: Int32 = -1, c: Int32 = -1, imm: Float = 0, imm2: Int32 = 0, input: UInt8 = 0) {
        self.op = op; self.dst = dst; self.a = a; self.b = b; self.c = c; self.imm = imm; self.imm2 = imm2; self.input = input
    }
}
