/// Runs the compiled shader over a band of rows: the per-frame setup code once, then the pixel
/// code for every tile of `Instruction.lanes` pixels, each tile stored as rgba bytes.
///
/// This file is compiled twice: here, for baseline x86-64, and (through a symbolic link, with
/// TileExecutor and the other files it needs) in MediaGraphShaderAVX2 for CPUs with AVX2, where
/// each SIMD8<Float> operation is one instruction instead of two.
package enum BandRunner {
    package static func run(rows: Range<Int>, registers: UnsafeMutableRawPointer, source: UnsafePointer<UInt8>,
                    sourceStride: Int, width: Int, height: Int,
                    destination: UnsafeMutablePointer<UInt8>, destinationStride: Int,
                    setup: UnsafeBufferPointer<Instruction>, pixel: UnsafeBufferPointer<Instruction>,
                    output: (Int32, Int32, Int32, Int32), uniforms: UnsafePointer<Float>) {
        let exec = TileExecutor(registers: registers, source: source, sourceStride: sourceStride,
                                width: width, height: height, widthF: Float(width), heightF: Float(height))
        for inst in setup { exec.execute(inst, x0: 0, y: 0, uniforms: uniforms) }
        let r = exec.reg(output.0), g = exec.reg(output.1), b = exec.reg(output.2), a = exec.reg(output.3)
        for y in rows {
            let dstRow = destination + y * destinationStride
            var x0 = 0
            while x0 < width {
                for inst in pixel { exec.execute(inst, x0: x0, y: y, uniforms: uniforms) }
                let n = min(Instruction.lanes, width - x0)
                storePixels(dstRow + x0 * 4, count: n, r, g, b, a)
                x0 += Instruction.lanes
            }
        }
    }

    /// Clamps to 0...1, scales to 0...255 and rounds to nearest (ties to even); NaN becomes 0.
    @inline(__always)
    static func storePixels(_ dst: UnsafeMutablePointer<UInt8>, count: Int,
                            _ r: UnsafeMutableRawPointer, _ g: UnsafeMutableRawPointer,
                            _ b: UnsafeMutableRawPointer, _ a: UnsafeMutableRawPointer) {
        @inline(__always) func byte(_ p: UnsafeMutableRawPointer, _ l: Int) -> UInt8 {
            let v = p.load(fromByteOffset: l * 4, as: Float.self)
            // NaN fails both comparisons and lands on 0; rounding as in the SIMD path.
            let c: Float = v > 0 ? (v < 1 ? v : 1) : 0
            return UInt8(truncatingIfNeeded: (c * 255 + 12_582_912).bitPattern)
        }
        var done = 0
        if count == Instruction.lanes {
            // 8 pixels at a time: clamp (NaN to 0), scale, round, pack rgba into one word each.
            typealias V = SIMD8<Float>
            let raw = UnsafeMutableRawPointer(dst)
            @inline(__always) func bytes(_ p: UnsafeMutableRawPointer, _ k: Int) -> SIMD8<UInt32> {
                let v = p.load(fromByteOffset: k * 32, as: V.self)
                var c = v.replacing(with: 0, where: .!(v .> 0))
                c = c.replacing(with: 1, where: c .> 1)
                // Adding 1.5 * 2^23 rounds c * 255 to the nearest integer (ties to even, as GPUs
                // convert to unorm8) and leaves it in the low mantissa bits.
                return unsafeBitCast(c * 255 + 12_582_912, to: SIMD8<UInt32>.self) & 0xFF
            }
            for k in 0..<Instruction.lanes / 8 {
                let word = bytes(r, k) | (bytes(g, k) &<< 8) | (bytes(b, k) &<< 16) | (bytes(a, k) &<< 24)
                raw.storeBytes(of: word, toByteOffset: k * 32, as: SIMD8<UInt32>.self)
            }
            done = count
        }
        for l in done..<count {
            let p = dst + l * 4
            p[0] = byte(r, l)
            p[1] = byte(g, l)
            p[2] = byte(b, l)
            p[3] = byte(a, l)
        }
    }
}
