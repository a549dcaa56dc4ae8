import MediaGraphCore

/// A colour ready to blend into frames of one format: Y', Cb, Cr in the frame's own matrix and
/// range for planar YUV (Y' alone for gray), or the three colour bytes at their places in a
/// packed RGBA/BGRA pixel (alpha bytes are left alone, as ffmpeg's drawtext leaves them).
public struct BlendColor: Sendable, Equatable {
    /// Per plane (YUV) or per byte of the pixel (packed): the value written where fully covered.
    public var values: [UInt8]
    /// The same for 10-bit planes: each value computed at that depth (the exact value in 8-bit
    /// units × 1023/255, rounded), as ffmpeg 5.1 computes it, not the 8-bit one shifted.
    public var deepValues: [UInt16]
    /// Byte offsets of the colour components inside a packed pixel (empty for planar formats).
    public var packedOffsets: [Int]
    /// Opacity 0…255.
    public var alpha: UInt8

    public init(_ color: RGBAColor, for format: VideoFormat) {
        alpha = color.alpha
        let r = Double(color.red), g = Double(color.green), b = Double(color.blue)
        switch format.pixelFormat {
        case .rgba:
            values = [color.red, color.green, color.blue]; packedOffsets = [0, 1, 2]; deepValues = []
        case .bgra:
            values = [color.red, color.green, color.blue]; packedOffsets = [2, 1, 0]; deepValues = []
        default:
            let c = OverlayColor(format)
            let rgb = SIMD3(r, g, b)
            // in 8-bit units, unrounded
            var exact = [c.lumaOffset + (c.y * rgb).sum(), 128 + (c.cb * rgb).sum(), 128 + (c.cr * rgb).sum()]
            if format.pixelFormat == .gray { exact = [exact[0]] }
            let top = Double((1 << format.pixelFormat.bitDepth) - 1)
            values = exact.map { UInt8(max(0, min(255, $0.rounded(.toNearestOrAwayFromZero)))) }
            deepValues = exact.map { UInt16(max(0, min(top, ($0 * top / 255).rounded(.toNearestOrAwayFromZero)))) }
            packedOffsets = []
        }
    }

    /// Black for `format`: Y' 16 in limited range, 0 in full, neutral chroma (the exact values
    /// at 10 bits: 64, 512); opaque black in RGB.
    public init(blackIn format: PixelFormat, fullRange: Bool) {
        alpha = 255
        switch format {
        case .rgba: values = [0, 0, 0]; packedOffsets = [0, 1, 2]; deepValues = []
        case .bgra: values = [0, 0, 0]; packedOffsets = [2, 1, 0]; deepValues = []
        default:
            let y: UInt8 = fullRange ? 0 : 16
            values = format == .gray ? [y] : [y, 128, 128]
            deepValues = values.map { UInt16($0) << UInt16(max(0, format.bitDepth - 8)) }
            packedOffsets = []
        }
    }
}

