import MediaGraphCore

/// The output size of `scale` as ffmpeg 5.1's scale works it out (libavfilter/scale_eval.c):
/// `width` and `height` are expressions (`"iw/2"`, `"-2"`, `"trunc(oh*a/2)*2"`) over `in_w`/`iw`,
/// `in_h`/`ih`, `out_w`/`ow`, `out_h`/`oh`, `a` (iw/ih), `sar`, `dar` (a·sar), `hsub`/`vsub` (the
/// input's chroma grid) and `ohsub`/`ovsub` (the output's). The width is evaluated, then the
/// height, then the width again, each truncated to an integer; 0 is the input's size. Then
/// -1 on one side keeps the aspect ratio (to the nearest pixel), -n also makes that side a
/// multiple of n, both negative keep the input's size, and `force-original-aspect-ratio` shrinks
/// (`decrease`) or grows (`increase`) the box to the input's aspect ratio, rounding to
/// `force-divisible-by`.
struct ScaleSize {
    static let variables = ["in_w", "iw", "in_h", "ih", "out_w", "ow", "out_h", "oh", "a", "sar", "dar", "hsub", "vsub", "ohsub", "ovsub"]
    private enum Variable: Int { case inW, iw, inH, ih, outW, ow, outH, oh, a, sar, dar, hsub, vsub, ohsub, ovsub }

    /// ffmpeg's `force_original_aspect_ratio`.
    enum AspectFit: String, CaseIterable, Sendable {
        case disable, decrease, increase
    }

    let width: NumericExpression, height: NumericExpression

    init(width: String, height: String) throws {
        self.width = try ExpressionParam.parse(width, param: "width", variables: Self.variables)
        self.height = try ExpressionParam.parse(height, param: "height", variables: Self.variables)
    }

    /// The size for an input of `size` (as shown) with sample aspect `sar` and chroma grids
    /// `grid` (input) and `outputGrid`.
    func evaluate(size: (w: Int, h: Int), sar: Double, grid: (x: Int, y: Int), outputGrid: (x: Int, y: Int),
                  fit: AspectFit, divisibleBy: Int) throws -> (w: Int, h: Int) {
        let iw = Double(size.w), ih = Double(size.h)
        var v = [Double](repeating: .nan, count: Self.variables.count)
        func set(_ k: Variable, _ value: Double) { v[k.rawValue] = value }
        set(.inW, iw); set(.iw, iw); set(.inH, ih); set(.ih, ih)
        set(.a, iw / ih); set(.sar, sar); set(.dar, iw / ih * sar)
        set(.hsub, Double(grid.x)); set(.vsub, Double(grid.y)); set(.ohsub, Double(outputGrid.x)); set(.ovsub, Double(outputGrid.y))

        // width (the height unknown yet), height, width again
        let first = width.evaluate(v)
        set(.outW, first == 0 ? iw : first.rounded(.towardZero)); set(.ow, v[Variable.outW.rawValue])
        let h = try whole(height.evaluate(v), height, "height", size)
        let outH = h == 0 ? size.h : h
        set(.outH, Double(outH)); set(.oh, Double(outH))
        let w = try whole(width.evaluate(v), width, "width", size)
        let outW = w == 0 ? size.w : w
        return try adjust(w: Int64(outW), h: Int64(outH), size: size, fit: fit, divisibleBy: Int64(divisibleBy))
    }

    /// C's `(int)` of a value in int's range; anything else is a mistake in the expression.
    private func whole(_ d: Double, _ e: NumericExpression, _ name: String, _ size: (w: Int, h: Int)) throws -> Int {
        guard d >= Double(Int32.min) && d <= Double(Int32.max) else {
            throw NodeFailure("param '\(name)': '\(e.source)' gives \(d) for this input (\(size.w)x\(size.h)); is it defined through itself (out_w from out_h and out_h from out_w)?")
        }
        return Int(d.rounded(.towardZero))
    }

    private func adjust(w inW: Int64, h inH: Int64, size: (w: Int, h: Int), fit: AspectFit, divisibleBy n: Int64) throws -> (w: Int, h: Int) {
        let iw = Int64(size.w), ih = Int64(size.h)
        var w = inW, h = inH
        let factorW = w < -1 ? -w : 1, factorH = h < -1 ? -h : 1
        if w < 0 && h < 0 { (w, h) = (iw, ih) }
        if w < 0 { w = try Self.rescale(h, iw, ih * factorW) * factorW }
        if h < 0 { h = try Self.rescale(w, ih, iw * factorH) * factorH }
        switch fit {
        case .disable: break
        case .decrease:
            let fitW = try Self.rescale(h, iw, ih), fitH = try Self.rescale(w, ih, iw)
            (w, h) = (min(fitW, w), min(fitH, h))
            if n > 1 { (w, h) = (w / n * n, h / n * n) }
        case .increase:
            let fitW = try Self.rescale(h, iw, ih), fitH = try Self.rescale(w, ih, iw)
            (w, h) = (max(fitW, w), max(fitH, h))
            if n > 1 { (w, h) = ((w + n - 1) / n * n, (h + n - 1) / n * n) }
        }
        guard let outW = Int(exactly: w), let outH = Int(exactly: h), (1...16384).contains(outW), (1...16384).contains(outH) else {
            throw NodeFailure("params 'width'/'height': for this input (\(size.w)x\(size.h)) they give \(w)x\(h); each side must be 1…16384")
        }
        return (outW, outH)
    }

    /// libavutil's av_rescale: a·b/c to the nearest integer, halves away from zero.
    static func rescale(_ a: Int64, _ b: Int64, _ c: Int64) throws -> Int64 {
        guard c != 0 else { throw NodeFailure("params 'width'/'height': a size of 0 to keep the aspect ratio of") }
        let p = Int128(a) * Int128(b), d = Int128(c)
        var q = p / d
        let r = p % d
        if 2 * r.magnitude >= d.magnitude { q += (r < 0) != (d < 0) ? -1 : 1 }
        guard let result = Int64(exactly: q) else { throw NodeFailure("params 'width'/'height': keeping the aspect ratio overflows") }
        return result
    }
}
