import MediaGraphShaderAVX2

/// The entry point of the tile loop for the compiler's `ShaderKernel`: runs a band of rows with
/// the AVX2 build (MediaGraphShaderAVX2, the same source compiled for AVX2+FMA) when asked and
/// able, otherwise with this module's baseline build.
///
/// This module and the AVX2 one are the only shader code compiled with `-Ounchecked` (the tile
/// loop is where it measurably matters); the lexer, parser, type checker and compiler keep their
/// checks.
package enum TileLoop {
    /// `avx2`: the CPU has AVX2 and FMA and the caller allows that path.
    package static func run(avx2: Bool, rows: Range<Int>, registers: UnsafeMutableRawPointer,
                            source: UnsafePointer<UInt8>, sourceStride: Int, width: Int, height: Int,
                            destination: UnsafeMutablePointer<UInt8>, destinationStride: Int,
                            setup: UnsafeBufferPointer<Instruction>, pixel: UnsafeBufferPointer<Instruction>,
                            output: (Int32, Int32, Int32, Int32), uniforms: UnsafePointer<Float>) {
        #if arch(x86_64)
        if avx2 && shaderBandAVX2(rows: rows, registers: registers, source: source, sourceStride: sourceStride,
                                  width: width, height: height, destination: destination,
                                  destinationStride: destinationStride, setup: UnsafeRawBufferPointer(setup),
                                  pixel: UnsafeRawBufferPointer(pixel), instructionStride: MemoryLayout<Instruction>.stride,
                                  output: output, uniforms: uniforms) {
            return
        }
        #endif
        BandRunner.run(rows: rows, registers: registers, source: source, sourceStride: sourceStride,
                       width: width, height: height, destination: destination, destinationStride: destinationStride,
                       setup: setup, pixel: pixel, output: output, uniforms: uniforms)
    }
}
