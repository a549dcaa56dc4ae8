import MediaGraphCodecs
import MediaGraphCore

/// A contact sheet: the thumbnails in a grid on a dark background, each with its time
/// (`H:MM:SS`) under it. No font library is used: the digits and the colon come from a 5x7
/// bitmap font drawn here, scaled with the tile (freetype is on the machine, but a new C module
/// for eleven glyphs was not worth it). The sheet is RGBA memory allocated once; each picture is
/// scaled by libswscale straight into its cell.
struct ThumbnailSheet {
    static let margin = 6
    static let background: (UInt8, UInt8, UInt8) = (24, 24, 24)

    let path: String
    let columns: Int
    let tile: (width: Int, height: Int)
    let glyphScale: Int
    let labelHeight: Int
    let width: Int
    let height: Int
    let stride: Int
    let quality: Int
    private let memory: UnsafeMutableRawPointer
    private let converter: PixelConverter
    private var placed = 0
    private let owner: Owner

    /// Frees the canvas with the sheet (a struct cannot have a deinit that owns memory safely).
    private final class Owner {
        let memory: UnsafeMutableRawPointer
        init(_ m: UnsafeMutableRawPointer) { memory = m }
        deinit { memory.deallocate() }
    }

    init(path: String, count: Int, columns: Int, tile: (width: Int, height: Int), source: VideoFormat, quality: Int) throws {
        guard StillImageFormat(fileName: path) != nil else {
            throw NodeFailure("thumbnails: cannot tell the sheet's format from '\(path)': expected .png, .jpg, .jpeg or .webp")
        }
        guard (1...100).contains(columns) else { throw NodeFailure("thumbnails: columns: expected 1...100, found \(columns)") }
        self.path = path
        self.columns = Swift.min(columns, count)
        self.tile = tile
        self.quality = quality
        glyphScale = Swift.max(1, tile.width / 160)
        labelHeight = 7 * glyphScale + 2 * Self.margin
        let rows = (count + self.columns - 1) / self.columns
        width = self.columns * (tile.width + Self.margin) + Self.margin
        height = rows * (tile.height + labelHeight) + Self.margin
        if let problem = MediaLimits.frameSizeProblem(width: width, height: height) {
            throw NodeFailure("thumbnails: the contact sheet would be too large (\(problem)): fewer pictures, more columns or a smaller width")
        }
        stride = (width * 4 + 63) & ~63
        memory = .allocate(byteCount: stride * height, alignment: 64)
        owner = Owner(memory)
        let bg = Self.background
        let p = memory.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            let row = p + y * stride
            for x in 0..<width { row[4 * x] = bg.0; row[4 * x + 1] = bg.1; row[4 * x + 2] = bg.2; row[4 * x + 3] = 255 }
        }
        converter = try PixelConverter(from: source, to: VideoFormat(pixelFormat: .rgba, width: tile.width, height: tile.height))
    }

    /// Puts the next picture in its cell and its time under it.
    mutating func add(_ planes: FramePlanes, seconds: Double) throws {
        let col = placed % columns, row = placed / columns
        let x0 = Self.margin + col * (tile.width + Self.margin)
        let y0 = Self.margin + row * (tile.height + labelHeight)
        let base = memory.assumingMemoryBound(to: UInt8.self)
        let cell = FramePlanes(format: .rgba, width: tile.width, height: tile.height,
                               data0: base + y0 * stride + x0 * 4, stride0: stride)
        try converter.convert(source: planes, destination: cell)
        let text = Self.label(seconds)
        let textWidth = text.count * 6 * glyphScale - glyphScale
        drawText(text, x: x0 + Swift.max(0, (tile.width - textWidth) / 2), y: y0 + tile.height + Self.margin)
        placed += 1
    }

    /// Encodes the sheet and writes it through an output file.
    func write() throws {
        guard let format = StillImageFormat(fileName: path) else { return }
        let encoder = try StillImageEncoder(settings: StillImageSettings(format: format, quality: quality),
                                            source: VideoFormat(pixelFormat: .rgba, width: width, height: height))
        let planes = FramePlanes(format: .rgba, width: width, height: height,
                                 data0: memory.assumingMemoryBound(to: UInt8.self), stride0: stride)
        try ThumbnailMaker.write(encoder, planes, to: path)
    }

    /// `H:MM:SS` (hours only when there are some: `M:SS`).
    static func label(_ seconds: Double) -> String {
        let s = Int(Swift.max(0, seconds.isFinite ? seconds : 0))
        let mm = s / 60 % 60, ss = s % 60
        let two = { (v: Int) in v < 10 ? "0\(v)" : "\(v)" }
        return s >= 3600 ? "\(s / 3600):\(two(mm)):\(two(ss))" : "\(mm):\(two(ss))"
    }

    /// 5x7 glyphs for 0–9 and ':', one byte per row, bit 4 the leftmost column.
    static let glyphs: [Character: [UInt8]] = [
        "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        ":": [0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00],
    ]

    private func drawText(_ text: String, x: Int, y: Int) {
        let base = memory.assumingMemoryBound(to: UInt8.self)
        var penX = x
        for ch in text {
            if let rows = Self.glyphs[ch] {
                for (gy, bits) in rows.enumerated() {
                    for gx in 0..<5 where bits & (0x10 >> gx) != 0 {
                        for sy in 0..<glyphScale {
                            let py = y + gy * glyphScale + sy
                            guard py < height else { continue }
                            for sx in 0..<glyphScale {
                                let px = penX + gx * glyphScale + sx
                                guard px < width else { continue }
                                let p = base + py * stride + px * 4
                                p[0] = 230; p[1] = 230; p[2] = 230; p[3] = 255
                            }
                        }
                    }
                }
            }
            penX += 6 * glyphScale
        }
    }
}
