import MediaGraphCore

/// A cheap scene-change measure: the picture's luma averaged over a 64x36 grid of cells (every
/// 4th pixel of every 4th row sampled inside each cell; RGB frames use (R + 2G + B) / 4), and
/// the score between two frames is the mean absolute difference of the cells, divided by 255:
/// 0 for the same picture, 1 for black after white. A cut between two different shots scores
/// roughly 0.2–0.6; a pan or a fade scores a few hundredths per frame. Costs about 1/16 of one
/// pass over the luma plane, with no allocation per frame.
struct SnapshotSceneMeter {
    static let columns = 64
    static let rows = 36
    static let step = 4
    private var previous: [Float]
    private var current: [Float]
    private var hasPrevious = false

    init() {
        previous = [Float](repeating: 0, count: Self.columns * Self.rows)
        current = previous
    }

    /// The score of `frame` against the frame measured before it (0 for the first).
    mutating func score(_ frame: FramePlanes) -> Double {
        let w = frame.width, h = frame.height
        let cols = Swift.min(Self.columns, w), rws = Swift.min(Self.rows, h)
        let base = frame.data0, stride = frame.stride0
        let bpp = frame.format.bytesPerPixel(plane: 0)
        let deep = frame.format.bitDepth > 8
        let rgb = frame.format.isRGB
        let gOffset = 1, rOffset = frame.format == .bgra ? 2 : 0, bOffset = frame.format == .bgra ? 0 : 2
        current.withUnsafeMutableBufferPointer { cells in
            for cy in 0..<rws {
                let y0 = cy * h / rws, y1 = Swift.max(y0 + 1, (cy + 1) * h / rws)
                for cx in 0..<cols {
                    let x0 = cx * w / cols, x1 = Swift.max(x0 + 1, (cx + 1) * w / cols)
                    var sum = 0, n = 0
                    var y = y0
                    while y < y1 {
                        let row = base + y * stride
                        var x = x0
                        while x < x1 {
                            let p = row + x * bpp
                            if rgb {
                                sum += (Int(p[rOffset]) + 2 * Int(p[gOffset]) + Int(p[bOffset])) >> 2
                            } else if deep {
                                sum += (Int(p[0]) | Int(p[1]) << 8) >> (frame.format.bitDepth - 8)
                            } else {
                                sum += Int(p[0])
                            }
                            n += 1
                            x += Self.step
                        }
                        y += Self.step
                    }
                    cells[cy * Self.columns + cx] = Float(sum) / Float(Swift.max(n, 1))
                }
            }
        }
        var total: Float = 0
        for i in 0..<(rws * Self.columns) where i % Self.columns < cols { total += Swift.abs(current[i] - previous[i]) }
        let score = hasPrevious ? Double(total) / Double(cols * rws) / 255 : 0
        swap(&previous, &current)
        hasPrevious = true
        return score
    }
}
