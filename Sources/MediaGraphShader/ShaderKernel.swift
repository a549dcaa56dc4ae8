import Dispatch
import MediaGraphCore
import MediaGraphKernels

/// Why a frame could not be processed.
public struct ShaderRunError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Runs a bound shader over rgba frames, rows split across cores. Reusable from frame to frame:
/// register files are allocated on the first frame and kept, so steady state allocates nothing.
/// One `run` at a time per kernel.
public final class ShaderKernel: @unchecked Sendable {
    public let program: BoundShaderProgram
    private let code: KernelCode
    /// Uniform values are folded into the code as constants; the setup code reads none.
    private let uniforms: UnsafeMutablePointer<Float>
    /// One register file per band (thread).
    private var registerFiles: [UnsafeMutableRawPointer] = []
    private let registerFileBytes: Int
    /// The colour map this kernel runs with the built-in kernels, if any.
    private let colorMap: ColorTransform?
    /// The colour-map path's kernel (identity when the shader is not a colour map).
    private let colorMatrix: ColorMatrixKernel

    /// `colorMaps: false` runs even a colour-map shader through the general tile kernel (for
    /// comparisons; the results agree within 1 LSB).
    public init(program: BoundShaderProgram, colorMaps: Bool = true) {
        self.program = program
        colorMap = colorMaps ? program.colorMap : nil
        code = program.code
        uniforms = .allocate(capacity: 1)
        uniforms[0] = 0
        registerFileBytes = max(1, code.registerCount) * TileExecutor.registerBytes
        colorMatrix = ColorMatrixKernel(colorMap ?? .identity)
    }

    deinit {
        uniforms.deallocate()
        for f in registerFiles { f.deallocate() }
    }

    /// Whether `run` may be given the same frame as source and destination: true for colour-map
    /// shaders, which read only the pixel they write.
    public var runsInPlace: Bool { colorMap != nil }

    /// Runs the shader for every pixel of `destination`, sampling `source` (a distinct buffer of
    /// the same size, or the same one when `runsInPlace`). Both must be rgba. `threads` 0 uses every core.
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        guard source.format == .rgba, destination.format == .rgba else {
            throw ShaderRunError(description: "shader filter needs rgba frames, found \(source.format) -> \(destination.format)")
        }
        guard source.width == destination.width, source.height == destination.height, source.width > 0, source.height > 0 else {
            throw ShaderRunError(description: "shader filter: source \(source.width)x\(source.height) and destination \(destination.width)x\(destination.height) must be the same non-empty size")
        }
        guard source.data0 != destination.data0 || colorMap != nil else {
            throw ShaderRunError(description: "shader filter: source and destination must be distinct buffers (a shader may sample any pixel)")
        }
        if let colorMap {
            // A colour map of the pixel's own colour: the built-in kernels compute the same
            // formula on bytes (within the documented 1 LSB; invert exactly).
            if ColorMapRecognizer.isInvert(colorMap) {
                try InvertKernel().run(source: source, destination: destination, threads: threads)
            } else {
                try colorMatrix.run(source: source, destination: destination, threads: threads)
            }
            return
        }
        let rows = source.height
        let wanted = threads <= 0 ? RowBands.coreCount : threads
        let bands = max(1, min(wanted, rows / 8))
        while registerFiles.count < bands {
            registerFiles.append(.allocate(byteCount: registerFileBytes, alignment: 64))
        }
        let files = registerFiles
        if bands == 1 {
            runBand(0..<rows, registers: files[0], source: source, destination: destination)
        } else {
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                runBand(rows * band / bands ..< rows * (band + 1) / bands, registers: files[band],
                        source: source, destination: destination)
            }
        }
    }

    private func runBand(_ rows: Range<Int>, registers: UnsafeMutableRawPointer, source: FramePlanes, destination: FramePlanes) {
        let exec = TileExecutor(registers: registers, source: UnsafePointer(source.data0), sourceStride: source.stride0,
                                width: source.width, height: source.height,
                                widthF: Float(source.width), heightF: Float(source.height))
        let u = UnsafePointer(uniforms)
        code.setup.withUnsafeBufferPointer { setup in
            for inst in setup { exec.execute(inst, x0: 0, y: 0, uniforms: u) }
        }
        let width = source.width
        let out = code.output
        let r = exec.reg(out[0]), g = exec.reg(out[1]), b = exec.reg(out[2]), a = exec.reg(out[3])
        code.pixel.withUnsafeBufferPointer { pixel in
            for y in rows {
                let dstRow = destination.data0 + y * destination.stride0
                var x0 = 0
                while x0 < width {
                    for inst in pixel { exec.execute(inst, x0: x0, y: y, uniforms: u) }
                    let n = min(KernelCode.lanes, width - x0)
                    ShaderKernel.storePixels(dstRow + x0 * 4, count: n, r, g, b, a)
                    x0 += KernelCode.lanes
                }
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
        if count == KernelCode.lanes {
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
            for k in 0..<KernelCode.lanes / 8 {
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
