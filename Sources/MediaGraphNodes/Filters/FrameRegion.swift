import MediaGraphCore
import MediaGraphKernels

/// Copying a frame into a rectangle of a larger one, and filling a rectangle with black, plane by
/// plane (row copies; positions on the chroma grid).
enum FrameRegion {
    /// Copies all of `src` into `dst` with its top-left corner at (x, y) (same pixel format).
    static func copy(_ src: FramePlanes, into dst: FramePlanes, x: Int, y: Int) {
        copyRows(src, from: (0, 0), into: dst, at: (x, y), size: src)
    }

    /// Copies the rectangle of `src` at (x, y) the size of `dst` into all of `dst` (same pixel
    /// format; x and y on the chroma grid).
    static func copy(_ src: FramePlanes, x: Int, y: Int, into dst: FramePlanes) {
        copyRows(src, from: (x, y), into: dst, at: (0, 0), size: dst)
    }

    /// Copies a rectangle the size of `size`'s planes from `src` at `from` to `dst` at `at`,
    /// row by row, plane by plane (positions in luma pixels, on the chroma grid).
    private static func copyRows(_ src: FramePlanes, from: (x: Int, y: Int), into dst: FramePlanes, at: (x: Int, y: Int), size: FramePlanes) {
        let shift = src.format.chromaShift
        for p in 0..<src.planeCount {
            let sx = p == 0 || src.format.isRGB ? 0 : shift.x, sy = p == 0 || src.format.isRGB ? 0 : shift.y
            let bpp = src.format.bytesPerPixel(plane: p)
            let rows = size.planeSize(p).height, rowBytes = size.rowBytes(p)
            let source = src.data(p) + (from.y >> sy) * src.stride(p) + (from.x >> sx) * bpp
            let target = dst.data(p) + (at.y >> sy) * dst.stride(p) + (at.x >> sx) * bpp
            let ss = src.stride(p), ds = dst.stride(p)
            for r in 0..<rows { (target + r * ds).update(from: source + r * ss, count: rowBytes) }
        }
    }

    /// Fills a rectangle of `dst` with `color`: its R, G, B and alpha bytes in RGB, its Y'CbCr
    /// in the frame's matrix and range for YUV and gray (`BlendColor`'s values, computed at the
    /// frame's depth).
    static func fill(_ dst: FramePlanes, color: BlendColor, alpha: UInt8, x: Int, y: Int, width: Int, height: Int) {
        let f = dst.format
        let shift = f.chromaShift
        let deep = f.bitDepth > 8
        for p in 0..<dst.planeCount {
            let sx = p == 0 || f.isRGB ? 0 : shift.x, sy = p == 0 || f.isRGB ? 0 : shift.y
            let bpp = f.bytesPerPixel(plane: p)
            let w = (width + (1 << sx) - 1) >> sx, h = (height + (1 << sy) - 1) >> sy
            let base = dst.data(p) + (y >> sy) * dst.stride(p) + (x >> sx) * bpp
            var pixel: [UInt8] = [0, 0, 0, alpha]
            for (k, offset) in color.packedOffsets.enumerated() { pixel[offset] = color.values[k] }
            for r in 0..<h {
                let row = base + r * dst.stride(p)
                if f.isRGB {
                    for c in 0..<w { for b in 0..<4 { row[c * 4 + b] = pixel[b] } }
                } else if deep {
                    UnsafeMutableRawPointer(row).bindMemory(to: UInt16.self, capacity: w).update(repeating: color.deepValues[p].littleEndian, count: w)
                } else {
                    row.update(repeating: color.values[p], count: w * bpp)
                }
            }
        }
    }

    /// Fills a rectangle of `dst` with black: opaque black for RGB, Y at the range's black and
    /// neutral chroma for YUV and gray.
    static func fillBlack(_ dst: FramePlanes, fullRange: Bool, x: Int, y: Int, width: Int, height: Int) {
        fill(dst, color: BlendColor(blackIn: dst.format, fullRange: fullRange), alpha: 255, x: x, y: y, width: width, height: height)
    }
}
