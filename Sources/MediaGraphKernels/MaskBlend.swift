import MediaGraphCore

/// A colour ready to blend into frames of one format: Y', Cb, Cr in the frame's own matrix and
/// range for planar YUV (Y' alone for gray), or the three colour bytes at their places in a
/// packed RGBA/BGRA pixel (alpha bytes are left alone, as ffmpeg's drawtext leaves them).
public struct BlendColor: Sendable, Equatable {
    /// Per plane (YUV) or per byte of the pixel (packed): the value written where fully covered.
    public var values: [UInt8]
    /// Byte offsets of the colour components inside a packed pixel (empty for planar formats).
    public var packedOffsets: [Int]
    /// Opacity 0…255.
    public var alpha: UInt8

    public init(_ color: RGBAColor, for format: VideoFormat) {
        alpha = color.alpha
        let r = Double(color.red), g = Double(color.green), b = Double(color.blue)
        switch format.pixelFormat {
        case .rgba:
            values = [color.red, color.green, color.blue]; packedOffsets = [0, 1, 2]
        case .bgra:
            values = [color.red, color.green, color.blue]; packedOffsets = [2, 1, 0]
        default:
            let c = OverlayColor(format)
            func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded(.toNearestOrAwayFromZero)))) }
            let rgb = SIMD3(r, g, b)
            let y = byte(c.lumaOffset + (c.y * rgb).sum())
            values = format.pixelFormat == .gray ? [y] : [y, byte(128 + (c.cb * rgb).sum()), byte(128 + (c.cr * rgb).sum())]
            packedOffsets = []
        }
    }
}

/// Blends a colour through an 8-bit coverage mask, or over a rectangle, into 8-bit frames with
/// ffmpeg 5.1's arithmetic (libavfilter's drawutils, which drawtext uses), so text drawn here has
/// ffmpeg's bytes: each destination sample moves toward the colour by coverage × alpha in 24-bit
/// fixed point; a subsampled chroma sample takes the sum of the coverage of the luma pixels it
/// covers (a partial block at the mask's edge counts only its pixels, still divided by the
/// whole block).
public enum MaskBlend {
    /// Blends `color` into `planes` through `mask` (`width` × `height` coverage bytes, rows
    /// `maskStride` apart) placed with its top left corner at (`x`, `y`); parts outside the frame
    /// are clipped.
    public static func blend(_ color: BlendColor, into planes: FramePlanes, mask: UnsafePointer<UInt8>, maskStride: Int,
                             width: Int, height: Int, x: Int, y: Int) {
        guard color.alpha > 0 else { return }
        let (x0, w, xm0) = clip(x, width, to: planes.width)
        let (y0, h, ym0) = clip(y, height, to: planes.height)
        guard w > 0, h > 0 else { return }
        let mask = mask + ym0 * maskStride
        let alpha = (0x10307 &* UInt32(color.alpha) &+ 3) >> 8
        forEachComponent(color, planes) { p0, step, stride, value, hsub, vsub in
            let xb = subsampling(hsub, x0, w), yb = subsampling(vsub, y0, h)
            var p = p0 + (y0 >> vsub) * stride + (x0 >> hsub) * step
            var m = mask
            func line(_ band: Int) {
                var d = p, xm = xm0
                if xb.left > 0 {
                    pixel(d, value, alpha, m, maskStride, xb.left, band, hsub + vsub, xm)
                    d += step; xm += xb.left
                }
                for _ in 0..<xb.count {
                    pixel(d, value, alpha, m, maskStride, 1 << hsub, band, hsub + vsub, xm)
                    d += step; xm += 1 << hsub
                }
                if xb.right > 0 { pixel(d, value, alpha, m, maskStride, xb.right, band, hsub + vsub, xm) }
            }
            if yb.left > 0 { line(yb.left); p += stride; m += yb.left * maskStride }
            for _ in 0..<yb.count { line(1 << vsub); p += stride; m += maskStride << vsub }
            if yb.right > 0 { line(yb.right) }
        }
    }

