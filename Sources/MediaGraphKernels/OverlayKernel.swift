import MediaGraphCore
import MediaGraphKernelsAVX2

/// Blends an RGBA (or BGRA) overlay onto a main frame in place, at a pixel position that may be
/// negative or reach past any edge (the overlay is clipped).
///
/// - Planar mains (yuv420p, yuv422p, yuv444p, gray) are blended in Y′CbCr: the overlay is
///   converted once per overlay picture (`OverlayImage`, in the main's matrix and range), then
///   each plane is d = (d·(255−α) + s·α)/255 rounded as ffmpeg's overlay (FAST_DIV255), with
///   ffmpeg's subsampled alpha for chroma. Given the same Y′CbCrA planes the result is ffmpeg's
///   `overlay` bit for bit (straight and premultiplied); any position works, where ffmpeg
///   rounds a 4:2:0 position down to even.
/// - rgba/bgra mains: ffmpeg's packed formula per pixel (its treatment of the main's own alpha
///   included), red and blue swapped when the byte orders differ.
///
/// Row bands across cores, raw pointers; the AVX2 loops where the CPU has them.
public final class OverlayKernel {
    /// Main frame formats the kernel blends onto.
    public static let mainFormats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p, .gray, .rgba, .bgra]
    /// Overlay formats.
    public static let overlayFormats: [PixelFormat] = [.rgba, .bgra]

    public let alpha: OverlayAlpha
    public let color: OverlayColor
    /// The overlay converted for a planar main (reused; see `prepare`).
    public let image = OverlayImage()
    private var preparedFor: (format: PixelFormat, width: Int, height: Int, padX: Int, padY: Int)?
    private let path: VectorPath

    /// `color`: the main's matrix and range (ignored for RGB mains).
    public init(alpha: OverlayAlpha, color: OverlayColor, path: VectorPath = .detected) {
        self.alpha = alpha
        self.color = color
        self.path = path
    }

    /// Converts a new overlay picture for a planar main. `blend` converts by itself when the
    /// overlay's size, the main's format or the position's parity changed; call this when the
    /// picture changed at the same size (a video overlay's next frame).
    public func prepare(_ overlay: FramePlanes, mainFormat: PixelFormat, x: Int, y: Int) throws {
        try image.prepare(overlay, mainFormat: mainFormat, x: x, y: y, color: color, alpha: alpha)
        preparedFor = (mainFormat, overlay.width, overlay.height, image.padX, image.padY)
    }

    /// Blends `overlay` onto `main` (in place) with its top-left corner at (`x`, `y`).
    public func blend(_ overlay: FramePlanes, onto main: FramePlanes, x: Int, y: Int, threads: Int = 0) throws {
        guard Self.mainFormats.contains(main.format) else {
            throw KernelError.unsupportedFormat(kernel: "overlay", found: main.format, accepted: Self.mainFormats)
        }
        guard Self.overlayFormats.contains(overlay.format) else {
            throw KernelError.unsupportedFormat(kernel: "overlay", found: overlay.format, accepted: Self.overlayFormats)
        }
        if let p = FrameCheck.problem(main, format: main.format, width: main.width, height: main.height) {
            throw KernelError.badPlanes(kernel: "overlay", detail: "the main frame: \(p)")
        }
        if let p = FrameCheck.problem(overlay, format: overlay.format, width: overlay.width, height: overlay.height) {
            throw KernelError.badPlanes(kernel: "overlay", detail: "the overlay frame: \(p)")
        }
        // positions far outside cannot overlap, and keeping them small keeps the sums below exact
        let limit = 1 << 24
        guard abs(x) < limit, abs(y) < limit else {
            throw KernelError.invalidParameter(name: "x/y", detail: "position (\(x), \(y)) is beyond ±\(limit)")
        }
        if main.format.isRGB {
            blendPacked(overlay, onto: main, x: x, y: y, threads: threads)
            return
        }
        let shift = main.format.planeCount == 3 ? main.format.chromaShift : (x: 0, y: 0)
        let padX = main.format.planeCount == 3 ? x & ((1 << shift.x) - 1) : 0
        let padY = main.format.planeCount == 3 ? y & ((1 << shift.y) - 1) : 0
        if let p = preparedFor, p.format == main.format, p.width == overlay.width, p.height == overlay.height,
           p.padX == padX, p.padY == padY {
        } else {
            try prepare(overlay, mainFormat: main.format, x: x, y: y)
        }
        blendPlanar(onto: main, x: x - padX, y: y - padY, threads: threads)
    }

    // MARK: - planar

    /// Blends `image` with its (padded, chroma-aligned) top-left corner at (`vx`, `vy`).
    private func blendPlanar(onto main: FramePlanes, x vx: Int, y vy: Int, threads: Int) {
        let img = image
        let sx = img.chromaShift.x, sy = img.chromaShift.y
        // visible luma rows and columns of the image
        let r0 = max(0, -vy), r1 = min(img.height, main.height - vy)
        let c0 = max(0, -vx), c1 = min(img.width, main.width - vx)
        guard r0 < r1, c0 < c1 else { return }
        let chroma = img.hasChroma
        let cw = chroma ? main.planeSize(1).width : 0, chh = chroma ? main.planeSize(1).height : 0
        let cx = vx >> sx, cy = vy >> sy   // exact: vx, vy are multiples of the subsampling
        let k0 = max(0, -cx), k1 = min(img.chromaWidth, cw - cx)
        // bands of row groups (one chroma row's worth of luma rows each)
        let g0 = r0 >> sy, g1 = (r1 + (1 << sy) - 1) >> sy
        let premultiplied = alpha == .premultiplied
        let avx2 = path == .avx2
        RowBands.run(rows: g1 - g0, threads: threads, minRows: max(1, 16 >> sy)) { band in
            let ga = g0 + band.lowerBound, gb = g0 + band.upperBound
            let n = c1 - c0
            for r in max(r0, ga << sy)..<min(r1, gb << sy) {
                let d = main.data0 + (vy + r) * main.stride0 + vx + c0
                let s = img.luma + r * img.stride + c0, a = img.alpha + r * img.stride + c0
                Self.row(d, s, a, n, mode: premultiplied ? 1 : 0, avx2: avx2)
            }
            guard chroma, k0 < k1 else { return }
            let j0 = max(ga, -cy), j1 = min(gb, chh - cy, img.chromaHeight)
            guard j0 < j1 else { return }
            for j in j0..<j1 {
                let o = j * img.chromaStride + k0
                let a = img.chromaAlpha + o
                let du = main.data1! + (cy + j) * main.stride1 + cx + k0
                let dv = main.data2! + (cy + j) * main.stride2 + cx + k0
                Self.row(du, img.cb + o, a, k1 - k0, mode: premultiplied ? 2 : 0, avx2: avx2)
                Self.row(dv, img.cr + o, a, k1 - k0, mode: premultiplied ? 2 : 0, avx2: avx2)
            }
        }
    }

    /// One plane row: mode 0 straight, 1 premultiplied, 2 premultiplied chroma.
    @inline(__always)
    static func row(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafeMutablePointer<UInt8>, _ a: UnsafeMutablePointer<UInt8>,
                    _ n: Int, mode: Int32, avx2: Bool) {
        var done = 0
        if avx2 { done = overlayPlaneRowAVX2(d, s, a, n, mode) }
        guard done < n else { return }
        switch mode {
        case 0: OverlayRows.straight(d + done, s + done, a + done, n - done)
        case 1: OverlayRows.premultiplied(d + done, s + done, a + done, n - done)
        default: OverlayRows.premultipliedChroma(d + done, s + done, a + done, n - done)
        }
    }

    // MARK: - packed

    private func blendPacked(_ overlay: FramePlanes, onto main: FramePlanes, x: Int, y: Int, threads: Int) {
        let r0 = max(0, -y), r1 = min(overlay.height, main.height - y)
        let c0 = max(0, -x), c1 = min(overlay.width, main.width - x)
        guard r0 < r1, c0 < c1 else { return }
        let swapped = overlay.format != main.format
        let premultiplied = alpha == .premultiplied
        let avx2 = path == .avx2
        RowBands.run(rows: r1 - r0, threads: threads, minRows: 16) { band in
            for r in (r0 + band.lowerBound)..<(r0 + band.upperBound) {
                let d = main.data0 + (y + r) * main.stride0 + 4 * (x + c0)
                let s = overlay.data0 + r * overlay.stride0 + 4 * c0
                let n = c1 - c0
                var done = 0
                if avx2 { done = overlayPackedRowAVX2(d, s, n, premultiplied, swapped) }
                if done < n {
                    if swapped {
                        OverlayRows.packedSwapped(d + 4 * done, s + 4 * done, n - done, premultiplied: premultiplied)
                    } else {
                        OverlayRows.packed(d + 4 * done, s + 4 * done, n - done, premultiplied: premultiplied)
                    }
                }
            }
        }
    }
}
