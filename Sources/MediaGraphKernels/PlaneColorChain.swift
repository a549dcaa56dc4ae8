import MediaGraphCore

/// Colour maps that mix Y' with Cb and Cr (sepia, channel gains, colour matrices) on 8-bit planar
/// Y'CbCr, in the frame's own layout: the RGB route — convert to R'G'B', each map clamped to
/// 0…255, convert back — done per pixel in one pass, with no RGB frame in between.
///
/// Each luma pixel takes the chroma sample that covers it (no interpolation), goes to R'G'B' in
/// the frame's matrix and range (clamped to 0…255 as a converter clips), through every map with a
/// clamp after each, and back: Y' is that pixel's, rounded; Cb and Cr are the mean over the
/// pixels their sample covers (2x2 on 4:2:0, 2x1 on 4:2:2, on odd sizes the pixels there are),
/// rounded — made, as the conversion is linear, from the mean of their R'G'B'. Where the maps act linearly (no clamp), that mean is exactly the map's Y'CbCr form
/// applied to the sample and the mean Y' of its pixels; an RGB frame in between would instead
/// resample chroma up and down again and soften it (the identity map gives the frame back here).
/// The arithmetic is Float with fused multiply-adds in a fixed order (`row`), so the AVX2 loop
/// and the fallback give the same bytes; against exact arithmetic a result can differ only within
/// about 10⁻³ LSB of a rounding tie.
public struct PlaneColorChain: Sendable {
    /// R', G', B' (0…255) from the bytes (Y', Cb, Cr): 3 rows of (c_Y, c_Cb, c_Cr, offset).
    public let decode: [Float]
    /// Each map as 3 rows of (c_R, c_G, c_B, offset) on 0…255 values, alpha read as opaque.
    public let maps: [Float]
    /// Y', Cb, Cr bytes from R'G'B': 3 rows of (c_R, c_G, c_B, offset); chroma's offset is added
    /// after the mean.
    public let encode: [Float]
    public let mapCount: Int
    /// The maps, first applied first.
    public let transforms: [ColorTransform]

    public init(_ transforms: [ColorTransform], matrix: YCbCrMatrix, fullRange: Bool) {
        self.transforms = transforms
        mapCount = transforms.count
        let w = matrix.lumaWeights
        let (black, lumaSpan, chromaSpan) = fullRange ? (0.0, 255.0, 255.0) : (16.0, 219.0, 224.0)
        let from = PlaneCurves.fromYPbPr(luma: w), to = PlaneCurves.toYPbPr(luma: w)
        decode = (0..<3).flatMap { i -> [Float] in
            let cy = 255 * from[i][0] / lumaSpan, cb = 255 * from[i][1] / chromaSpan, cr = 255 * from[i][2] / chromaSpan
            return [cy, cb, cr, -(black * cy + 128 * cb + 128 * cr)].map { Float($0) }
        }
        var maps: [Float] = []
        for t in transforms {
            let rows = t.effectiveRows, offset = t.effectiveOffset
            for i in 0..<3 {
                let alphaFolded: Double = 255 * (offset[i] + rows[i][3])
                maps += [Float(rows[i][0]), Float(rows[i][1]), Float(rows[i][2]), Float(alphaFolded)]
            }
        }
        self.maps = maps
        let spans: [Double] = [lumaSpan, chromaSpan, chromaSpan], offsets: [Double] = [black, 128, 128]
        var encode: [Float] = []
        for i in 0..<3 {
            let scale: Double = spans[i] / 255
            encode += [Float(to[i][0] * scale), Float(to[i][1] * scale), Float(to[i][2] * scale), Float(offsets[i])]
        }
        self.encode = encode
    }