/// Blends a colour through an 8-bit coverage mask, or over a rectangle, into 8- and 10-bit frames with
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
        let deep = planes.format.bitDepth > 8
        // ffmpeg: alpha·mask stays within its fixed-point one (2^24 for 8 bits, 2^16 above)
        let alpha = deep ? (0x101 &* UInt32(color.alpha) &+ 2) >> 8 : (0x10307 &* UInt32(color.alpha) &+ 3) >> 8
        let arithmetic = deep ? Arithmetic.sixteen : Arithmetic.eight
        forEachComponent(color, planes) { p0, step, stride, value, hsub, vsub in
            let xb = subsampling(hsub, x0, w), yb = subsampling(vsub, y0, h)
            var p = p0 + (y0 >> vsub) * stride + (x0 >> hsub) * step
            var m = mask
            let src = UInt32(value)
            func line(_ band: Int) {
                var d = p, xm = xm0
                if xb.left > 0 {
                    arithmetic.pixel(d, src, alpha, m, maskStride, xb.left, band, hsub + vsub, xm)
                    d += step; xm += xb.left
                }
                for _ in 0..<xb.count {
                    arithmetic.pixel(d, src, alpha, m, maskStride, 1 << hsub, band, hsub + vsub, xm)
                    d += step; xm += 1 << hsub
                }
                if xb.right > 0 { arithmetic.pixel(d, src, alpha, m, maskStride, xb.right, band, hsub + vsub, xm) }
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
        let deep = planes.format.bitDepth > 8
        let alpha = deep ? 0x101 &* UInt32(color.alpha) &+ 2 : 0x10203 &* UInt32(color.alpha) &+ 2
        let arithmetic = deep ? Arithmetic.sixteen : Arithmetic.eight
        forEachComponent(color, planes) { p0, step, stride, value, hsub, vsub in
            let xb = subsampling(hsub, x0, w), yb = subsampling(vsub, y0, h)
            var p = p0 + (y0 >> vsub) * stride + (x0 >> hsub) * step
            let src = UInt32(value)
            func line(_ a: UInt32) {
                var d = p
                if xb.left > 0 { arithmetic.mix(d, src, (UInt32(xb.left) &* a) >> UInt32(hsub)); d += step }
                for _ in 0..<xb.count { arithmetic.mix(d, src, a); d += step }
                if xb.right > 0 { arithmetic.mix(d, src, (UInt32(xb.right) &* a) >> UInt32(hsub)) }
            }
            if yb.left > 0 { line(alpha >> 1); p += stride }
            for _ in 0..<yb.count { line(alpha); p += stride }
            if yb.right > 0 { line(alpha >> 1) }
        }
    }

    /// ffmpeg's two fixed-point forms: 8-bit samples mix in units of 2^24 (one = 0x1010101),
    /// deeper ones, stored in 16 bits, in units of 2^16 (one = 0x10001).
    enum Arithmetic {
        case eight, sixteen


        /// d = (d·(one − a) + src·a) / one, truncated.
        @inline(__always)
        func mix(_ d: UnsafeMutablePointer<UInt8>, _ src: UInt32, _ a: UInt32) {
            switch self {
            case .eight:
                d.pointee = UInt8(truncatingIfNeeded: (UInt32(d.pointee) &* (0x1010101 &- a) &+ src &* a) >> 24)
            case .sixteen:
                let raw = UnsafeMutableRawPointer(d)
                let v = UInt32(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
                raw.storeBytes(of: UInt16(truncatingIfNeeded: (v &* (0x10001 &- a) &+ src &* a) >> 16).littleEndian, as: UInt16.self)
            }
        }

        /// One destination sample: the mask summed over its `w` × `h` block from column `xm`,
        /// shifted down by the block's log2 size, times alpha.
        @inline(__always)
        func pixel(_ d: UnsafeMutablePointer<UInt8>, _ src: UInt32, _ alpha: UInt32, _ mask: UnsafePointer<UInt8>,
                   _ stride: Int, _ w: Int, _ h: Int, _ shift: Int, _ xm: Int) {
            var t: UInt32 = 0
            var row = mask + xm
            for _ in 0..<h {
                for i in 0..<w { t &+= UInt32(row[i]) }
                row += stride
            }
            mix(d, src, (t >> UInt32(shift)) &* alpha)
        }
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
    /// pixel step, stride, value at the plane's depth and the plane's subsampling.
    static func forEachComponent(_ color: BlendColor, _ planes: FramePlanes,
                                 _ body: (UnsafeMutablePointer<UInt8>, Int, Int, UInt16, Int, Int) -> Void) {
        if !color.packedOffsets.isEmpty {
            for (i, offset) in color.packedOffsets.enumerated() {
                body(planes.data(0) + offset, 4, planes.stride(0), UInt16(color.values[i]), 0, 0)
            }
            return
        }
        let shift = planes.format.chromaShift, step = planes.format.bytesPerSample
        for p in 0..<color.values.count {
            let v = step == 2 ? color.deepValues[p] : UInt16(color.values[p])
            body(planes.data(p), step, planes.stride(p), v, p == 0 ? 0 : shift.x, p == 0 ? 0 : shift.y)
        }
    }
}
