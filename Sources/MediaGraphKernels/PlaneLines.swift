import MediaGraphCore

/// A clamped line on the bytes of one plane: `clamp(gain·v + intercept, low, high)` before
/// rounding — what an affine colour map that is diagonal in Y'CbCr does to one plane
/// (`PlaneCurves`). Lines compose exactly (`then`), clamps included, so a run of them is one
/// line, rounded once where each stage would round its own.
public struct PlaneLine: Equatable, Sendable {
    public var gain: Double
    public var intercept: Double
    /// The clamp, within 0…255 (low = high: a constant).
    public var low: Double, high: Double

    public init(gain: Double, intercept: Double, low: Double, high: Double) {
        self.gain = gain
        self.intercept = intercept
        self.low = low
        self.high = high
    }

    /// v itself.
    public static let identity = PlaneLine(gain: 1, intercept: 0, low: 0, high: 255)
    /// `255 − v` (invert on every plane, as ffmpeg's negate: not held to the nominal range).
    public static let invert = PlaneLine(gain: -1, intercept: 255, low: 0, high: 255)

    /// This line, then `next`: next.gain · clamp(x, low, high) + next.intercept is next's line on
    /// x clamped to the images of low and high, and two clamps in a row are one.
    public func then(_ next: PlaneLine) -> PlaneLine {
        let a = next.gain * low + next.intercept, b = next.gain * high + next.intercept
        return PlaneLine(gain: next.gain * gain, intercept: next.gain * intercept + next.intercept,
                         low: min(max(min(a, b), next.low), next.high), high: max(min(max(a, b), next.high), next.low))
    }

    /// The value before rounding.
    public func value(_ v: Double) -> Double { min(max(gain * v + intercept, low), high) }
}

/// The lines of Y', Cb and Cr.
public struct PlaneLines: Equatable, Sendable {
    public var y: PlaneLine, cb: PlaneLine, cr: PlaneLine

    public init(y: PlaneLine, cb: PlaneLine, cr: PlaneLine) {
        self.y = y
        self.cb = cb
        self.cr = cr
    }

    /// invert on every plane.
    public static let invert = PlaneLines(y: .invert, cb: .invert, cr: .invert)

    /// The lines of `map` on frames of `matrix` and range (the same lines `PlaneCurves` rounds
    /// into its tables; an identity map clamps nothing, as there), or nil when the map mixes
    /// planes there.
    public init?(_ map: ColorTransform, matrix: YCbCrMatrix, fullRange: Bool) {
        if map.isIdentity {
            self.init(y: .identity, cb: .identity, cr: .identity)
            return
        }
        guard let forms = PlaneCurves.planeForms(map, matrix: matrix, fullRange: fullRange) else { return nil }
        let lines = forms.map { f in
            PlaneLine(gain: f.gain, intercept: f.zero + f.span * f.offset - f.gain * f.zero, low: f.low, high: f.top)
        }
        self.init(y: lines[0], cb: lines[1], cr: lines[2])
    }

    public var planes: [PlaneLine] { [y, cb, cr] }

    /// The bytes of the lines in 16-bit fixed point (`PlaneLineFixed16`), rounded once, as tables
    /// (`PlaneCurvesKernel` given these lines runs them as the lines); nil when a gain is too
    /// large for 16 bits (|gain| ≥ 128).
    public var fixedPointCurves: PlaneCurves? {
        let fixed = planes.compactMap(PlaneLineFixed16.init)
        guard fixed.count == 3 else { return nil }
        return PlaneCurves(y: fixed[0].table, cb: fixed[1].table, cr: fixed[2].table)
    }

    /// These lines, then `next`'s.
    public func then(_ next: PlaneLines) -> PlaneLines {
        PlaneLines(y: y.then(next.y), cb: cb.then(next.cb), cr: cr.then(next.cr))
    }
}