    /// The R'G'B' map that is invert on Y'CbCr planes (255 − x on each, ffmpeg's negate) for
    /// frames of `matrix` and range: on (Y', Pb, Pr) it is y' → (255 − 2·black)/span − y' and
    /// p → −p − 1/span, so on R'G'B' it is −rgb plus that offset taken back to R'G'B'. It sends
    /// black past 1 (Y' 16 → 239 in limited range), so a chain clamps after it.
    public static func invertMap(matrix: YCbCrMatrix, fullRange: Bool) -> ColorTransform {
        let (black, lumaSpan, chromaSpan) = fullRange ? (0.0, 255.0, 255.0) : (16.0, 219.0, 224.0)
        let from = PlaneCurves.fromYPbPr(luma: matrix.lumaWeights)
        let v = SIMD3((255 - 2 * black) / lumaSpan, -1 / chromaSpan, -1 / chromaSpan)
        let o = (0..<3).map { (from[$0] * v).sum() }
        return ColorTransform(uncheckedRows: [SIMD4(-1, 0, 0, 0), SIMD4(0, -1, 0, 0), SIMD4(0, 0, -1, 0), SIMD4(0, 0, 0, 1)],
                              offset: SIMD4(o[0], o[1], o[2], 0), intensity: 1)
    }

    /// Whether every map is the identity.
    public var isIdentity: Bool { transforms.allSatisfy(\.isIdentity) }

    /// (offset + c0·a) + c1·b + c2·c in fused multiply-adds, the AVX2 loop's order.
    @inline(__always)
    static func row(_ c: UnsafePointer<Float>, _ a: Float, _ b: Float, _ d: Float) -> Float {
        c[3].addingProduct(c[0], a).addingProduct(c[1], b).addingProduct(c[2], d)
    }

    @inline(__always)
    static func clamp(_ v: Float) -> Float { min(max(v, 0), 255) }

    /// A chroma sample's part of R', G', B' before its pixels' Y' is added: (offset + c_Cb·Cb) +
    /// c_Cr·Cr, worked out once for all the pixels it covers, as the AVX2 loop does.
    @inline(__always)
    static func decodeTerms(cb: UInt8, cr: UInt8, decode d: UnsafePointer<Float>) -> SIMD3<Float> {
        let b = Float(cb), r = Float(cr)
        return SIMD3(d[3].addingProduct(d[1], b).addingProduct(d[2], r), d[7].addingProduct(d[5], b).addingProduct(d[6], r),
                     d[11].addingProduct(d[9], b).addingProduct(d[10], r))
    }

    /// One pixel as the AVX2 loop computes it: Y' unrounded, and R', G', B' after the maps.
    @inline(__always)
    static func pixel(y: UInt8, terms t: SIMD3<Float>, decode: UnsafePointer<Float>, maps: UnsafePointer<Float>, mapCount: Int,
                      encode: UnsafePointer<Float>) -> (y: Float, rgb: SIMD3<Float>) {
        let yv = Float(y)
        var r = clamp(t.x.addingProduct(decode[0], yv)), g = clamp(t.y.addingProduct(decode[4], yv)), b = clamp(t.z.addingProduct(decode[8], yv))
        for k in 0..<mapCount {
            let m = maps + 12 * k
            (r, g, b) = (clamp(row(m, r, g, b)), clamp(row(m + 4, r, g, b)), clamp(row(m + 8, r, g, b)))
        }
        return (row(encode, r, g, b), SIMD3(r, g, b))
    }

    /// Cb or Cr from R', G', B' summed over a sample's pixels: ((c_R·R + c_G·G) + c_B·B)·scale
    /// + offset, `c` the chroma row of `encode`, in the AVX2 loop's order.
    @inline(__always)
    static func chroma(_ sum: SIMD3<Float>, _ c: UnsafePointer<Float>, scale: Float) -> Float {
        let v = Float(0).addingProduct(c[0], sum.x).addingProduct(c[1], sum.y).addingProduct(c[2], sum.z)
        return c[3].addingProduct(v, scale)
    }

    /// A value rounded to nearest (ties to even) and saturated to a byte, as the AVX2 loop stores it.
    @inline(__always)
    static func byte(_ v: Float) -> UInt8 { UInt8(min(max(v.rounded(.toNearestOrEven), 0), 255)) }
}
