import MediaGraphCore

/// An RGBA overlay converted once (per overlay picture) into the planes a planar main frame is
/// blended with: luma and alpha at full resolution, chroma and the chroma alpha at the main's
/// chroma resolution. The main video is never converted.
///
/// - Chroma is the 2×2 (4:2:0; 2×1 for 4:2:2) box average of each pixel's Cb/Cr, rounded once.
/// - The chroma alpha is ffmpeg's overlay's: the average of the cell's alphas, truncated, except
///   in the last chroma column and row, where ffmpeg averages a horizontal and a vertical pair
///   instead (`chromaAlpha`); kept so the blend is ffmpeg's bit for bit.
/// - An overlay at an odd x (or y) on a 4:2:0 main gets one transparent column (row) on its
///   left (top) so its chroma cells line up with the main's; the padding repeats the edge colour
///   (it cannot tint the average) and has alpha 0 (it changes no pixel). ffmpeg rounds such a
///   position down to even instead.
/// - Premultiplied overlays: luma is α·Y′ as a code value (α·16/255 + the matrix on the
///   premultiplied R′G′B′), chroma 128 + the matrix on premultiplied R′G′B′.
///
/// Memory is allocated when the geometry grows and reused otherwise: no allocation per frame.
public final class OverlayImage {
    /// The padded size (overlay size plus the alignment column/row).
    public private(set) var width = 0
    public private(set) var height = 0
    /// 1 when a transparent column (row) was added on the left (top).
    public private(set) var padX = 0
    public private(set) var padY = 0
    /// The main's chroma subsampling (log2) the chroma planes are made for.
    public private(set) var chromaShift = (x: 0, y: 0)
    public private(set) var chromaWidth = 0
    public private(set) var chromaHeight = 0
    public private(set) var hasChroma = false

    /// Luma, alpha (stride `stride`), Cb, Cr, chroma alpha (stride `chromaStride`).
    public private(set) var luma: UnsafeMutablePointer<UInt8>
    public private(set) var alpha: UnsafeMutablePointer<UInt8>
    public private(set) var cb: UnsafeMutablePointer<UInt8>
    public private(set) var cr: UnsafeMutablePointer<UInt8>
    public private(set) var chromaAlpha: UnsafeMutablePointer<UInt8>
    public private(set) var stride = 0
    public private(set) var chromaStride = 0
    private var memory: UnsafeMutableRawPointer
    private var capacity = 0

    public init() {
        memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
        let p = memory.assumingMemoryBound(to: UInt8.self)
        luma = p; alpha = p; cb = p; cr = p; chromaAlpha = p
    }

    deinit { memory.deallocate() }

    /// Converts `overlay` (rgba or bgra) for a planar main of `mainFormat` (yuv420p, yuv422p,
    /// yuv444p, gray), placed at (`x`, `y`), with `color` and `alpha` interpretation.
    public func prepare(_ overlay: FramePlanes, mainFormat: PixelFormat, x: Int, y: Int,
                        color: OverlayColor, alpha mode: OverlayAlpha) throws {
        guard overlay.format == .rgba || overlay.format == .bgra else {
            throw KernelError.unsupportedFormat(kernel: "overlay", found: overlay.format, accepted: [.rgba, .bgra])
        }
        if let p = FrameCheck.problem(overlay, format: overlay.format, width: overlay.width, height: overlay.height) {
            throw KernelError.badPlanes(kernel: "overlay", detail: "the overlay frame: \(p)")
        }
        let shift = mainFormat.chromaShift
        let chroma = mainFormat.planeCount == 3
        padX = chroma ? x & ((1 << shift.x) - 1) : 0
        padY = chroma ? y & ((1 << shift.y) - 1) : 0
        width = overlay.width + padX
        height = overlay.height + padY
        chromaShift = chroma ? (shift.x, shift.y) : (0, 0)
        hasChroma = chroma
        chromaWidth = chroma ? (width + (1 << shift.x) - 1) >> shift.x : 0
        chromaHeight = chroma ? (height + (1 << shift.y) - 1) >> shift.y : 0
        stride = (width + 63) & ~63
        chromaStride = (chromaWidth + 63) & ~63
        let full = stride * height, part = chromaStride * chromaHeight
        reserve(2 * full + 3 * part)
        let base = memory.assumingMemoryBound(to: UInt8.self)
        luma = base
        alpha = base + full
        cb = base + 2 * full
        cr = cb + part
        chromaAlpha = cr + part
        convertLumaAndAlpha(overlay, color: color, premultiplied: mode == .premultiplied)
        if chroma {
            convertChroma(overlay, color: color)
            makeChromaAlpha()
        }
    }

