import CMediaGraphShaderTiles

/// The entry point of the tile loop for the compiler's `ShaderKernel`: runs a band of rows with
/// the C tile loop (CMediaGraphShaderTiles), in its AVX2 build when asked and able, otherwise in
/// its baseline build.
///
/// The loop is C so that its AVX2 build needs only a function attribute, not per-target compiler
/// flags (SwiftPM refuses unsafe flags in a versioned dependency), and so that it runs without
/// Swift's bounds and overflow checks without `-Ounchecked`. The instruction buffers are passed as
/// they are: `Instruction` has `MGShaderInstruction`'s fields in its order (checked once here and
/// by a test).
/// One input frame of a shader for the tile loop: rgba bytes; the same fields in the same order
/// as the C `MGShaderInput` (checked by `TileLoop.layoutMatches`).
package struct TileInput {
    package var data: UnsafePointer<UInt8>?
    package var stride: Int
    package var width: Int
    package var height: Int
    package init(data: UnsafePointer<UInt8>?, stride: Int, width: Int, height: Int) {
        self.data = data; self.stride = stride; self.width = width; self.height = height
    }
}

package enum TileLoop {
    /// Rows `rows` of the destination set to one rgba pixel (`mg_fill_rows`).
    package static func fill(rows: Range<Int>, destination: UnsafeMutablePointer<UInt8>, stride: Int, width: Int,
                             pixel: (UInt8, UInt8, UInt8, UInt8)) {
        let word = UInt32(pixel.0) | UInt32(pixel.1) << 8 | UInt32(pixel.2) << 16 | UInt32(pixel.3) << 24
        mg_fill_rows(destination, stride, rows.lowerBound, rows.upperBound, width, UInt32(littleEndian: word))
    }

    /// `avx2`: the CPU has AVX2 and FMA and the caller allows that path.
    /// `inputs` has an entry for every input an instruction names; `width` x `height` is the
    /// destination's size.
    package static func run(avx2: Bool, rows: Range<Int>, registers: UnsafeMutableRawPointer,
                            inputs: UnsafeBufferPointer<TileInput>, width: Int, height: Int,
                            destination: UnsafeMutablePointer<UInt8>, destinationStride: Int,
                            setup: UnsafeBufferPointer<Instruction>, pixel: UnsafeBufferPointer<Instruction>,
                            output: (Int32, Int32, Int32, Int32), uniforms: UnsafePointer<Float>) {
        #if arch(x86_64)
        let useAVX2 = avx2
        #else
        let useAVX2 = false
        #endif
        func band(_ cInputs: UnsafePointer<MGShaderInput>?, _ s: UnsafePointer<MGShaderInstruction>?, _ sc: Int,
                  _ p: UnsafePointer<MGShaderInstruction>?, _ pc: Int) {
            withUnsafePointer(to: output) { o in
                o.withMemoryRebound(to: Int32.self, capacity: 4) { o in
                    mg_shader_band(useAVX2, rows.lowerBound, rows.upperBound, registers, cInputs, width,
                                   height, destination, destinationStride, s, sc, p, pc, o, uniforms)
                }
            }
        }
        if layoutMatches {
            let s = UnsafeRawPointer(setup.baseAddress)?.assumingMemoryBound(to: MGShaderInstruction.self)
            let p = UnsafeRawPointer(pixel.baseAddress)?.assumingMemoryBound(to: MGShaderInstruction.self)
            let i = UnsafeRawPointer(inputs.baseAddress)?.assumingMemoryBound(to: MGShaderInput.self)
            band(i, s, setup.count, p, pixel.count)
        } else {
            // Not reached with today's compiler; kept so a layout change costs speed, not memory safety.
            let s = setup.map(cInstruction), p = pixel.map(cInstruction)
            let i = inputs.map { MGShaderInput(data: $0.data, stride: $0.stride, width: $0.width, height: $0.height) }
            i.withUnsafeBufferPointer { i in
                s.withUnsafeBufferPointer { s in
                    p.withUnsafeBufferPointer { p in band(i.baseAddress, s.baseAddress, s.count, p.baseAddress, p.count) }
                }
            }
        }
    }

    static func cInstruction(_ i: Instruction) -> MGShaderInstruction {
        MGShaderInstruction(op: i.op.rawValue, input: i.input, dst: i.dst, a: i.a, b: i.b, c: i.c, dst1: i.dst1, dst2: i.dst2,
                            dst3: i.dst3, imm: i.imm, imm2: i.imm2)
    }

    /// Whether a Swift `Instruction` has the C struct's layout, with `Op` stored as its raw value.
    package static let layoutMatches: Bool = {
        typealias S = MemoryLayout<Instruction>
        typealias C = MemoryLayout<MGShaderInstruction>
        let fields: [(PartialKeyPath<Instruction>, PartialKeyPath<MGShaderInstruction>)] = [
            (\.op, \.op), (\.input, \.input), (\.dst, \.dst), (\.a, \.a), (\.b, \.b), (\.c, \.c), (\.dst1, \.dst1), (\.dst2, \.dst2),
            (\.dst3, \.dst3), (\.imm, \.imm), (\.imm2, \.imm2),
        ]
        guard S.stride == C.stride, S.size == C.size,
              fields.allSatisfy({ S.offset(of: $0.0) == C.offset(of: $0.1) }) else { return false }
        typealias SI = MemoryLayout<TileInput>
        typealias CI = MemoryLayout<MGShaderInput>
        let inputFields: [(PartialKeyPath<TileInput>, PartialKeyPath<MGShaderInput>)] = [
            (\.data, \.data), (\.stride, \.stride), (\.width, \.width), (\.height, \.height),
        ]
        guard SI.stride == CI.stride, SI.size == CI.size,
              inputFields.allSatisfy({ SI.offset(of: $0.0) == CI.offset(of: $0.1) }) else { return false }
        return opCodesMatch
    }()

    /// Whether every `Op` is stored as its raw value and that value is the C operation code.
    package static let opCodesMatch: Bool = {
        let codes: [(Op, Int)] = [
            (.const, MG_OP_CONST), (.uniform, MG_OP_UNIFORM), (.frameWidth, MG_OP_FRAME_WIDTH),
            (.frameHeight, MG_OP_FRAME_HEIGHT), (.texelWidth, MG_OP_TEXEL_WIDTH), (.texelHeight, MG_OP_TEXEL_HEIGHT),
            (.coordX, MG_OP_COORD_X), (.coordY, MG_OP_COORD_Y), (.opaque, MG_OP_OPAQUE),
            (.add, MG_OP_ADD), (.sub, MG_OP_SUB), (.mul, MG_OP_MUL), (.div, MG_OP_DIV), (.neg, MG_OP_NEG),
            (.min, MG_OP_MIN), (.max, MG_OP_MAX), (.floor, MG_OP_FLOOR), (.ceil, MG_OP_CEIL),
            (.trunc, MG_OP_TRUNC), (.fract, MG_OP_FRACT), (.mod, MG_OP_MOD), (.abs, MG_OP_ABS), (.sign, MG_OP_SIGN),
            (.sqrt, MG_OP_SQRT), (.rsqrt, MG_OP_RSQRT), (.sin, MG_OP_SIN), (.cos, MG_OP_COS), (.tan, MG_OP_TAN),
            (.asin, MG_OP_ASIN), (.acos, MG_OP_ACOS), (.atan, MG_OP_ATAN), (.atan2, MG_OP_ATAN2),
            (.pow, MG_OP_POW), (.exp, MG_OP_EXP), (.log, MG_OP_LOG), (.exp2, MG_OP_EXP2), (.log2, MG_OP_LOG2),
            (.lt, MG_OP_LT), (.le, MG_OP_LE), (.eq, MG_OP_EQ), (.ne, MG_OP_NE), (.and, MG_OP_AND),
            (.or, MG_OP_OR), (.not, MG_OP_NOT), (.xor, MG_OP_XOR), (.select, MG_OP_SELECT),
            (.texture, MG_OP_TEXTURE), (.loadPixel, MG_OP_LOAD_PIXEL), (.channel, MG_OP_CHANNEL),
        ]
        return codes.count == MG_OP_COUNT && Op(rawValue: UInt8(MG_OP_COUNT)) == nil
            && codes.allSatisfy { op, code in
                var stored = op
                let byte = withUnsafeBytes(of: &stored) { $0[0] }
                return Int(op.rawValue) == code && byte == op.rawValue
            }
    }()
}