    /// Blends `color` over the rectangle `width` × `height` at (`x`, `y`), clipped to the frame
    /// (ffmpeg's `ff_blend_rectangle`: a chroma sample half covered at the top or bottom edge of
    /// a 4:2:0 rectangle gets half the alpha, one partly covered at the sides its share).
    public static func fill(_ color: BlendColor, into planes: FramePlanes, x: Int, y: Int, width: Int, height: Int) {
        guard color.alpha > 0 else { return }
        let (x0, w, _) = clip(x, width, to: planes.width)
        let (y0, h, _) = clip(y, height, to: planes.height)
        guard w > 0, h > 0 else { return }
        let alpha = 0x10203 &* UInt32(color.alpha) &+ 2
        forEachComponent(color, planes) { p0, step, stride, value, hsub, vsub in
            let xb = subsampling(hsub, x0, w), yb = subsampling(vsub, y0, h)
            var p = p0 + (y0 >> vsub) * stride + (x0 >> hsub) * step
            func line(_ a: UInt32) {
                var d = p
                let src = UInt32(value), asrc = a &* src, tau = 0x1010101 &- a
                if xb.left > 0 {
                    let s = (UInt32(xb.left) &* a) >> UInt32(hsub)
                    d.pointee = UInt8(truncatingIfNeeded: (UInt32(d.pointee) &* (0x1010101 &- s) &+ src &* s) >> 24)
                    d += step
                }
                for _ in 0..<xb.count {
                    d.pointee = UInt8(truncatingIfNeeded: (UInt32(d.pointee) &* tau &+ asrc) >> 24)
                    d += step
                }
                if xb.right > 0 {
                    let s = (UInt32(xb.right) &* a) >> UInt32(hsub)
                    d.pointee = UInt8(truncatingIfNeeded: (UInt32(d.pointee) &* (0x1010101 &- s) &+ src &* s) >> 24)
                }
            }
            if yb.left > 0 { line(alpha >> 1); p += stride }
            for _ in 0..<yb.count { line(alpha); p += stride }
            if yb.right > 0 { line(alpha >> 1) }
        }
    }

    /// One destination sample: the mask summed over its `w` × `h` block from column `xm`,
    /// shifted down by the block's log2 size, times alpha.
    @inline(__always)
    static func pixel(_ d: UnsafeMutablePointer<UInt8>, _ value: UInt8, _ alpha: UInt32, _ mask: UnsafePointer<UInt8>,
                      _ stride: Int, _ w: Int, _ h: Int, _ shift: Int, _ xm: Int) {
        var t: UInt32 = 0
        var row = mask + xm
        for _ in 0..<h {
            for i in 0..<w { t &+= UInt32(row[i]) }
            row += stride
        }
        let a = (t >> UInt32(shift)) &* alpha
        d.pointee = UInt8(truncatingIfNeeded: ((0x1010101 &- a) &* UInt32(d.pointee) &+ a &* UInt32(value)) >> 24)
    }

    /// [x, x + w) clipped to [0, limit): the new start and width, and how much was cut at the start.
    static func clip(_ x: Int, _ w: Int, to limit: Int) -> (start: Int, width: Int, cut: Int) {
        var x = x, w = w, cut = 0
        if x < 0 { cut = -x; w += x; x = 0 }
        if x + w > limit { w = limit - x }
        return (x, w, cut)
    }

    /// A span in samples of a plane subsampled by 2^`sub`: the pixels before the first whole
    /// sample (`left`), the whole samples (`count`), and the pixels after them (`right`).
    static func subsampling(_ sub: Int, _ x: Int, _ w: Int) -> (left: Int, count: Int, right: Int) {
        let mask = (1 << sub) - 1
        let left = min((-x) & mask, w)
        let rest = w - left
        return (left, rest >> sub, rest & mask)
    }

    /// Runs `body` once per colour component: its plane's first byte (offset to the component),
    /// pixel step, stride, value and the plane's subsampling.
    static func forEachComponent(_ color: BlendColor, _ planes: FramePlanes,
                                 _ body: (UnsafeMutablePointer<UInt8>, Int, Int, UInt8, Int, Int) -> Void) {
        if !color.packedOffsets.isEmpty {
            for (i, offset) in color.packedOffsets.enumerated() {
                body(planes.data(0) + offset, 4, planes.stride(0), color.values[i], 0, 0)
            }
            return
        }
        let shift = planes.format.chromaShift
        for (p, v) in color.values.enumerated() {
            body(planes.data(p), 1, planes.stride(p), v, p == 0 ? 0 : shift.x, p == 0 ? 0 : shift.y)
        }
    }
}
