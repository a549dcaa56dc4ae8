/// What fusing a chain of colour maps needs to know about each: whether a composed map can skip
/// the clamp to 0…1 after it, and how much an error on its input can grow through it.
extension ColorTransform {
    /// rgb' = 1 - rgb, alpha kept: `invert` on rgba/bgra as a colour map.
    public static let invert = ColorTransform(
        uncheckedRows: [SIMD4(-1, 0, 0, 0), SIMD4(0, -1, 0, 0), SIMD4(0, 0, -1, 0), SIMD4(0, 0, 0, 1)],
        offset: SIMD4(1, 1, 1, 0), intensity: 1)

    /// Whether the map sends every colour of the RGBA cube [0, 1]^4 into the cube, so the clamp
    /// after it never acts. An affine map sends the cube to the convex hull of the images of its
    /// 16 corners, so checking the corners is exact. Returns nil when it stays inside, else the
    /// first corner that leaves and its image (for messages).
    public func cornerLeavingRange(tolerance: Double = 1e-9) -> (corner: SIMD4<Double>, image: SIMD4<Double>)? {
        let rows = effectiveRows, offset = effectiveOffset
        for k in 0..<16 {
            let c = SIMD4<Double>(Double(k & 1), Double(k >> 1 & 1), Double(k >> 2 & 1), Double(k >> 3 & 1))
            var image = offset
            for i in 0..<4 { image[i] += (rows[i] * c).sum() }
            if (0..<4).contains(where: { image[$0] < -tolerance || image[$0] > 1 + tolerance }) { return (c, image) }
        }
        return nil
    }

    /// The largest factor by which the map can grow a difference between two inputs, in the
    /// max norm: the largest sum of absolute values over a row of the matrix. An input error of
    /// e (per channel) leaves the map as at most `gain`·e; a clamp does not grow it.
    public var gain: Double {
        effectiveRows.map { abs($0[0]) + abs($0[1]) + abs($0[2]) + abs($0[3]) }.max() ?? 0
    }
}
