import Dispatch
import Synchronization
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
    /// Uniform values are folded into the code as constants, except the live ones
    /// (`BoundShaderProgram.liveUniforms`), which the setup code reads from here each frame.
    private let uniforms: UnsafeMutablePointer<Float>
    /// The input frames of the run under way, as the tile loop reads them (one per input).
    private let inputs: UnsafeMutablePointer<TileInput>
    private let inputCount: Int
    /// One register file per band (thread).
    private var registerFiles: [UnsafeMutableRawPointer] = []
    /// The next chunk of rows a band takes (reset at each run; a kernel runs one frame at a time).
    private let nextChunk = Atomic<Int>(0)
    /// Chunks of rows per band: enough that a slowed band hands work over, few enough that each
    /// chunk's setup and cache warm-up stay small (at 1080p with 2 bands, 67 rows a chunk).
    static let chunksPerBand = 8
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
        let slots = max(1, program.uniformValues.count)
        uniforms = .allocate(capacity: slots)
        uniforms.initialize(repeating: 0, count: slots)
        for (k, v) in program.uniformValues.enumerated() { uniforms[k] = v }
        inputCount = program.program.inputCount
        inputs = .allocate(capacity: inputCount)
        inputs.initialize(repeating: TileInput(data: nil, stride: 0, width: 0, height: 0), count: inputCount)
        registerFileBytes = max(1, code.registerCount) * Instruction.registerBytes
        colorMatrix = ColorMatrixKernel(colorMap ?? .identity, vectorPath: vectorPath)
        pointwise = program.isPointwise
    }

    deinit {
        uniforms.deallocate()
        inputs.deallocate()
        for f in registerFiles { f.deallocate() }
    }

    /// Sets a live uniform (bound with `bind(uniforms:live:)`) for the next runs; no recompile.
    public func setUniform(_ name: String, _ value: Float) throws {
        guard let slot = program.liveUniforms[name] else {
            throw ShaderRunError(description: "shader \(program.name): uniform '\(name)' was not bound to change per frame")
        }
        uniforms[slot] = value
    }

    /// Bytes of register files one kernel may hold (one file per band of rows).
    public static let maximumRegisterMemory = 64 << 20

    /// Whether `run` may be given the same frame as source and destination: true for colour-map
    /// and other point-wise shaders, which read only the pixel they write (a tile reads its
    /// pixels before it stores them; bands are disjoint rows).
    public var runsInPlace: Bool { colorMap != nil || pointwise }
    private let pointwise: Bool

    /// Runs the shader for every pixel of `destination`, sampling `source` (a distinct buffer of
    /// the same size, or the same one when `runsInPlace`). Both must be rgba. `threads` 0 uses every core.
    /// For a shader of one input texture (or none); see `run(sources:destination:threads:)`.
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        guard inputCount == 1 else {
            throw ShaderRunError(description: "shader \(program.name) reads \(inputCount) input textures (\(describeInputs())); give as many frames")
        }
        try setInput(0, source, destination: destination)
        try execute(source: source, destination: destination, threads: threads)
    }

    /// Runs a shader of N input textures: `sources[k]` is input k (`inputImageTexture`,
    /// `inputImageTexture2`, ...). The destination has the first input's size; the others may
    /// have any size, each sampled with its own (texture coordinates are normalised, as on a
    /// GPU). All rgba, none the destination's buffer (except the first when `runsInPlace`).
    public func run(sources: [FramePlanes], destination: FramePlanes, threads: Int = 0) throws {
        guard sources.count == inputCount else {
            throw ShaderRunError(description: "shader \(program.name) reads \(inputCount) input textures (\(describeInputs())), given \(sources.count) frames")
        }
        for k in 0..<sources.count { try setInput(k, sources[k], destination: destination) }
        try execute(source: sources[0], destination: destination, threads: threads)
    }

    private func describeInputs() -> String {
        (0..<inputCount).map { k in
            let names = program.program.textureNames
            return k < names.count ? names[k].map { "'\($0)'" } ?? "unused" : "unused"
        }.joined(separator: ", ")
    }

    /// Checks input `k` and records it for the tile loop.
    private func setInput(_ k: Int, _ source: FramePlanes, destination: FramePlanes) throws {
        let what = inputCount == 1 ? "source" : "input \(k + 1)"
        guard source.format == .rgba, destination.format == .rgba else {
            throw ShaderRunError(description: "shader filter needs rgba frames, found \(what) \(source.format) -> \(destination.format)")
        }
        guard source.width > 0, source.height > 0 else {
            throw ShaderRunError(description: "shader filter: \(what) is empty (\(source.width)x\(source.height))")
        }
        if k == 0 {
            guard source.width == destination.width, source.height == destination.height else {
                throw ShaderRunError(description: "shader filter: \(what) \(source.width)x\(source.height) and destination \(destination.width)x\(destination.height) must be the same non-empty size")
            }
        }
        guard source.data0 != destination.data0 || (runsInPlace && k == 0) else {
            throw ShaderRunError(description: "shader filter: \(what) and destination must be distinct buffers (a shader may sample any pixel)")
        }
        inputs[k] = TileInput(data: UnsafePointer(source.data0), stride: source.stride0, width: source.width, height: source.height)
    }

    /// The rgba bytes of a colour map that ignores its input, as the tile loop stores a colour
    /// (clamped, scaled by 255, rounded to nearest even in Float); nil for any other map.
    static func constantPixel(_ map: ColorTransform) -> (UInt8, UInt8, UInt8, UInt8)? {
        guard map.intensity == 1, map.rows.allSatisfy({ $0 == .zero }) else { return nil }
        func byte(_ v: Double) -> UInt8 {
            let c = min(max(Float(v), 0), 1)  // NaN is not possible: the offset is a folded constant
            return UInt8((c * 255).rounded(.toNearestOrEven))
        }
        return (byte(map.offset[0]), byte(map.offset[1]), byte(map.offset[2]), byte(map.offset[3]))
    }

    private func execute(source: FramePlanes, destination: FramePlanes, threads: Int) throws {
        if let colorMap {
            // A colour map of the pixel's own colour: the built-in kernels compute the same
            // formula on bytes (within the documented 1 LSB; invert exactly).
            if let pixel = ShaderKernel.constantPixel(colorMap) {
                // One colour whatever the input (a solid colour; GPUImage's histogram
                // accumulation): written, not computed.
                RowBands.run(rows: destination.height, threads: threads) { band in
                    TileLoop.fill(rows: band, destination: destination.data0, stride: destination.stride0,
                                  width: destination.width, pixel: pixel)
                }
            } else if ColorMapRecognizer.isInvert(colorMap) {
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
            // The rows go in chunks that the bands take in turn, each band with its own register
            // file: a band whose core the machine lends elsewhere for a while takes fewer chunks,
            // so the frame ends when the work does, not when the slower of fixed halves does.
            let chunks = max(bands, min(rows / 8, bands * Self.chunksPerBand))
            nextChunk.store(0, ordering: .relaxed)
            RowBands.concurrently(bands) { band in
                while true {
                    let chunk = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard chunk < chunks else { break }
                    runBand(rows * chunk / chunks ..< rows * (chunk + 1) / chunks, registers: files[band],
                            source: source, destination: destination)
                }
            }
        }
    }

    private func runBand(_ rows: Range<Int>, registers: UnsafeMutableRawPointer, source: FramePlanes, destination: FramePlanes) {
        let out = code.output
        code.setup.withUnsafeBufferPointer { setup in
            code.pixel.withUnsafeBufferPointer { pixel in
                TileLoop.run(avx2: useAVX2, rows: rows, registers: registers,
                             inputs: UnsafeBufferPointer(start: inputs, count: inputCount), width: source.width, height: source.height,
                             destination: destination.data0, destinationStride: destination.stride0,
                             setup: setup, pixel: pixel, output: (out[0], out[1], out[2], out[3]),
                             uniforms: UnsafePointer(uniforms))
            }
        }
    }

}
