import MediaGraphCore

/// Runs `PlaneCurves` on 8-bit planar Y'CbCr frames: one table look-up per sample, exact.
///
/// Samples are looked up two at a time through a table of 65536 byte pairs per plane (as
/// `ChannelCurvesKernel` does for pixels), half the look-ups of one byte at a time; neighbouring
/// samples are close, so the look-ups touch few of the table's cache lines.
public struct PlaneCurvesKernel: Sendable {
    /// Pixel formats the kernel accepts.
    public static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p]

    public let curves: PlaneCurves
    /// 65536 pairs for Y', then for Cb, then for Cr.
    private let pairs: [UInt16]

    public init(_ curves: PlaneCurves) {
        self.curves = curves
        var pairs = [UInt16](repeating: 0, count: 3 * 65536)
        for (k, table) in [curves.y, curves.cb, curves.cr].enumerated() {
            for v in 0..<65536 { pairs[k * 65536 + v] = UInt16(table[v & 0xFF]) | UInt16(table[v >> 8]) << 8 }
        }
        self.pairs = pairs
    }

    /// Applies the tables from `source` into `destination` (same format and size; may be the
    /// same memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "planecurves", source: source, destination: destination, accepted: Self.formats)
        _ = pairs.withUnsafeBufferPointer { all in
            RowBands.run(rows: source.height, threads: threads) { band in
                for p in 0..<3 {
                    let table = all.baseAddress! + p * 65536
                    let bytes = source.rowBytes(p)
                    let s = source.data(p), d = destination.data(p)
                    let ss = source.stride(p), ds = destination.stride(p)
                    for y in RowBands.planeRows(band, plane: p, of: source) {
                        Self.row(UnsafeRawPointer(s + y * ss), UnsafeMutableRawPointer(d + y * ds), bytes, table)
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
