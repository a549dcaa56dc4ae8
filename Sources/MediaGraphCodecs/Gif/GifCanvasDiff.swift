/// What a viewer shows after the frames so far (every frame is left in place), and the part of a
/// new frame that differs from it: the changed rectangle, and unchanged pixels turned into the
/// transparent index. A pixel counts as unchanged only when its palette colour is exactly the
/// colour already shown, so the decoded frames are the same with and without transparency.
struct GifCanvasDiff {
    let width: Int
    let height: Int
    /// 0x00BBGGRR per pixel; empty until the first frame.
    private var canvas: [UInt32] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Updates the canvas with `indices` (full frame, `width` bytes per row, colours from `rgb`)
    /// and returns the changed rectangle (nil when nothing changed). When `transparentIndex` is
    /// given, unchanged pixels in `indices` are set to it. The first frame is all changed.
    mutating func apply(indices: UnsafeMutablePointer<UInt8>, rgb: [UInt8], transparentIndex: Int?) -> GifRect? {
        var colours = [UInt32](repeating: 0, count: 256)
        for i in 0..<min(rgb.count / 3, 256) {
            colours[i] = UInt32(rgb[3 * i]) | UInt32(rgb[3 * i + 1]) << 8 | UInt32(rgb[3 * i + 2]) << 16
        }
        if canvas.isEmpty {
            canvas = [UInt32](repeating: 0, count: width * height)
            for p in 0..<width * height { canvas[p] = colours[Int(indices[p])] }
            return GifRect(x: 0, y: 0, width: width, height: height)
        }
        var minX = width, maxX = -1, minY = height, maxY = -1
        let transparent = UInt8(truncatingIfNeeded: transparentIndex ?? 0)
        let useTransparency = transparentIndex != nil
        colours.withUnsafeBufferPointer { colours in
            canvas.withUnsafeMutableBufferPointer { canvas in
                for y in 0..<height {
                    let row = indices + y * width
                    let shown = canvas.baseAddress! + y * width
                    var rowMin = width, rowMax = -1
                    for x in 0..<width {
                        let c = colours[Int(row[x])]
                        if c == shown[x] {
                            if useTransparency { row[x] = transparent }
                        } else {
                            shown[x] = c
                            if x < rowMin { rowMin = x }
                            rowMax = x
                        }
                    }
                    if rowMax >= 0 {
                        minX = min(minX, rowMin); maxX = max(maxX, rowMax)
                        if y < minY { minY = y }
                        maxY = y
                    }
                }
            }
        }
        guard maxX >= 0 else { return nil }
        return GifRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
