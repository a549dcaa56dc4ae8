import MediaGraphCore

/// One 256-entry table per plane of 8-bit Y'CbCr (Y', Cb, Cr): how a colour map runs on YUV
/// frames without converting them to RGB and back.
///
/// An affine colour map A on R'G'B' acts on Y'CbCr as C·A·C⁻¹ (C the frame's matrix). When that
/// is diagonal — Y' depends on Y' alone, Cb on Cb, Cr on Cr — each plane is one table, exactly the
/// conversion to RGB, A, and the conversion back, for every colour that stays inside the RGB
/// cube. Brightness, contrast and exposure are diagonal in every matrix; saturation and grayscale
/// when their luma weights are the frame's own (`YCbCrMatrix.lumaWeights`). Results are rounded
/// to nearest and clamped to the nominal range (16–235 for Y', 16–240 for Cb and Cr in limited
/// range, 0–255 in full), where the RGB route clips each channel.
public struct PlaneCurves: Equatable, Sendable {
    /// Output byte for each input byte, for Y', Cb and Cr.
    public let y: [UInt8], cb: [UInt8], cr: [UInt8]

    /// Tables given directly: 256 entries each, or nil.
    public init?(y: [UInt8], cb: [UInt8], cr: [UInt8]) {
        guard y.count == 256, cb.count == 256, cr.count == 256 else { return nil }
        self.y = y
        self.cb = cb
        self.cr = cr
    }

    /// Tables that change nothing.
    public static let identity = PlaneCurves(y: ramp, cb: ramp, cr: ramp)!
    private static let ramp = (0..<256).map { UInt8($0) }

    /// The tables of `map` on frames of `matrix` and range, or nil when the map mixes planes
    /// there (its Y'CbCr form is not diagonal). Alpha reads as 1 (opaque).
    public init?(_ map: ColorTransform, matrix: YCbCrMatrix, fullRange: Bool) {
        if map.isIdentity {
            self = .identity
            return
        }
        guard let forms = Self.planeForms(map, matrix: matrix, fullRange: fullRange) else { return nil }
        let tables = forms.map { f in
            (0..<256).map { v in
                let out = f.zero + f.span * (f.gain * (Double(v) - f.zero) / f.span + f.offset)
                return UInt8(min(max(out.rounded(.toNearestOrEven), f.low), f.top))
            }
        }
        self.init(y: tables[0], cb: tables[1], cr: tables[2])!
    }

    /// Per plane (Y', Cb, Cr) what `map` does there: its gain and offset on the normalised value
    /// (Y' in 0…1, Cb and Cr in −0.5…0.5), the byte of value 0 and the bytes per unit, and the
    /// nominal range results are clamped to; nil when the map mixes planes.
    static func planeForms(_ map: ColorTransform, matrix: YCbCrMatrix, fullRange: Bool)
        -> [(gain: Double, offset: Double, zero: Double, span: Double, low: Double, top: Double)]? {
        guard let scales = Self.diagonal(map, luma: matrix.lumaWeights) else { return nil }
        let (black, lumaSpan, chromaSpan) = fullRange ? (0.0, 255.0, 255.0) : (16.0, 219.0, 224.0)
        let lumaTop = fullRange ? 255.0 : 235, chromaLow = fullRange ? 0.0 : 16, chromaTop = fullRange ? 255.0 : 240
        return [(scales.gain[0], scales.offset[0], black, lumaSpan, black, lumaTop),
                (scales.gain[1], scales.offset[1], 128, chromaSpan, chromaLow, chromaTop),
                (scales.gain[2], scales.offset[2], 128, chromaSpan, chromaLow, chromaTop)]
    }

    /// A's form on (Y', Pb, Pr) as per-plane gain and offset, when C·A·C⁻¹ is diagonal (off
    /// the diagonal at most 1e-9: rounding in the products, never a real mix).
    static func diagonal(_ map: ColorTransform, luma w: SIMD3<Double>) -> (gain: SIMD3<Double>, offset: SIMD3<Double>)? {
        let (m, offset) = yCbCrForm(map, luma: w)
        for i in 0..<3 { for j in 0..<3 where i != j && abs(m[i][j]) > 1e-9 { return nil } }
        return (SIMD3(m[0][0], m[1][1], m[2][2]), offset)
    }

    /// A's form on (Y', Pb, Pr) (Y' in 0…1, Pb and Pr in −0.5…0.5): C·A·C⁻¹ as rows, and C
    /// times A's offset (alpha = 1 folded in), C the R'G'B' → Y'PbPr matrix of luma weights `w`.
    static func yCbCrForm(_ map: ColorTransform, luma w: SIMD3<Double>) -> (rows: [SIMD3<Double>], offset: SIMD3<Double>) {
        let rows = map.effectiveRows, offset = map.effectiveOffset
        let (c, inverse) = (toYPbPr(luma: w), fromYPbPr(luma: w))
        // A on RGB with alpha = 1 folded into the offset.
        let a = (0..<3).map { SIMD3(rows[$0][0], rows[$0][1], rows[$0][2]) }
        let o = SIMD3((0..<3).map { offset[$0] + rows[$0][3] })
        // A·C⁻¹, then C·(A·C⁻¹), column by column of C⁻¹.
        func times(_ m: [SIMD3<Double>], _ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3((m[0] * v).sum(), (m[1] * v).sum(), (m[2] * v).sum()) }
        let columns = (0..<3).map { j in times(c, times(a, SIMD3(inverse[0][j], inverse[1][j], inverse[2][j]))) }
        return ((0..<3).map { i in SIMD3(columns[0][i], columns[1][i], columns[2][i]) }, times(c, o))
    }

    /// C, the rows of R'G'B' → (Y', Pb, Pr) for luma weights `w`.
    static func toYPbPr(luma w: SIMD3<Double>) -> [SIMD3<Double>] {
        [w, (SIMD3(0, 0, 1) - w) / (2 * (1 - w.z)), (SIMD3(1, 0, 0) - w) / (2 * (1 - w.x))]
    }

    /// C⁻¹, the rows of (Y', Pb, Pr) → R'G'B'.
    static func fromYPbPr(luma w: SIMD3<Double>) -> [SIMD3<Double>] {
        [SIMD3(1, 0, 2 * (1 - w.x)), SIMD3(1, -2 * (1 - w.z) * w.z / w.y, -2 * (1 - w.x) * w.x / w.y), SIMD3(1, 2 * (1 - w.z), 0)]
    }

    /// These tables, then `next`: the same bytes as the two one after the other.
    public func then(_ next: PlaneCurves) -> PlaneCurves {
        func compose(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { a.map { b[Int($0)] } }
        return PlaneCurves(y: compose(y, next.y), cb: compose(cb, next.cb), cr: compose(cr, next.cr))!
    }

    /// The largest difference between the bytes these tables and `other` give for one input.
    public func largestDifference(from other: PlaneCurves) -> Int {
        var worst = 0
        for (a, b) in [(y, other.y), (cb, other.cb), (cr, other.cr)] {
            for v in 0..<256 { worst = max(worst, abs(Int(a[v]) - Int(b[v]))) }
        }
        return worst
    }

    /// Whether every table maps each value to itself.
    public var isIdentity: Bool { self == .identity }
}
