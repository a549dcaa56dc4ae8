/// Floyd–Steinberg error diffusion (serpentine rows) onto a fixed palette: used with the clip
/// palette, where libimagequant's own remapping costs 22–29 ms per 640x360 frame because it
/// rebuilds its search structure and refines the palette on every call (measured with
/// `mediagraph-bench gif`); this one keeps a nearest-colour cache for the whole clip.
///
/// The nearest colour is exact: the palette is split into 2^18 cells (6 bits per channel), and
/// each cell, on first use per palette, gets the short list of palette colours that can be
/// nearest to some colour inside it (within the nearest distance from the cell's centre plus the
/// cell's diameter); a pixel then compares only those. (A cache of the nearest colour to each
/// cell's centre alone puts dither noise on flat areas whose colour is in the palette.)
/// Distances are plain squared RGB differences (as ffmpeg's paletteuse).
public final class GifErrorDiffusion {
    /// Per cell: offset of its candidates in `candidates` (-1: not made yet) and their count.
    private var cellStart = [Int32](repeating: -1, count: 1 << 18)
    private var cellCount = [UInt8](repeating: 0, count: 1 << 18)
    private var candidates: [UInt8] = []
    private var palette: [Int32] = []
    /// Two rows of accumulated error (r, g, b per pixel, one pixel of margin each side), in
    /// sixteenths.
    private var errors: [Int32] = []

    public init() {}

    /// Maps `rgba` (`width * 4` bytes per row) onto `rgb` (the palette's triplets), diffusing
    /// `strength` (0 = nearest colour ... 1 = full Floyd–Steinberg) of each pixel's error.
    public func remap(_ rgba: UnsafePointer<UInt8>, width: Int, height: Int, rgb: [UInt8], strength: Double,
                      into indices: UnsafeMutablePointer<UInt8>) {
        setPalette(rgb)
        let rowLength = (width + 2) * 3
        if errors.count != 2 * rowLength { errors = [Int32](repeating: 0, count: 2 * rowLength) }
        let scale = Int32((strength * 16).rounded())  // error kept, in sixteenths
        do {
            palette.withUnsafeBufferPointer { pal in
                errors.withUnsafeMutableBufferPointer { err in
                    let e = err.baseAddress!
                    for i in 0..<rowLength { e[i] = 0 }
                    for y in 0..<height {
                        let cur = e + (y & 1) * rowLength, next = e + (1 - (y & 1)) * rowLength
                        for i in 0..<rowLength { next[i] = 0 }
                        let row = rgba + y * width * 4, out = indices + y * width
                        let forward = y & 1 == 0
                        let step = forward ? 1 : -1
                        var x = forward ? 0 : width - 1
                        for _ in 0..<width {
                            let k = (x + 1) * 3
                            let r = clamp(Int32(row[4 * x]) + cur[k] / 16)
                            let g = clamp(Int32(row[4 * x + 1]) + cur[k + 1] / 16)
                            let b = clamp(Int32(row[4 * x + 2]) + cur[k + 2] / 16)
                            let cell = Int((r >> 2) << 12 | (g >> 2) << 6 | (b >> 2))
                            if cellStart[cell] < 0 { makeCell(cell) }
                            let i = nearest(r, g, b, cell)
                            out[x] = UInt8(truncatingIfNeeded: i)
                            if scale > 0 {
                                let c = pal[Int(i)]
                                let er = (r - (c >> 16)) * scale / 16, eg = (g - (c >> 8 & 255)) * scale / 16, eb = (b - (c & 255)) * scale / 16
                                let ahead = k + 3 * step, behind = k - 3 * step
                                cur[ahead] += er * 7; cur[ahead + 1] += eg * 7; cur[ahead + 2] += eb * 7
                                next[behind] += er * 3; next[behind + 1] += eg * 3; next[behind + 2] += eb * 3
                                next[k] += er * 5; next[k + 1] += eg * 5; next[k + 2] += eb * 5
                                next[ahead] += er; next[ahead + 1] += eg; next[ahead + 2] += eb
                            }
                            x += step
                        }
                    }
                }
            }
        }
    }

    @inline(__always) private func clamp(_ v: Int32) -> Int32 { min(max(v, 0), 255) }

    private func setPalette(_ rgb: [UInt8]) {
        var packed = [Int32](repeating: 0, count: rgb.count / 3)
        for i in packed.indices {
            let r = Int32(rgb[3 * i]), g = Int32(rgb[3 * i + 1]), b = Int32(rgb[3 * i + 2])
            packed[i] = r << 16 | g << 8 | b
        }
        if packed != palette {
            palette = packed
            for i in cellStart.indices { cellStart[i] = -1 }
            candidates.removeAll(keepingCapacity: true)
        }
    }

    /// The exact nearest palette colour among the cell's candidates.
    @inline(__always) private func nearest(_ r: Int32, _ g: Int32, _ b: Int32, _ cell: Int) -> UInt8 {
        let start = Int(cellStart[cell]), count = Int(cellCount[cell])
        var best = candidates[start]
        if count == 1 { return best }
        var bestDistance = Int32.max
        for j in start..<start + count {
            let c = palette[Int(candidates[j])]
            let dr = r - (c >> 16), dg = g - (c >> 8 & 255), db = b - (c & 255)
            let d = dr * dr + dg * dg + db * db
            if d < bestDistance { bestDistance = d; best = candidates[j] }
        }
        return best
    }

    /// Lists the palette colours that can be nearest to a colour in `cell` (a cube of 4 levels
    /// per side, centre at +2): those within (nearest distance from the centre + 2 * 3.5).
    private func makeCell(_ cell: Int) {
        let r = Int32(cell >> 12) << 2 | 2, g = Int32(cell >> 6 & 63) << 2 | 2, b = Int32(cell & 63) << 2 | 2
        var distances = [Double](repeating: 0, count: palette.count)
        var nearestDistance = Double.infinity
        for (i, c) in palette.enumerated() {
            let dr = r - (c >> 16), dg = g - (c >> 8 & 255), db = b - (c & 255)
            distances[i] = Double(dr * dr + dg * dg + db * db).squareRoot()
            nearestDistance = min(nearestDistance, distances[i])
        }
        let limit = nearestDistance + 7.0  // a cell's half diagonal is sqrt(3) * 2 ≈ 3.46, twice
        cellStart[cell] = Int32(candidates.count)
        var count = 0
        for i in palette.indices where distances[i] <= limit && count < 255 {
            candidates.append(UInt8(i))
            count += 1
        }
        cellCount[cell] = UInt8(count)
    }
}
