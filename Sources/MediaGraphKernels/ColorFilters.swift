import Foundation

/// The per-filter maths of the linear colour filters (GPUImage's formulas), each a
/// `ColorTransform`. Parameters outside their documented range throw `KernelError`.
extension ColorTransform {
    /// Rec. 709 luma weights, as GPUImage's grayscale, saturation and luminance filters use.
    public static let luminanceWeights = SIMD3<Double>(0.2125, 0.7154, 0.0721)

    // The parameter ranges: the functions below check them and the nodes declare their params
    // with them, so kernel, node, schema and Docs/filters.md share one value.
    /// `intensity` of grayscale, sepia, presets and colour matrices.
    public static let intensityRange: ClosedRange<Double> = 0...1
    public static let brightnessRange: ClosedRange<Double> = -1...1
    public static let contrastRange: ClosedRange<Double> = 0...4
    public static let saturationRange: ClosedRange<Double> = 0...2
    public static let exposureRange: ClosedRange<Double> = -10...10
    public static let gainRange: ClosedRange<Double> = 0...4
    /// Degrees of hue rotation (ten turns either way; a rotation repeats every 360).
    public static let hueRange: ClosedRange<Double> = -3600...3600
    /// Each element of a `colormatrix` matrix and offset.
    public static let matrixElementRange: ClosedRange<Double> = -64...64

    /// rgb' = dot(rgb, (0.2125, 0.7154, 0.0721)) on every channel, alpha kept.
    /// `luma` other weights (a YUV frame's own, `YCbCrMatrix.lumaWeights`).
    public static func grayscale(intensity: Double = 1, luma: SIMD3<Double> = luminanceWeights) throws -> ColorTransform {
        try KernelError.check("grayscale.intensity", intensity, in: intensityRange)
        let w = luma
        let row = SIMD4(w.x, w.y, w.z, 0)
        return ColorTransform(uncheckedRows: [row, row, row, SIMD4(0, 0, 0, 1)], offset: .zero,
                              intensity: intensity)
    }

    /// GPUImage's sepia matrix, mixed with the input by `intensity` (0…1).
    public static func sepia(intensity: Double = 1) throws -> ColorTransform {
        try KernelError.check("sepia.intensity", intensity, in: intensityRange)
        return ColorTransform(uncheckedRows: [SIMD4(0.3588, 0.7044, 0.1368, 0),
                                              SIMD4(0.2990, 0.5870, 0.1140, 0),
                                              SIMD4(0.2392, 0.4696, 0.0912, 0),
                                              SIMD4(0, 0, 0, 1)],
                              offset: .zero, intensity: intensity)
    }

    /// rgb' = rgb + amount (amount in `brightnessRange`).
    public static func brightness(_ amount: Double) throws -> ColorTransform {
        try KernelError.check("brightness.amount", amount, in: brightnessRange)
        return ColorTransform(uncheckedRows: identity.rows, offset: SIMD4(amount, amount, amount, 0), intensity: 1)
    }

    /// rgb' = (rgb - 0.5)·amount + 0.5 (amount in `contrastRange`).
    public static func contrast(_ amount: Double) throws -> ColorTransform {
        try KernelError.check("contrast.amount", amount, in: contrastRange)
        let o = 0.5 * (1 - amount)
        return ColorTransform(uncheckedRows: [SIMD4(amount, 0, 0, 0), SIMD4(0, amount, 0, 0),
                                              SIMD4(0, 0, amount, 0), SIMD4(0, 0, 0, 1)],
                              offset: SIMD4(o, o, o, 0), intensity: 1)
    }

    /// rgb' = mix(luminance, rgb, amount) with Rec. 709 luminance (amount in `saturationRange`).
    /// `luma` other weights (a YUV frame's own, `YCbCrMatrix.lumaWeights`).
    public static func saturation(_ amount: Double, luma: SIMD3<Double> = luminanceWeights) throws -> ColorTransform {
        try KernelError.check("saturation.amount", amount, in: saturationRange)
        let w = luma * (1 - amount)
        var rows: [SIMD4<Double>] = []
        for i in 0..<3 {
            var row = SIMD4(w.x, w.y, w.z, 0)
            row[i] += amount
            rows.append(row)
        }
        rows.append(SIMD4(0, 0, 0, 1))
        return ColorTransform(uncheckedRows: rows, offset: .zero, intensity: 1)
    }

    /// rgb' = rgb·2^ev (ev in `exposureRange`).
    public static func exposure(ev: Double) throws -> ColorTransform {
        try KernelError.check("exposure.ev", ev, in: exposureRange)
        return gains(pow(2, ev), pow(2, ev), pow(2, ev))
    }

