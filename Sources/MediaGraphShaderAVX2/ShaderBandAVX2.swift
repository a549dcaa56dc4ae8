#if arch(x86_64)
/// The entry point of this module: `BandRunner.run` compiled for AVX2 (this module's other
/// files are links to MediaGraphShaderTiles' own, so both run the same source). `TileLoop` calls
/// it only on CPUs with AVX2 and FMA.
///
/// The instruction buffers are the caller's `Instruction` values, which have the same source and
/// so the same layout as this module's copy of the type; `instructionStride` is checked all the
/// same, and a mismatch returns false (the caller then runs its own loop).
///
/// The 8-lane bilinear sampler computes texel byte offsets in 32-bit lanes; a frame whose source
/// plane spans more than `Int32.max` bytes (over 2 GiB) also returns false, so the caller's
/// baseline loop, which computes them in Int, runs it instead.
public func shaderBandAVX2(rows: Range<Int>, registers: UnsafeMutableRawPointer, source: UnsafePointer<UInt8>,
                           sourceStride: Int, width: Int, height: Int,
                           destination: UnsafeMutablePointer<UInt8>, destinationStride: Int,
                           setup: UnsafeRawBufferPointer, pixel: UnsafeRawBufferPointer, instructionStride: Int,
                           output: (Int32, Int32, Int32, Int32), uniforms: UnsafePointer<Float>) -> Bool {
    guard instructionStride == MemoryLayout<Instruction>.stride,
          offsetsFitIn32Bits(sourceStride: sourceStride, width: width, height: height) else { return false }
    func instructions(_ raw: UnsafeRawBufferPointer) -> UnsafeBufferPointer<Instruction> {
        guard let base = raw.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base.assumingMemoryBound(to: Instruction.self), count: raw.count / instructionStride)
    }
    BandRunner.run(rows: rows, registers: registers, source: source, sourceStride: sourceStride, width: width,
                   height: height, destination: destination, destinationStride: destinationStride,
                   setup: instructions(setup), pixel: instructions(pixel), output: output, uniforms: uniforms)
    return true
}

/// Whether every byte the sampler may read, (height - 1) * stride + width * 4, is an offset an
/// Int32 holds (checked without overflowing: this module is compiled -Ounchecked).
func offsetsFitIn32Bits(sourceStride: Int, width: Int, height: Int) -> Bool {
    let limit = Int(Int32.max)
    guard sourceStride >= 0, sourceStride <= limit, width >= 1, width <= limit / 4, height >= 1, height <= limit else { return false }
    let (rowsBytes, overflow) = (height - 1).multipliedReportingOverflow(by: sourceStride)
    return !overflow && rowsBytes <= limit - width * 4
}
#endif
