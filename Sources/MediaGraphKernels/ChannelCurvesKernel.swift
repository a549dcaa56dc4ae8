import MediaGraphCore

/// Runs `ChannelCurves` on rgba/bgra frames: one table look-up per colour byte, alpha copied.
///
/// A look-up is as cheap as any arithmetic on one byte and exact for every curve, so gamma and
/// levels need no maths per pixel at all.
public struct ChannelCurvesKernel: Sendable {
    /// Pixel formats the kernel accepts.
    public static let formats: [PixelFormat] = [.rgba, .bgra]

    public let curves: ChannelCurves
    /// 4 tables of 256 bytes in memory channel order, for rgba then for bgra (alpha: identity).
    private let tables: [UInt8]

    public init(_ curves: ChannelCurves) {
        self.curves = curves
        let identity = (0..<256).map { UInt8($0) }
        tables = curves.red + curves.green + curves.blue + identity
            + curves.blue + curves.green + curves.red + identity
    }

    /// Applies the curves from `source` into `destination` (same format and size; may be the same
    /// memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "curves", source: source, destination: destination,
                                accepted: Self.formats)
        let base = source.format == .bgra ? 1024 : 0
        tables.withUnsafeBufferPointer { all in
            let t0 = all.baseAddress! + base, t1 = t0 + 256, t2 = t0 + 512
            RowBands.run(rows: source.height, threads: threads) { band in
                for y in band {
                    let s = UnsafeRawPointer(source.data0 + y * source.stride0)
                    let d = UnsafeMutableRawPointer(destination.data0 + y * destination.stride0)
                    for x in 0..<source.width {
                        let p = s.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
                        let c0 = UInt32(t0[Int(p & 0xFF)])
                        let c1 = UInt32(t1[Int((p >> 8) & 0xFF)])
                        let c2 = UInt32(t2[Int((p >> 16) & 0xFF)])
                        d.storeBytes(of: c0 | c1 << 8 | c2 << 16 | (p & 0xFF00_0000),
                                     toByteOffset: 4 * x, as: UInt32.self)
                    }
                }
            }
        }
    }
}
