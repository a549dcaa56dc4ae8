/// The blocks of a GIF89a file, as bytes: header and logical screen, the NETSCAPE2.0 loop
/// extension, and per frame a graphic control extension, an image descriptor with a local colour
/// table and the LZW image data. Every frame uses disposal method 1 (leave in place), so a
/// frame's transparent pixels show the frame before it.
public final class GifWriter {
    /// The largest canvas side a GIF can state (16-bit fields).
    public static let maxSide = 65535
    /// The largest delay of one frame (16-bit centiseconds); longer ones are split by the caller.
    public static let maxDelay = 65535

    public let width: Int
    public let height: Int
    private let lzw = GifLZWEncoder()

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// "GIF89a", the logical screen descriptor (no global colour table: every frame has its own)
    /// and, when `loop` is not nil, the NETSCAPE2.0 application extension with that loop count
    /// (0 = forever).
    public func header(loop: Int?) -> [UInt8] {
        var b = Array("GIF89a".utf8)
        b.append16(width)
        b.append16(height)
        b += [0x00, 0x00, 0x00]  // no global table; background 0; square pixels
        if let loop {
            b += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01]
            b.append16(min(max(loop, 0), 65535))
            b.append(0x00)
        }
        return b
    }

    /// One frame, appended to `out`. `palette` holds RGB triplets (1...256 colours); `indices`
    /// covers the frame's rectangle (`rect`, inside the canvas), `stride` bytes per row.
    public func appendFrame(indices: UnsafePointer<UInt8>, stride: Int, rect: GifRect, palette: [UInt8],
                            transparentIndex: Int?, delay: Int, into out: inout [UInt8]) {
        let colours = max(1, palette.count / 3)
        var tableBits = 1
        while (1 << tableBits) < colours { tableBits += 1 }
        // graphic control extension: disposal 1 (leave), transparency flag, delay, index
        out += [0x21, 0xF9, 0x04, UInt8(1 << 2 | (transparentIndex == nil ? 0 : 1))]
        out.append16(min(max(delay, 0), Self.maxDelay))
        out += [UInt8(transparentIndex ?? 0), 0x00]
        // image descriptor with a local colour table of 2^tableBits entries
        out.append(0x2C)
        out.append16(rect.x)
        out.append16(rect.y)
        out.append16(rect.width)
        out.append16(rect.height)
        out.append(UInt8(0x80 | (tableBits - 1)))
        out += palette.prefix(3 << tableBits)
        if palette.count < 3 << tableBits { out += [UInt8](repeating: 0, count: (3 << tableBits) - palette.count) }
        lzw.encode(indices: indices, width: rect.width, height: rect.height, stride: stride,
                   minCodeSize: max(2, tableBits), into: &out)
    }

    /// The trailer byte that ends the file.
    public static let trailer: [UInt8] = [0x3B]
}

/// A rectangle of the GIF canvas, in pixels.
public struct GifRect: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

fileprivate extension Array where Element == UInt8 {
    /// Appends a 16-bit little-endian value (GIF's byte order).
    mutating func append16(_ v: Int) {
        append(UInt8(truncatingIfNeeded: v))
        append(UInt8(truncatingIfNeeded: v >> 8))
    }
}
