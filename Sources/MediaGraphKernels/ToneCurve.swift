import Foundation

/// A tone curve through points, as ffmpeg's `curves` filter and Photoshop draw it: a natural cubic
/// spline (second derivative 0 at both ends) through the points, flat before the first and after
/// the last. No points: the identity; one point: that output everywhere.
public struct ToneCurve: Equatable, Sendable {
    /// A point of the curve, both coordinates in 0…1.
    public struct Point: Equatable, Sendable {
        public var x: Double, y: Double
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }

    /// The points, in increasing x, at least 1/255 apart.
    public let points: [Point]

    /// Range of both coordinates.
    public static let coordinateRange: ClosedRange<Double> = 0...1

    /// The curve through `points`: coordinates finite and in `coordinateRange`, x increasing with
    /// each point on its own input byte (`x * 255` rounded down differs), as ffmpeg requires.
    /// `name` names the param in errors.
    public init(_ points: [Point], name: String = "curve") throws {
        for (k, p) in points.enumerated() {
            guard p.x.isFinite, p.y.isFinite, Self.coordinateRange.contains(p.x), Self.coordinateRange.contains(p.y) else {
                throw KernelError.invalidParameter(name: name, detail: "point \(k + 1) (\(p.x)/\(p.y)): x and y must be in 0…1")
            }
            if k > 0, Self.byte(points[k - 1].x) >= Self.byte(p.x) {
                let a = points[k - 1]
                throw KernelError.invalidParameter(
                    name: name, detail: "point \(k) (\(a.x)/\(a.y)) and point \(k + 1) (\(p.x)/\(p.y)) must be in increasing x, "
                        + "at least 1/255 apart (each on an input byte of its own)")
            }
        }
        self.points = points
    }

    /// The input byte a point's x falls on (rounded down, as ffmpeg places the points).
    static func byte(_ x: Double) -> Int { Int(x * 255) }

    /// The curve on every input byte: ffmpeg's `curves` tables, byte for byte. As there, each
    /// spline piece is evaluated from its left point's byte and the value × 255 is rounded toward
    /// zero (half a byte darker on average than rounding to nearest; kept so that a graph gives
    /// the bytes of the ffmpeg command it replaces).
    public var table: [UInt8] {
        func byte(_ y: Double) -> UInt8 { UInt8(min(max(y, 0), 1) * 255) }
        guard let first = points.first, let last = points.last else { return (0..<256).map { UInt8($0) } }
        guard points.count > 1 else { return [UInt8](repeating: byte(first.y), count: 256) }
        let m = secondDerivatives()
        var out = [UInt8](repeating: byte(first.y), count: 256)
        for i in 0..<(points.count - 1) {
            let (a, b) = (points[i], points[i + 1])
            let h = b.x - a.x
            // y + slope·t + m0/2·t² + (m1 − m0)/(6h)·t³, t from a's byte
            let slope = (b.y - a.y) / h - h * (2 * m[i] + m[i + 1]) / 6
            let c2 = m[i] / 2, c3 = (m[i + 1] - m[i]) / (6 * h)
            let start = Self.byte(a.x)
            for v in start...Self.byte(b.x) {
                let t = Double(v - start) / 255
                out[v] = byte(a.y + t * (slope + t * (c2 + t * c3)))
            }
        }
        for v in Self.byte(last.x)...255 { out[v] = byte(last.y) }
        return out
    }

    /// The spline's second derivative at each point: 0 at both ends, the tridiagonal system
    /// between (continuous first and second derivatives) solved by elimination.
    private func secondDerivatives() -> [Double] {
        let n = points.count
        var m = [Double](repeating: 0, count: n)
        guard n > 2 else { return m }
        let h = (0..<(n - 1)).map { points[$0 + 1].x - points[$0].x }
        // rows 1…n−2: h[i−1]·m[i−1] + 2(h[i−1] + h[i])·m[i] + h[i]·m[i+1] = rhs[i]
        var diagonal = [Double](repeating: 1, count: n), rhs = [Double](repeating: 0, count: n)
        for i in 1..<(n - 1) {
            diagonal[i] = 2 * (h[i - 1] + h[i])
            rhs[i] = 6 * ((points[i + 1].y - points[i].y) / h[i] - (points[i].y - points[i - 1].y) / h[i - 1])
        }
        // forward elimination (row 0 is m[0] = 0, so row 1 keeps its diagonal), then back substitution
        var upper = [Double](repeating: 0, count: n)
        for i in 1..<(n - 1) {
            let below = i > 1 ? h[i - 1] : 0
            let d = diagonal[i] - below * upper[i - 1]
            upper[i] = h[i] / d
            rhs[i] = (rhs[i] - below * rhs[i - 1]) / d
        }
        for i in stride(from: n - 2, through: 1, by: -1) { m[i] = rhs[i] - upper[i] * m[i + 1] }
        return m
    }
}

extension ChannelCurves {
    /// Tone curves per channel, then `master` on all three (ffmpeg's `curves`: master applies to
    /// each channel's output).
    public static func toneCurves(red: ToneCurve, green: ToneCurve, blue: ToneCurve, master: ToneCurve?) -> ChannelCurves {
        let channels = ChannelCurves(red: red.table, green: green.table, blue: blue.table)!
        guard let master else { return channels }
        let m = master.table
        return channels.then(ChannelCurves(red: m, green: m, blue: m)!)
    }
}
