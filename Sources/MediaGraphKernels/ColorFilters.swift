import Foundation

/// The per-filter maths of the linear colour filters (GPUImage's formulas), each a
/// `ColorTransform`. Parameters outside their documented range throw `KernelError`.
extension ColorTransform {
    /// Rec. 709 luma weights, as GPUImage's grayscale, saturation and luminance filters use.
    public static let luminanceWeights = SIMD3<Double>(0.2125, 0.7154, 0.0721)

    /// rgb' = dot(rgb, (0.2125, 0.7154, 0.0721)) on every channel, alpha kept.
    public static func grayscale(intensity: Double = 1) throws -> ColorTransform {
        try KernelError.check("grayscale.intensity", intensity, in: 0...1)
        let w = luminanceWeights
        let row = SIMD4(w.x, w.y, w.z, 0)
        return ColorTransform(uncheckedRows: [row, row, row, SIMD4(0, 0, 0, 1)], offset: .zero,
                              intensity: intensity)
    }

    /// GPUImage's sepia matrix, mixed with the input by `intensity` (0…1).
    public static func sepia(intensity: Double = 1) throws -> ColorTransform {
        try KernelError.check("sepia.intensity", intensity, in: 0...1)
        return ColorTransform(uncheckedRows: [SIMD4(0.3588, 0.7044, 0.1368, 0),
                                              SIMD4(0.2990, 0.5870, 0.1140, 0),
                                              SIMD4(0.2392, 0.4696, 0.0912, 0),
                                              SIMD4(0, 0, 0, 1)],
                              offset: .zero, intensity: intensity)
    }

    /// rgb' = rgb + amount (amount -1…1).
    public static func brightness(_ amount: Double) throws -> ColorTransform {
        try KernelError.check("brightness.amount", amount, in: -1...1)
        return ColorTransform(uncheckedRows: identity.rows, offset: SIMD4(amount, amount, amount, 0), intensity: 1)
    }

    /// rgb' = (rgb - 0.5)·amount + 0.5 (amount 0…4).
    public static func contrast(_ amount: Double) throws -> ColorTransform {
        try KernelError.check("contrast.amount", amount, in: 0...4)
        let o = 0.5 * (1 - amount)
        return ColorTransform(uncheckedRows: [SIMD4(amount, 0, 0, 0), SIMD4(0, amount, 0, 0),
                                              SIMD4(0, 0, amount, 0), SIMD4(0, 0, 0, 1)],
                              offset: SIMD4(o, o, o, 0), intensity: 1)
    }

    /// rgb' = mix(luminance, rgb, amount) with Rec. 709 luminance (amount 0…2).
    public static func saturation(_ amount: Double) throws -> ColorTransform {
        try KernelError.check("saturation.amount", amount, in: 0...2)
        let w = luminanceWeights * (1 - amount)
        var rows: [SIMD4<Double>] = []
        for i in 0..<3 {
            var row = SIMD4(w.x, w.y, w.z, 0)
            row[i] += amount
            rows.append(row)
        }
        rows.append(SIMD4(0, 0, 0, 1))
        return ColorTransform(uncheckedRows: rows, offset: .zero, intensity: 1)
    }

    /// rgb' = rgb·2^ev (ev -10…10).
    public static func exposure(ev: Double) throws -> ColorTransform {
        try KernelError.check("exposure.ev", ev, in: -10...10)
        return gains(pow(2, ev), pow(2, ev), pow(2, ev))
    }

    /// r' = r·red, g' = g·green, b' = b·blue (gains 0…4).
    public static func rgbGains(r: Double, g: Double, b: Double) throws -> ColorTransform {
        try KernelError.check("rgb.red", r, in: 0...4)
        try KernelError.check("rgb.green", g, in: 0...4)
        try KernelError.check("rgb.blue", b, in: 0...4)
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
    /// `rgb' = YIQtoRGB · R(-h) · RGBtoYIQ · rgb`, one matrix. (Degrees of any size; GPUImage takes
    /// them modulo 360 first, which changes nothing in a rotation.)
    public static func hue(degrees: Double) throws -> ColorTransform {
        try KernelError.check("hue.degrees", degrees, in: -1e6...1e6)
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
}
