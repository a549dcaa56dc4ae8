import Dispatch
import MediaGraphCore
import MediaGraphKernels
import MediaGraphShaderTiles

/// Why a frame could not be processed.
public struct ShaderRunError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Runs a bound shader over rgba frames, rows split across cores. Reusable from frame to frame:
/// register files are allocated on the first frame and kept, so steady state allocates nothing.
/// One `run` at a time per kernel.
public final class ShaderKernel {
    public let program: BoundShaderProgram
    private let code: KernelCode
    /// Uniform values are folded into the code as constants; the setup code reads none.
    private let uniforms: UnsafeMutablePointer<Float>
    /// One register file per band (thread).
    private var registerFiles: [UnsafeMutableRawPointer] = []
    private let registerFileBytes: Int
    /// Whether the tile loop runs the AVX2 build (the CPU has AVX2 and FMA and `vectorPath`
    /// allows it).
    private let useAVX2: Bool
    /// The colour map this kernel runs with the built-in kernels, if any.
    private let colorMap: ColorTransform?
    /// The colour-map path's kernel (identity when the shader is not a colour map).
    private let colorMatrix: ColorMatrixKernel

    /// `colorMaps: false` runs even a colour-map shader through the general tile kernel (for
    /// comparisons; the results agree within 1 LSB). `vectorPath` picks the row loops of the tile
    /// kernel and of the colour-map kernel (AVX2 only where the CPU has it).
    public init(program: BoundShaderProgram, colorMaps: Bool = true, vectorPath: VectorPath = .detected) {
        self.program = program
        useAVX2 = vectorPath == .avx2 && VectorPath.detected == .avx2
        colorMap = colorMaps ? program.colorMap : nil
        code = program.code
        uniforms = .allocate(capacity: 1)
        uniforms[0] = 0
        registerFileBytes = max(1, code.registerCount) * Instruction.registerBytes
        colorMatrix = ColorMatrixKernel(colorMap ?? .identity, vectorPath: vectorPath)
    }

    deinit {
        uniforms.deallocate()
        for f in registerFiles { f.deallocate() }
    }

    /// Bytes of register files one kernel may hold (one file per band of rows).
    public static let maximumRegisterMemory = 64 << 20

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
        // Each band has its own register file: together they stay within `maximumRegisterMemory`
        // (a large shader with many threads asked for runs in fewer bands, not in more memory).
        let affordable = max(1, ShaderKernel.maximumRegisterMemory / registerFileBytes)
        let bands = max(1, min(wanted, rows / 8, affordable))
        while registerFiles.count < bands {
            registerFiles.append(.allocate(byteCount: registerFileBytes, alignment: 64))
        }
        let files = registerFiles
        if bands == 1 {
            runBand(0..<rows, registers: files[0], source: source, destination: destination)
        } else {
            RowBands.concurrently(bands) { band in
                runBand(rows * band / bands ..< rows * (band + 1) / bands, registers: files[band],
                        source: source, destination: destination)
            }
        }
    }

    private func runBand(_ rows: Range<Int>, registers: UnsafeMutableRawPointer, source: FramePlanes, destination: FramePlanes) {
        let out = code.output
        code.setup.withUnsafeBufferPointer { setup in
            code.pixel.withUnsafeBufferPointer { pixel in
                TileLoop.run(avx2: useAVX2, rows: rows, registers: registers, source: UnsafePointer(source.data0),
                             sourceStride: source.stride0, width: source.width, height: source.height,
                             destination: destination.data0, destinationStride: destination.stride0,
                             setup: setup, pixel: pixel, output: (out[0], out[1], out[2], out[3]),
                             uniforms: UnsafePointer(uniforms))
            }
        }
    }

}
