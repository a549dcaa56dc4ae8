import MediaGraphCore
import MediaGraphKernelsAVX2

/// Runs `PlaneLines` on 8-bit planar Y'CbCr frames: each plane through its line in 16-bit fixed
/// point (`PlaneLineFixed16`), rounded once. On AVX2 CPUs 32 samples a step in registers
/// (`planeLineRowAVX2`), about half an instruction a sample where a table costs a load; elsewhere
/// through the same bytes as tables (`PlaneCurvesKernel`). Either way its output for each byte is
/// `fixed[p].output(v)`.
public struct PlaneLinesKernel: Sendable {
    /// Pixel formats the kernel accepts.
    public static let formats = PlaneCurvesKernel.formats

    public let lines: PlaneLines
    /// Y', Cb and Cr as the vector loop computes them.
    public let fixed: [PlaneLineFixed16]
    /// The bytes the kernel writes, as tables.
    public let curves: PlaneCurves
    private let tables: PlaneCurvesKernel
    /// `curves`' tables one after the other, for the samples after the vector loop's last step.
    private let bytes: [UInt8]
    private let avx2: Bool

    /// nil when a plane's gain is too large for 16 bits (|gain| ≥ 128).
    public init?(_ lines: PlaneLines, vectorPath: VectorPath = .detected) {
        let fixed = lines.planes.compactMap(PlaneLineFixed16.init)
        guard fixed.count == 3 else { return nil }
        self.lines = lines
        self.fixed = fixed
        curves = PlaneCurves(y: fixed[0].table, cb: fixed[1].table, cr: fixed[2].table)!
        tables = PlaneCurvesKernel(curves)
        bytes = curves.y + curves.cb + curves.cr
        avx2 = vectorPath == .avx2 && CPUFeatures.hasAVX2FMA
    }

    /// Applies the lines from `source` into `destination` (same format and size; may be the same
    /// memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        guard avx2 else { return try tables.run(source: source, destination: destination, threads: threads) }
        try FrameCheck.validate(kernel: "planelines", source: source, destination: destination, accepted: Self.formats)
        let fixed = self.fixed
        _ = bytes.withUnsafeBufferPointer { bytes in
            RowBands.run(rows: source.height, threads: threads) { band in
                for p in 0..<3 {
                    let line = fixed[p], table = bytes.baseAddress! + 256 * p
                    let n = source.rowBytes(p)
                    let s = source.data(p), d = destination.data(p)
                    let ss = source.stride(p), ds = destination.stride(p)
                    for row in RowBands.planeRows(band, plane: p, of: source) {
                        let from = s + row * ss, to = d + row * ds
                        var x = planeLineRowAVX2(from, to, n, multiplier: line.multiplier, addend: line.addend,
                                                 shift: line.shift, low: line.low, high: line.high)
                        while x < n { to[x] = table[Int(from[x])]; x += 1 }
                    }
                }
            }
        }
    }
}