    /// r' = r·red, g' = g·green, b' = b·blue (gains in `gainRange`).
    public static func rgbGains(r: Double, g: Double, b: Double) throws -> ColorTransform {
        try KernelError.check("rgb.red", r, in: gainRange)
        try KernelError.check("rgb.green", g, in: gainRange)
        try KernelError.check("rgb.blue", b, in: gainRange)
        return gains(r, g, b)
    }

    private static func gains(_ r: Double, _ g: Double, _ b: Double) -> ColorTransform {
        ColorTransform(uncheckedRows: [SIMD4(r, 0, 0, 0), SIMD4(0, g, 0, 0), SIMD4(0, 0, b, 0), SIMD4(0, 0, 0, 1)],
                       offset: .zero, intensity: 1)
    }

    /// GPUImage's hue filter: rgb to YIQ, the chroma (I, Q) turned by -degrees, back to rgb.
    ///
    /// The shader goes through polar form (atan, sqrt, sin, cos), but
    /// `chroma·cos(atan(Q, I) - h) = I·cos h + Q·sin h` and
    /// `chroma·sin(atan(Q, I) - h) = Q·cos h - I·sin h`, so the filter is exactly linear:
    /// `rgb' = YIQtoRGB · R(-h) · RGBtoYIQ · rgb`, one matrix. (Degrees within `hueRange`, taken
    /// modulo 360 as GPUImage does.) A whole number of turns is exactly the identity: GPUImage's
    /// six-digit YIQ constants are not exact inverses, so the matrix product would move some
    /// values by a rounding step where a rotation by 0 must change nothing.
    public static func hue(degrees: Double) throws -> ColorTransform {
        try KernelError.check("hue.degrees", degrees, in: hueRange)
        if degrees.truncatingRemainder(dividingBy: 360) == 0 { return identity }
        let h = degrees.truncatingRemainder(dividingBy: 360) * Double.pi / 180
        let c = cos(h), s = sin(h)
        // RGB → YIQ rows and YIQ → RGB rows, GPUImage's constants.
        let toY = SIMD3(0.299, 0.587, 0.114)
        let toI = SIMD3(0.595716, -0.274453, -0.321263)
        let toQ = SIMD3(0.211456, -0.522591, 0.31135)
        let fromYIQ = [SIMD3(1.0, 0.9563, 0.6210), SIMD3(1.0, -0.2721, -0.6474), SIMD3(1.0, -1.1070, 1.7046)]
        let newI = toI * c + toQ * s
        let newQ = toQ * c - toI * s
        var rows: [SIMD4<Double>] = []
        for k in fromYIQ {
            let row = toY * k.x + newI * k.y + newQ * k.z
            rows.append(SIMD4(row.x, row.y, row.z, 0))
        }
        rows.append(SIMD4(0, 0, 0, 1))
        return ColorTransform(uncheckedRows: rows, offset: .zero, intensity: 1)
    }

    /// The hue filter about luminance with weights `w` (a YUV frame's own, as saturation takes
    /// them there): Y' kept, and the chroma turned as GPUImage's filter turns I and Q — YIQ's
    /// (I, Q) are (U, V) = (0.492111·(B' − Y'), 0.877283·(R' − Y')) reflected, so turning them by
    /// −degrees turns (U, V) by +degrees. With BT.601's weights this is GPUImage's filter (up to its
    /// six-digit constants, 10⁻⁴ LSB), and on Y'CbCr it turns Cb and Cr together and leaves Y'
    /// alone (`PlaneChroma`), so YUV frames need no conversion.
    public static func hue(degrees: Double, luma w: SIMD3<Double>) throws -> ColorTransform {
        try KernelError.check("hue.degrees", degrees, in: hueRange)
        if degrees.truncatingRemainder(dividingBy: 360) == 0 { return identity }
        let h = degrees.truncatingRemainder(dividingBy: 360) * Double.pi / 180
        let c = cos(h), s = sin(h)
        // (U, V) in units of (Pb, Pr): U = du·Pb, V = dv·Pr.
        let du = 0.492111 * 2 * (1 - w.z), dv = 0.877283 * 2 * (1 - w.x)
        // R'G'B' → (Y', Pb, Pr) and back.
        let to = PlaneCurves.toYPbPr(luma: w), back = PlaneCurves.fromYPbPr(luma: w)
        let (toY, toPb, toPr) = (to[0], to[1], to[2])
        let newPb = toPb * c - toPr * (dv / du * s)
        let newPr = toPb * (du / dv * s) + toPr * c
        let rows = back.map { k -> SIMD4<Double> in
            let row = toY * k.x + newPb * k.y + newPr * k.z
            return SIMD4(row.x, row.y, row.z, 0)
        } + [SIMD4(0, 0, 0, 1)]
        return ColorTransform(uncheckedRows: rows, offset: .zero, intensity: 1)
    }
}
