import MediaGraphCore

/// The size and place params of `crop` and `pad` as ffmpeg's expressions (`crop=iw/2:ih/2`,
/// `pad=iw+40:ih+40:(ow-iw)/2:(oh-ih)/2`), over the picture as shown: `in_w`/`iw`, `in_h`/`ih`,
/// `out_w`/`ow`, `out_h`/`oh`, `x`, `y`, `a` (iw/ih), `sar`, `dar` (a·sar), `hsub`, `vsub` (the
/// chroma grid). As in ffmpeg the width is evaluated, then the height, then the width again (so
/// each may use the other), then x, y and x again. Sizes are known at validation. With
/// `perFrame` (ffmpeg's crop) x and y may also read `n` (the frame number), `t` (its time in
/// seconds) and `pos` (NaN here: frames carry no file position); such a place is `moving` and
/// evaluated for every frame (`place`).
struct PlacementExpressions {
    static let variables = ["in_w", "iw", "in_h", "ih", "out_w", "ow", "out_h", "oh", "a", "sar", "dar", "hsub", "vsub", "x", "y"]
    static let frameVariables = variables + ["n", "t", "pos"]
    enum Variable: Int { case inW, iw, inH, ih, outW, ow, outH, oh, a, sar, dar, hsub, vsub, x, y, n, t, pos }

    let width: NumericExpression?, height: NumericExpression?, x: NumericExpression?, y: NumericExpression?
    let names: (width: String, height: String, x: String, y: String)
    let perFrame: Bool
    /// x or y reads the frame's number or time.
    let moving: Bool

    init(width: String?, height: String?, x: String?, y: String?, names: (String, String, String, String), perFrame: Bool = false) throws {
        self.names = names
        self.perFrame = perFrame
        let variables = perFrame ? Self.frameVariables : Self.variables
        func parse(_ text: String?, _ name: String) throws -> NumericExpression? {
            try text.map { try ExpressionParam.parse($0, param: name, variables: variables) }
        }
        self.width = try parse(width, names.0)
        self.height = try parse(height, names.1)
        self.x = try parse(x, names.2)
        self.y = try parse(y, names.3)
        let frameSlots = [Variable.n, .t, .pos].map(\.rawValue)
        moving = perFrame && [self.x, self.y].contains { e in e.map { e in frameSlots.contains { e.uses($0) } } ?? false }
    }

    /// The four values for a picture of `shown` size with chroma grid `grid` and sample aspect
    /// `sar`; an unset size is `defaultSize` (nil: unset), an unset place nil (and a moving
    /// place nil: see `place`). `integer` turns a value into pixels as the ffmpeg filter does
    /// (crop: to nearest, lrint; pad: truncated). `zeroIsInput`: a size of 0 is the input's
    /// before x and y are evaluated (ffmpeg's pad).
    func evaluate(shown: (w: Int, h: Int), grid: (x: Int, y: Int), sar: Double, zeroIsInput: Bool = false,
                  integer: (Double) -> Int?) throws -> (w: Int?, h: Int?, x: Int?, y: Int?) {
        var v = sizeValues(shown: shown, grid: grid, sar: sar, zeroIsInput: zeroIsInput, integer: integer)
        func pixels(_ e: NumericExpression?, _ k: Variable, _ name: String) throws -> Int? {
            guard let e else { return nil }
            guard let n = integer(v[k.rawValue]) else {
                throw NodeFailure("param '\(name)': '\(e.source)' gives \(v[k.rawValue]) for this input (\(shown.w)x\(shown.h)), expected a number of pixels")
            }
            return n
        }
        let w = try pixels(width, .outW, names.width), h = try pixels(height, .outH, names.height)
        if moving { return (w, h, nil, nil) }
        if let x { v[Variable.x.rawValue] = x.evaluate(v) }
        if let y { v[Variable.y.rawValue] = y.evaluate(v) }
        if let x { v[Variable.x.rawValue] = x.evaluate(v) }
        return (w, h, try pixels(x, .x, names.x), try pixels(y, .y, names.y))
    }

    /// The variables' values with the sizes evaluated (x and y not yet; before the first frame,
    /// as ffmpeg's crop has them: `n` 0, `t` and `pos` unknown).
    func sizeValues(shown: (w: Int, h: Int), grid: (x: Int, y: Int), sar: Double, zeroIsInput: Bool = false,
                    integer: (Double) -> Int?) -> [Double] {
        var v = [Double](repeating: .nan, count: perFrame ? Self.frameVariables.count : Self.variables.count)
        func set(_ k: Variable, _ value: Double) { v[k.rawValue] = value }
        if perFrame { set(.n, 0) }
        set(.inW, Double(shown.w)); set(.iw, Double(shown.w)); set(.inH, Double(shown.h)); set(.ih, Double(shown.h))
        set(.a, Double(shown.w) / Double(shown.h)); set(.sar, sar); set(.dar, Double(shown.w) / Double(shown.h) * sar)
        set(.hsub, Double(grid.x)); set(.vsub, Double(grid.y))
        // unset sizes are the input's while the others are evaluated
        set(.outW, Double(shown.w)); set(.ow, Double(shown.w)); set(.outH, Double(shown.h)); set(.oh, Double(shown.h))
        func size(_ e: NumericExpression?, _ a: Variable, _ b: Variable) { if let e { let r = e.evaluate(v); set(a, r); set(b, r) } }
        size(width, .outW, .ow); size(height, .outH, .oh); size(width, .outW, .ow)
        if zeroIsInput {
            if width != nil, integer(v[Variable.outW.rawValue]) == 0 { set(.outW, Double(shown.w)); set(.ow, Double(shown.w)) }
            if height != nil, integer(v[Variable.outH.rawValue]) == 0 { set(.outH, Double(shown.h)); set(.oh, Double(shown.h)) }
        }
        return v
    }

    /// A moving place for one frame, as ffmpeg's crop evaluates it: `values` from `sizeValues`
    /// (kept from frame to frame), frame number `n` and time `t` (seconds, NaN when unknown);
    /// x, y, then x again. An unset side is nil.
    func place(_ values: inout [Double], n: Int, t: Double) -> (x: Double?, y: Double?) {
        values[Variable.n.rawValue] = Double(n)
        values[Variable.t.rawValue] = t
        if let x { values[Variable.x.rawValue] = x.evaluate(values) }
        if let y { values[Variable.y.rawValue] = y.evaluate(values) }
        if let x { values[Variable.x.rawValue] = x.evaluate(values) }
        return (x == nil ? nil : values[Variable.x.rawValue], y == nil ? nil : values[Variable.y.rawValue])
    }

    /// C's lrint (ties to even), nil for NaN or values no frame has.
    static func nearest(_ d: Double) -> Int? {
        d.isFinite && abs(d) < 1e9 ? Int(d.rounded(.toNearestOrEven)) : nil
    }

    /// C's conversion to int (toward zero), nil for NaN or values no frame has.
    static func truncated(_ d: Double) -> Int? {
        d.isFinite && abs(d) < 1e9 ? Int(d.rounded(.towardZero)) : nil
    }
}
