import MediaGraphCore
import MediaGraphKernelsAVX2

/// Runs `PlaneCurves` on 8-bit planar Y'CbCr frames: one table look-up per sample, exact.
///
/// Samples are looked up two at a time through a table of 65536 byte pairs per plane (as
/// `ChannelCurvesKernel` does for pixels), half the look-ups of one byte at a time; neighbouring
/// samples are close, so the look-ups touch few of the table's cache lines. On CPUs with AVX-512
/// VBMI a row goes 64 samples at a time through the plane's table held in registers
/// (`byteTablesRowAVX512`), on AVX2 CPUs 32 at a time through the table's sixteen rows
/// (`byteTableRowAVX2`); the pairs do the rest of the row. A plane whose table a clamped line
/// in 16-bit fixed point gives exactly (the kernel is told the stage's lines and
/// `PlaneLineFixed16.matching` finds one) runs through that line on AVX2 CPUs instead, 32 samples
/// a step in registers (`planeLineRowAVX2`; a row's last samples one by one in the same
/// arithmetic): the same bytes at about half an instruction a sample, and no pair table for it.
public struct PlaneCurvesKernel: Sendable {
    /// Pixel formats the kernel accepts.
    public static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p]

    public let curves: PlaneCurves
    /// 65536 pairs for each plane that is looked up (not for one that runs as a line), in plane
    /// order; `pairStart[p]` is where plane p's begin.
    private let pairs: [UInt16]
    private let pairStart: [Int]
    /// The tables of Y', Cb and Cr, 256 bytes each.
    private let byteTables: [UInt8]
    private let avx512: Bool
    private let avx2: Bool
    /// Per plane (Y', Cb, Cr), the line that gives its table exactly and runs in its place;
    /// nil for a plane that is looked up (always, off the AVX2 path).
    public let exactLines: [PlaneLineFixed16?]

    /// `lines`: what the tables round, when they come from lines (`PlaneLines`). `vectorPath`
    /// `.sse2` keeps the pair tables; `avx512: false` keeps the AVX-512 loop out (as
    /// `MEDIAGRAPH_NO_AVX512=1` does), so tests can run each loop.
    public init(_ curves: PlaneCurves, lines: PlaneLines? = nil, vectorPath: VectorPath = .detected, avx512: Bool = true) {
        self.curves = curves
        let avx2 = vectorPath == .avx2 && CPUFeatures.hasAVX2FMA
        self.avx2 = avx2
        self.avx512 = avx512 && CPUFeatures.hasAVX512VBMI
        let tables = [curves.y, curves.cb, curves.cr]
        let exact = (0..<3).map { p -> PlaneLineFixed16? in
            guard avx2, let line = lines?.planes[p] else { return nil }
            return PlaneLineFixed16.matching(line, table: tables[p])
        }
        exactLines = exact
        let lookedUp = (0..<3).filter { exact[$0] == nil }
        var pairs = [UInt16](repeating: 0, count: lookedUp.count * 65536)
        var pairStart = [0, 0, 0]
        for (k, p) in lookedUp.enumerated() {
            pairStart[p] = k * 65536
            let table = tables[p]
            for v in 0..<65536 { pairs[k * 65536 + v] = UInt16(table[v & 0xFF]) | UInt16(table[v >> 8]) << 8 }
        }
        self.pairs = pairs
        self.pairStart = pairStart
        byteTables = curves.y + curves.cb + curves.cr
    }

    /// Applies the tables from `source` into `destination` (same format and size; may be the
    /// same memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "planecurves", source: source, destination: destination, accepted: Self.formats)
        let avx512 = self.avx512, avx2 = self.avx2, exactLines = self.exactLines, pairStart = self.pairStart
        _ = byteTables.withUnsafeBufferPointer { tables in
        pairs.withUnsafeBufferPointer { all in
            RowBands.run(rows: source.height, threads: threads) { band in
                for p in 0..<3 {
                    let bytes = source.rowBytes(p)
                    let s = source.data(p), d = destination.data(p)
                    let ss = source.stride(p), ds = destination.stride(p)
                    let rows = RowBands.planeRows(band, plane: p, of: source)
                    if let line = exactLines[p] {
                        for y in rows {
                            let rowIn = s + y * ss, rowOut = d + y * ds
                            var x = planeLineRowAVX2(rowIn, rowOut, bytes, multiplier: line.multiplier, addend: line.addend,
                                                     shift: line.shift, low: line.low, high: line.high)
                            while x < bytes { rowOut[x] = line.output(rowIn[x]); x += 1 }
                        }
                        continue
                    }
                    let table = all.baseAddress! + pairStart[p]
                    for y in rows {
                        let from = UnsafeRawPointer(s + y * ss), to = UnsafeMutableRawPointer(d + y * ds)
                        var done = 0
                        #if arch(x86_64)
                        if avx512 {
                            done = byteTablesRowAVX512(from, to, bytes: bytes, tables: tables.baseAddress! + 256 * p, oneTable: true, keepFourth: false)
                        } else if avx2 {
                            done = byteTableRowAVX2(from, to, bytes: bytes, table: tables.baseAddress! + 256 * p, keepFourth: false)
                        }
                        #endif
                        Self.row(from + done, to + done, bytes - done, table)
                    }
                }
            }
        }
        }
    }

    /// One row: pairs of samples through the pair table, an odd last sample through its low byte.
    @inline(__always)
    static func row(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ n: Int, _ table: UnsafePointer<UInt16>) {
        let pairs = n / 2
        for i in 0..<pairs {
            let v = s.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)
            d.storeBytes(of: table[Int(v)], toByteOffset: 2 * i, as: UInt16.self)
        }
        if n & 1 == 1 {
            let v = s.load(fromByteOffset: n - 1, as: UInt8.self)
            d.storeBytes(of: UInt8(truncatingIfNeeded: table[Int(v)]), toByteOffset: n - 1, as: UInt8.self)
        }
    }
}