    private func reserve(_ bytes: Int) {
        guard bytes > capacity else { return }
        memory.deallocate()
        memory = UnsafeMutableRawPointer.allocate(byteCount: max(64, bytes), alignment: 64)
        capacity = bytes
    }

    /// Byte offsets of R, G, B, A in a pixel of the overlay.
    private static func order(_ f: PixelFormat) -> (r: Int, g: Int, b: Int) { f == .bgra ? (2, 1, 0) : (0, 1, 2) }

    private func convertLumaAndAlpha(_ o: FramePlanes, color: OverlayColor, premultiplied: Bool) {
        let k = color.fixed.y
        let (ri, gi, bi) = Self.order(o.format)
        let offset = Int32(color.lumaOffset)
        for r in 0..<height {
            let sy = max(0, r - padY)
            let src = o.data0 + sy * o.stride0
            let yRow = luma + r * stride, aRow = alpha + r * stride
            for c in 0..<width {
                let p = src + 4 * max(0, c - padX)
                let a = Int32(p[3])
                // the matrix on R'G'B' (×2^16), plus the black level (×α/255 when premultiplied)
                var v = k.x &* Int32(p[ri]) &+ k.y &* Int32(p[gi]) &+ k.z &* Int32(p[bi])
                v &+= premultiplied ? (offset &* a &* 65536 &+ 127) / 255 : offset << 16
                yRow[c] = UInt8(clamping: (v &+ 32768) >> 16)
                aRow[c] = c < padX || r < padY ? 0 : UInt8(truncatingIfNeeded: a)
            }
        }
    }

    /// Cb and Cr: each cell's box average of the per-pixel values, one rounding.
    private func convertChroma(_ o: FramePlanes, color: OverlayColor) {
        let f = color.fixed
        let (ri, gi, bi) = Self.order(o.format)
        let sx = chromaShift.x, sy = chromaShift.y
        for j in 0..<chromaHeight {
            let r0 = j << sy, r1 = min(height, (j + 1) << sy)
            for k in 0..<chromaWidth {
                let c0 = k << sx, c1 = min(width, (k + 1) << sx)
                var u: Int32 = 0, v: Int32 = 0, n: Int32 = 0
                for r in r0..<r1 {
                    let row = o.data0 + max(0, r - padY) * o.stride0
                    for c in c0..<c1 {
                        let p = row + 4 * max(0, c - padX)
                        let R = Int32(p[ri]), G = Int32(p[gi]), B = Int32(p[bi])
                        u &+= f.cb.x &* R &+ f.cb.y &* G &+ f.cb.z &* B
                        v &+= f.cr.x &* R &+ f.cr.y &* G &+ f.cr.z &* B
                        n &+= 1
                    }
                }
                // n is 1, 2 or 4: the average's rounding is a shift (arithmetic: floor)
                let s = Int32(16 + n.trailingZeroBitCount)
                let half = Int32(1) << (s - 1)
                cb[j * chromaStride + k] = UInt8(clamping: 128 &+ ((u &+ half) >> s))
                cr[j * chromaStride + k] = UInt8(clamping: 128 &+ ((v &+ half) >> s))
            }
        }
    }

    /// ffmpeg's overlay's chroma alpha (vf_overlay.c, blend_plane), on the padded grid.
    private func makeChromaAlpha() {
        let sx = chromaShift.x, sy = chromaShift.y
        for j in 0..<chromaHeight {
            let a = alpha + (j << sy) * stride
            let below = j + 1 < chromaHeight
            for k in 0..<chromaWidth {
                let p = a + (k << sx)
                let right = k + 1 < chromaWidth
                let v: Int
                if sx > 0 && sy > 0 && below && right {
                    v = (Int(p[0]) + Int(p[1]) + Int(p[stride]) + Int(p[stride + 1])) >> 2
                } else if sx > 0 || sy > 0 {
                    let h = sx > 0 && right ? (Int(p[0]) + Int(p[1])) >> 1 : Int(p[0])
                    let w = sy > 0 && below ? (Int(p[0]) + Int(p[stride])) >> 1 : Int(p[0])
                    v = (h + w) >> 1
                } else {
                    v = Int(p[0])
                }
                chromaAlpha[j * chromaStride + k] = UInt8(truncatingIfNeeded: v)
            }
        }
    }
}
