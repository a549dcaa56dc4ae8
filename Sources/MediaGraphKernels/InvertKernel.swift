import MediaGraphCore

/// Inverts a frame: 255 - x on every plane of yuv420p/422p/444p/gray (what ffmpeg 5.1's `negate`
/// does on those formats), and on r, g, b of rgba/bgra with alpha kept.
///
/// 255 - x is x XOR 0xFF for bytes, so the kernel is a masked XOR over whole rows, 64 bytes at a
/// time: it runs at memory speed. Source and destination may be the same memory (in place).
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
                let rows = FrameCheck.planeRows(band, plane: p, of: source)
                let bytes = source.rowBytes(p)
                let s = source.data(p), d = destination.data(p)
                let ss = source.stride(p), ds = destination.stride(p)
                for y in rows {
                    if keepAlpha {
                        Self.xorRow(UnsafeRawPointer(s + y * ss), UnsafeMutableRawPointer(d + y * ds),
                                    bytes: bytes, mask: Self.rgbMask, tailMask: 0x00FF_FFFF)
                    } else {
                        Self.xorRow(UnsafeRawPointer(s + y * ss), UnsafeMutableRawPointer(d + y * ds),
                                    bytes: bytes, mask: Self.allMask, tailMask: 0xFFFF_FFFF)
                    }
                }
            }
        }
    }

    static let allMask = SIMD64<UInt8>(repeating: 0xFF)
    static let rgbMask: SIMD64<UInt8> = {
        var m = SIMD64<UInt8>(repeating: 0xFF)
        for i in stride(from: 3, to: 64, by: 4) { m[i] = 0 }
        return m
    }()

    /// XORs `bytes` bytes with a mask that repeats every 4 bytes (`tailMask` holds one period,
    /// little-endian, for the last bytes that do not fill a vector).
    @inline(__always)
    static func xorRow(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, bytes: Int,
                       mask: SIMD64<UInt8>, tailMask: UInt32) {
        var x = 0
        while x + 64 <= bytes {
            let v = s.loadUnaligned(fromByteOffset: x, as: SIMD64<UInt8>.self)
            d.storeBytes(of: v ^ mask, toByteOffset: x, as: SIMD64<UInt8>.self)
            x += 64
        }
        while x + 4 <= bytes {
            let v = s.loadUnaligned(fromByteOffset: x, as: UInt32.self)
            d.storeBytes(of: v ^ tailMask, toByteOffset: x, as: UInt32.self)
            x += 4
        }
        // Only planar formats end here with 1...3 bytes left; their mask is 0xFF for every byte.
        while x < bytes {
            let v = s.load(fromByteOffset: x, as: UInt8.self)
            d.storeBytes(of: v ^ UInt8(truncatingIfNeeded: tailMask >> (8 * UInt32(x & 3))),
                         toByteOffset: x, as: UInt8.self)
            x += 1
        }
    }
}
