import MediaGraphCore

/// How an overlay's RGBA pixels carry their alpha.
public enum OverlayAlpha: String, CaseIterable, Sendable {
    /// Colour independent of alpha (PNG, WebP): out = main·(1−α) + overlay·α.
    case straight
    /// Colour already multiplied by alpha: out = main·(1−α) + overlay.
    case premultiplied
}

/// R'G'B' → Y'CbCr for the overlay's colours, in the main video's matrix and range: the
/// overlay is converted once per overlay frame, never the main video.
///
/// Y' = off + ky·(Kr·R + Kg·G + Kb·B), Cb = 128 + kc·(B − Y)/(2(1−Kb)), Cr = 128 + kc·(R − Y)/(2(1−Kr))
/// with off = 16, ky = 219/255, kc = 224/255 for limited range and off = 0, ky = kc = 1 for full.
/// An untagged matrix is BT.601 (what libswscale and ffmpeg's overlay assume).
public struct OverlayColor: Sendable, Equatable {
    /// Per-unit coefficients of R, G, B for Y', Cb, Cr (offsets not included).
    public let y: SIMD3<Double>
    public let cb: SIMD3<Double>
    public let cr: SIMD3<Double>
    /// Y' of black: 16 (limited) or 0 (full).
    public let lumaOffset: Double

    public init(matrix: YCbCrMatrix, fullRange: Bool) {
        let luma = matrix.lumaWeights
        let kr = luma.x, kb = luma.z
        let ky = fullRange ? 1.0 : 219.0 / 255
        let kc = fullRange ? 1.0 : 224.0 / 255
        y = luma * ky
        cb = (SIMD3(0, 0, 1) - luma) * (kc / (2 * (1 - kb)))
        cr = (SIMD3(1, 0, 0) - luma) * (kc / (2 * (1 - kr)))
        lumaOffset = fullRange ? 0 : 16
    }

    /// The colour for a main frame's format (RGB mains need none).
    public init(_ main: VideoFormat) {
        self.init(matrix: main.matrix, fullRange: main.range == .full)
    }

    /// The same coefficients ×2^16, rounded: what the conversion loop uses (integer sums, so a
    /// 2×2 chroma average is exact before its one rounding).
    var fixed: (y: SIMD3<Int32>, cb: SIMD3<Int32>, cr: SIMD3<Int32>) {
        func q(_ v: SIMD3<Double>) -> SIMD3<Int32> { SIMD3((v * 65536).rounded(.toNearestOrAwayFromZero)) }
        return (q(y), q(cb), q(cr))
    }
}
