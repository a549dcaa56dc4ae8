import MediaGraphShaderTiles

/// The intermediate form the shader compiles to: straight-line SSA over scalar lanes, one `Op`
/// (module MediaGraphShaderTiles, which runs them) per value. Every value is one Float per pixel
/// (vectors and matrices are split into components; ints are whole-number floats; bools are 0
/// or 1). Control flow is already gone: loops are unrolled, functions inlined, branches turned
/// into `select` under masks.

/// One SSA value: an operation on earlier values.
struct Node: Hashable {
    var op: Op
    var a: Int32 = -1
    var b: Int32 = -1
    var c: Int32 = -1
    var imm: Float = 0
    var imm2: Int32 = 0
    /// The input frame of `.texture` / `.loadPixel` (0: the first).
    var input: UInt8 = 0
}
