#if arch(x86_64)
/// The entry point of this module: `BandRunner.run` compiled for AVX2 (this module's other
/// files are links to the shader module's own, so both run the same source). `ShaderKernel`
/// calls it only on CPUs with AVX2 and FMA.
///
/// The instruction buffers are the caller's `Instruction` values, which have the same source and
/// so the same layout as this module's copy of the type; `instructionStride` is checked all the
/// same, and a mismatch returns false (the caller then runs its own loop).
public func shaderBandAVX2(rows: Range<Int>, registers: UnsafeMutableRawPointer, source: UnsafePointer<UInt8>,
                           sourceStride: Int, width: Int, height: Int,
                           destination: UnsafeMutablePointer<UInt8>, destinationStride: Int,
                           setup: UnsafeRawBufferPointer, pixel: UnsafeRawBufferPointer, instructionStride: Int,
                           output: (Int32, Int32, Int32, Int32), uniforms: UnsafePointer<Float>) -> Bool {
    guard instructionStride == MemoryLayout<Instruction>.stride else { return false }
    func instructions(_ raw: UnsafeRawBufferPointer) -> UnsafeBufferPointer<Instruction> {
        guard let base = raw.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base.assumingMemoryBound(to: Instruction.self), count: raw.count / instructionStride)
    }
    BandRunner.run(rows: rows, registers: registers, source: source, sourceStride: sourceStride, width: width,
                   height: height, destination: destination, destinationStride: destinationStride,
                   setup: instructions(setup), pixel: instructions(pixel), output: output, uniforms: uniforms)
    return true
}
#endif
