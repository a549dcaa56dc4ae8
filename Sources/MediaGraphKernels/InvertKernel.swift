import MediaGraphCore

/// Inverts a frame: 255 - x on every plane of yuv420p/422p/444p/gray (what ffmpeg 5.1's `negate`
/// does on those formats), and on r, g, b of rgba/bgra with alpha kept.
///
/// 255 - x is x XOR 0xFF for bytes, so the kernel is a masked XOR over whole rows, 8 bytes at a
/// time (LLVM vectorizes the word loop): it runs at memory speed. Source and destination may be the same memory (in place).
public struct InvertKernel: Sendable {
    /// Pixel formats the kernel accepts.
    public static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p, .gray, .rgba, .bgra]

    public init() {}

    /// Writes the inverse of `source` into `destination` (same format and size; may be the same
    /// memory), over row bands on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "invert", source: source, destination: destination,
                                accepted: Self.formats)
        // Alpha is byte 3 of each pixel in both rgba and bgra.
        let keepAlpha = source.format.isRGB
        RowBands.run(rows: source.height, threads: threads) { band in
            for p in 0..<source.planeCount {
                let rows = RowBands.planeRows(band, plane: p, of: source)
                let bytes = source.rowBytes(p)
                let s = source.data(p), d = destination.data(p)
                let ss = source.stride(p), ds = destination.stride(p)
                for y in rows {
                    Self.xorRow(UnsafeRawPointer(s + y * ss), UnsafeMutableRawPointer(d + y * ds),
                                bytes: bytes, mask: keepAlpha ? 0x00FF_FFFF : 0xFFFF_FFFF)
                }
            }
        }
    }

    /// XORs `bytes` bytes with a mask that repeats every 4 bytes (`mask` holds one period,
    /// little-endian). A plain word loop: LLVM vectorizes it to full-width XORs, where Swift's
    /// generic `SIMD64<UInt8>` operators compile to a byte loop.
    @inline(__always)
    static func xorRow(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, bytes: Int, mask: UInt32) {
        let wide = UInt64(mask) | UInt64(mask) << 32
        let words = bytes / 8
        if s == UnsafeRawPointer(d) {
            // In place through one pointer: with two, LLVM's overlap check finds them equal and
            // sends the loop to its scalar version (8 bytes a step; measured 1.5–2x slower).
            for i in 0..<words {
                let v = d.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                d.storeBytes(of: v ^ wide, toByteOffset: 8 * i, as: UInt64.self)
            }
        } else {
            for i in 0..<words {
                let v = s.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                d.storeBytes(of: v ^ wide, toByteOffset: 8 * i, as: UInt64.self)
            }
        }
        var x = words * 8
        while x < bytes {
            let v = s.load(fromByteOffset: x, as: UInt8.self)
            d.storeBytes(of: v ^ UInt8(truncatingIfNeeded: mask >> (8 * UInt32(x & 3))), toByteOffset: x, as: UInt8.self)
            x += 1
        }
    }
}
